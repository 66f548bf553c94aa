"""POST /v1/remember and POST /v1/messages, on both backends: what people say, handed to memql over REST to
form typed facts from — the shells over `Memory.remember` and `Conversation.add_messages` (as MCP's
memory_remember and memory_add_messages), governed as the caller's API key says, refusals structured."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import httpx
import rest_server


def rules(r: httpx.Response) -> list[tuple[str, str]]:
    return [(d["path"], d["rule"]) for d in r.json()["diagnostics"]]


def test_remember_forms_facts_a_newer_value_supersedes(user):
    first = user.post("/v1/remember", json={"said": "I live in Lisbon.", "time": "2026-02-10T09:00:00Z"})
    assert first.status_code == 200, first.text
    [lisbon] = first.json()["memories"]
    assert (lisbon["event"], lisbon["fact"], lisbon["proposal"]) == (
        "ADD",
        {"subject": "mira", "attribute": "residence", "value": "Lisbon"},
        False,
    )
    moved = user.post(
        "/v1/remember", json={"said": "I moved to Porto.", "time": "2026-03-01", "tags": ["home"]}
    )
    [porto] = moved.json()["memories"]
    assert porto["event"] == "UPDATE" and porto["superseded"] == [
        {"id": lisbon["id"], "text": lisbon["text"]}
    ]
    again = user.post("/v1/remember", json={"said": "I moved to Porto.", "time": "2026-03-01"}).json()
    assert [(m["id"], m["event"]) for m in again["memories"]] == [(porto["id"], "NONE")]
    facts = user.get("/v1/facts/mira").json()["facts"]
    assert [(f["attribute"], f["value"]) for f in facts] == [("residence", "Porto")]
    history = user.get("/v1/facts/mira/residence/history").json()["facts"]
    assert [f["value"] for f in history] == ["Lisbon", "Porto"]
    assert user.get(f"/v1/memories/{porto['id']}").json()["memory"]["tags"] == ["home"]
    # an exchange: the others' turns are context; a message with no fact is kept as said
    said = [{"speaker": "ana", "text": "How was the move?"}, {"speaker": "mira", "text": "Tiring, honestly."}]
    kept = user.post("/v1/remember", json={"said": said}).json()["memories"]
    assert [(m["event"], m["text"], m["fact"]) for m in kept] == [("ADD", "Tiring, honestly.", None)]
    none = user.post("/v1/remember", json={"said": "Tiring again.", "keep_unformed": False}).json()
    assert none == {"success": True, "memories": [], "diagnostics": []}


def test_remember_is_governed_as_the_callers_key(server, tenant, user):
    user.post("/v1/remember", json={"said": "I live in Lisbon.", "write_perm_level": "owner_only"})
    # another user of the tenant may not supersede mira's own fact
    ravi = server.client(server.key(tenant, "ravi"))
    r = ravi.post("/v1/remember", json={"said": "I moved to Oslo.", "speaker": "mira"})
    assert (r.status_code, rules(r)) == (403, [("/args/payload/structured", "permission.fact")])
    assert "Lisbon" not in r.text  # never the value it may not read
    # an agent below read_write consent proposes; the fact stays as it was until mira approves
    agent = server.client(server.key(tenant, "helper", role="agent", consent="propose"))
    proposed = agent.post("/v1/remember", json={"said": "I moved to Rome.", "speaker": "mira"})
    assert proposed.status_code == 200, proposed.text
    [rome] = proposed.json()["memories"]
    assert rome["proposal"] is True and rome["superseded"] == []
    assert [f["value"] for f in user.get("/v1/facts/mira").json()["facts"]] == ["Lisbon"]
    assert [r["id"] for r in user.get("/v1/proposals").json()["data"]["rows"]] == [rome["id"]]
    # a locked fact is not superseded: 409, nothing written
    current = user.get("/v1/facts/mira").json()["facts"][0]["id"]
    lock = {"op": "Lock", "target": {"ids": [current]}, "args": {"mode": "read_only", "reason": "hold"}}
    assert user.post("/v1/execute", json=lock).status_code == 200
    locked = user.post("/v1/remember", json={"said": "I moved to Faro."})
    assert locked.status_code == 409 and rules(locked)[0][1] == "governance.locked"
    assert [f["value"] for f in user.get("/v1/facts/mira").json()["facts"]] == ["Lisbon"]
    # another tenant's caller writes into its own tenant only
    stranger = server.client(server.key(f"{tenant}-b", "mira"))
    assert stranger.post("/v1/remember", json={"said": "I live in Oslo."}).status_code == 200
    assert [f["value"] for f in user.get("/v1/facts/mira").json()["facts"]] == ["Lisbon"]
    assert [f["value"] for f in stranger.get("/v1/facts/mira").json()["facts"]] == ["Oslo"]


def test_remember_refusals_are_structured(user):
    def refused(body: dict) -> tuple[int, list[tuple[str, str]]]:
        r = user.post("/v1/remember", json=body)
        return r.status_code, rules(r)

    assert refused({"said": "I live in Lisbon.", "time": "the day after never"}) == (
        422,
        [("/time", "time.invalid")],
    )
    assert refused({"said": "I live in Lisbon.", "category": "a2p:x"}) == (
        422,
        [("/category", "field.unknown")],
    )
    assert refused({"said": [{"speaker": "mira"}]})[0] == 422
    assert refused({"said": "x", "speaker": ""})[0] == 422
    assert refused({"said": "x", "sensitivity": "secret"}) == (422, [("/sensitivity", "field.enum")])
    assert refused({"said": "I live in Lisbon.", "tags": ["a" * 300]})[0] == 422
    assert user.get("/v1/facts/mira").json()["facts"] == []


def test_messages_form_a_conversations_facts_for_its_context(user):
    first = [
        {"role": "user", "text": "My passport deadline is July 15.", "time": "2026-02-10T09:00:00Z"},
        {"role": "assistant", "text": "Noted, July 15.", "time": "2026-02-10T09:00:05Z", "source_id": "A1"},
    ]
    r = user.post("/v1/messages", json={"messages": first})
    assert r.status_code == 200, r.text
    stored = r.json()
    assert stored["conversation"] == "mira/assistant"
    assert [(m["role"], m["source_ids"], m["position"]) for m in stored["messages"]] == [
        ("user", ["M1"], 0),
        ("assistant", ["A1"], 1),
    ]
    assert len(stored["messages"][0]["fact_ids"]) == 1 and stored["messages"][1]["fact_ids"] == []
    fix = user.post(
        "/v1/messages",
        json={"messages": [{"role": "user", "text": "Correction: it's June 30."}], "time": "2026-02-20"},
    ).json()["messages"]
    assert fix[0]["position"] == 2 and fix[0]["fact_ids"]
    context = user.post("/v1/context", json={"query": "when is my passport due?"}).json()
    lead = context["pieces"][0]
    assert lead["level"] == "fact" and "June 30" in lead["text"] and lead["source_ids"] == ["M3"]


def test_messages_are_governed_and_all_or_nothing(server, tenant, user):
    one = {"messages": [{"role": "user", "text": "I adopted a cat named Miso."}]}
    ravi = server.client(server.key(tenant, "ravi"))
    r = ravi.post("/v1/messages", json={**one, "user": "mira"})
    assert (r.status_code, rules(r)) == (403, [("/user", "conversation.participant")])
    reader = server.client(server.key(tenant, "assistant", role="agent", consent="read"))
    r = reader.post("/v1/messages", json={**one, "user": "mira"})
    assert (r.status_code, rules(r)) == (403, [("", "consent.write")])
    spy = server.client(server.key(tenant, "spy", role="agent", consent="read_write"))
    r = spy.post("/v1/messages", json={**one, "user": "mira", "agent": "assistant"})
    assert (r.status_code, rules(r)) == (403, [("/agent", "conversation.participant")])
    # the conversation's own agent, with read_write consent, adds to it
    agent = server.client(server.key(tenant, "assistant", role="agent", consent="read_write"))
    assert agent.post("/v1/messages", json={**one, "user": "mira"}).status_code == 200
    # a bad message anywhere stores none of them
    bad = [
        {"role": "user", "text": "I moved to Porto."},
        {"role": "user", "text": "ok", "time": "never ever"},
    ]
    r = user.post("/v1/messages", json={"messages": bad})
    assert (r.status_code, rules(r)) == (422, [("/messages/1/time", "time.invalid")])
    r = user.post("/v1/messages", json={"messages": [{"role": "user", "text": "hi", "seen": True}]})
    assert (r.status_code, rules(r)) == (422, [("/messages/0/seen", "field.unknown")])
    assert user.post("/v1/messages", json={"messages": []}).status_code == 422
    context = user.post("/v1/context", json={"query": "Porto cat"}).json()
    assert "Miso" in context["text"] and "Porto" not in context["text"]
    # a conversation under a legal hold takes no new message
    hold = {
        "op": "Lock",
        "target": {"filter": {"has_tags": ["conv:mira/assistant"]}},
        "args": {"reason": "legal hold"},
    }
    assert user.post("/v1/execute", json=hold).status_code == 200
    r = user.post("/v1/messages", json=one)
    assert r.status_code == 409 and rules(r)[0][1] == "governance.locked"


def test_the_openapi_document_publishes_the_formation_endpoints(server):
    spec = rest_server.get(f"{server.base}/openapi.json").json()
    for path, fields in (
        (
            "/v1/remember",
            {"said", "speaker", "time", "tags", "facets", "sensitivity", "keep_unformed"}
            | {"read_perm_level", "write_perm_level"},
        ),
        ("/v1/messages", {"messages", "user", "agent", "conversation", "time"}),
    ):
        operation = spec["paths"][path]["post"]
        body = operation["requestBody"]["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[-1]
        assert set(spec["components"]["schemas"][body]["properties"]) == fields
        assert {"200", "401", "403", "409", "422"} <= set(operation["responses"])


def test_clients_adding_to_one_conversation_at_once_each_take_their_own_position(server, tenant, user):
    """A call opens the conversation where its last message is read: six clients at once all took the same
    next positions (60 messages, 12 positions), repeating turn ids. A server's calls for one conversation
    now open and store it one at a time."""
    clients = [server.client(server.key(tenant, "mira")) for _ in range(6)]

    def add(client: httpx.Client, who: int) -> list[int]:
        codes = []
        for i in range(5):
            body = {"messages": [{"role": "user", "text": f"client {who} says {i}"}]}
            codes.append(client.post("/v1/messages", json=body).status_code)
        return codes

    with ThreadPoolExecutor(len(clients)) as pool:
        codes = [c for done in pool.map(add, clients, range(len(clients))) for c in done]
    assert codes == [200] * 30
    found = user.post(
        "/v1/retrieve",
        json={"filter": {"has_tags": ["conv:mira/assistant"], "facets": {"level": "message"}, "limit": 100}},
    ).json()["data"]["rows"]
    rows = user.post("/v1/retrieve", json={"ids": [r["id"] for r in found], "include": ["facets"]}).json()
    positions = sorted(r["facets"]["position"] for r in rows["data"]["rows"])
    assert positions == list(range(30))
