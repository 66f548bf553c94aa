"""Every endpoint end to end, on both backends: results are the Python API's JSON, refusals are 4xx with
the engine's diagnostics (409 for a record's state, 422 for invalid input), dry runs commit nothing."""

from __future__ import annotations

import json

import httpx

from memql.interfaces.rest.errors import status_for
from memql.lang.diagnostics import Diagnostic


def encode(client: httpx.Client, text: str, **args) -> str:
    r = client.post("/v1/execute", json={"op": "Encode", "args": {"payload": {"text": text}, **args}})
    assert r.status_code == 200, r.text
    return r.json()["data"]["id"]


def test_execute_a_workflow_with_a_dry_run_then_for_real(user):
    workflow = [
        {"op": "Encode", "args": {"payload": {"text": "Q2 budget draft: 1.2M"}, "tags": ["budget"]}},
        {"op": "Lock", "target": {"from_step": 0}, "args": {"mode": "read_only", "reason": "board review"}},
    ]
    dry = user.post("/v1/execute", params={"dry_run": "true"}, json=workflow)
    assert dry.status_code == 200 and dry.json()["dry_run"] is True
    assert user.post("/v1/retrieve", json={"filter": {"status": "any"}}).json()["data"]["count"] == 0
    done = user.post("/v1/execute", json={"workflow": workflow}).json()
    assert done["success"] and done["op"] == "Workflow" and len(done["steps"]) == 2
    record_id = done["steps"][0]["data"]["id"]
    # locked: an Update is refused with 409, and a failing workflow rolls back its earlier steps
    refused = user.post(
        "/v1/execute",
        json=[
            {"op": "Encode", "args": {"payload": {"text": "rolled back"}}},
            {"op": "Delete", "target": {"ids": [record_id]}},
        ],
    )
    assert refused.status_code == 409, refused.text
    assert refused.json()["failed_step"] == 1
    assert refused.json()["diagnostics"][0]["rule"] == "governance.locked"
    assert user.post("/v1/retrieve", json={"query": "rolled back"}).json()["data"]["count"] == 0


def test_invalid_programs_are_422_with_the_languages_diagnostics(user):
    cases = [
        (b'{"op": "Label", "target": {"ids": ["1"]}, "args": {}}', "label.empty", "/args"),
        (b"{nope", "json.malformed", None),
        (b'{"op": "Encode", "op": "Delete"}', "json.duplicate_key", None),
        (b"[" * 10_000, "json.too_deep", None),
        (b'{"op": "Expire", "target": {"ids": ["1"]}, "args": {"ttl": "P1D"}}', "expire.on_expire", None),
        (b"\xff\xfe", "json.encoding", None),
    ]
    for body, rule, path in cases:
        r = user.post("/v1/execute", content=body, headers={"content-type": "application/json"})
        assert r.status_code == 422, (body[:40], r.text)
        first = r.json()["diagnostics"][0]
        assert first["rule"] == rule and (path is None or first["path"] == path), r.text
        v = user.post("/v1/validate", content=body)
        assert v.status_code == 200 and v.json()["valid"] is False
        assert v.json()["diagnostics"][0]["rule"] == rule
    ok = user.post("/v1/validate", json={"op": "Retrieve", "target": {"search": {"intent": {"query": "x"}}}})
    assert ok.json()["valid"] is True and ok.json()["canonical"]["stage"] == "RET"


def test_a_lone_surrogate_anywhere_in_a_body_is_422_json_encoding(user):
    """JSON's escapes can spell half of a UTF-16 pair (a text cut in the middle of an emoji): in a key it
    reached a diagnostic quoting the key, which the server could not encode (500, "http.internal")."""
    encode(user, "the ferry leaves at nine")
    profile = user.get("/v1/export").json()["profile"]
    for path, body, where in (
        ("/v1/execute", b'{"op": "Encode", "args": {"payload": {"text": "x"}, "\\udcff": 1}}', "/args"),
        (
            "/v1/execute",
            b'{"op": "Encode", "args": {"payload": {"text": "x \\ud83d"}}}',
            "/args/payload/text",
        ),
        ("/v1/retrieve", b'{"query": "ferry", "\\ud83d": 1}', ""),  # (a busiest route's own parsing)
        ("/v1/import", json.dumps(profile).replace("the ferry", "the ferry \\ud83d").encode(), None),
    ):
        r = user.post(path, content=body, headers={"content-type": "application/json"})
        assert r.status_code == 422, (path, r.text)
        first = r.json()["diagnostics"][0]
        assert first["rule"] == "json.encoding" and (where is None or first["path"] == where), r.text
    checked = user.post("/v1/validate", content=b'{"op": "Encode", "\\udcff": 1}').json()
    assert checked["valid"] is False and checked["diagnostics"][0]["rule"] == "json.encoding"
    emoji = user.post(
        "/v1/execute", content=b'{"op": "Encode", "args": {"payload": {"text": "\\ud83d\\ude00"}}}'
    )
    assert emoji.status_code == 200, emoji.text  # a whole pair is one character
    rows = user.post("/v1/retrieve", json={"filter": {}, "include": ["text"]}).json()["data"]["rows"]
    assert sorted(row["text"] for row in rows) == ["the ferry leaves at nine", "\U0001f600"]


def test_plan_with_the_rules_planner_then_confirm_a_destructive_one(user):
    r = user.post("/v1/plan", json={"text": "Remember that the standup moved to 9:30", "execute": True})
    assert r.status_code == 200, r.text
    assert r.json()["executed"] is True and r.json()["program"]["op"] == "Encode"
    record_id = r.json()["result"]["data"]["id"]
    destroy = f"permanently delete memory {record_id}"
    plan_only = user.post("/v1/plan", json={"text": destroy})
    assert plan_only.status_code == 200 and plan_only.json()["destructive"] is True
    assert "executed" not in plan_only.json()
    held = user.post("/v1/plan", json={"text": destroy, "execute": True})
    assert held.status_code == 200 and held.json()["needs_confirmation"] is True
    assert held.json()["executed"] is False
    assert user.get(f"/v1/memories/{record_id}").status_code == 200  # the dry run changed nothing
    done = user.post("/v1/plan", json={"text": destroy, "execute": True, "confirm": True})
    assert done.status_code == 200 and done.json()["executed"] is True
    assert user.get(f"/v1/memories/{record_id}").status_code == 404  # hard-deleted
    unclear = user.post("/v1/plan", json={"text": "do the thing with that"})
    assert unclear.status_code == 422 and unclear.json()["program"] is None
    no_model = user.post("/v1/plan", json={"text": "remember tea", "planner": "llm"})
    assert no_model.status_code == 422 and no_model.json()["diagnostics"][0]["rule"] == "plan.no_llm"
    bad = user.post("/v1/plan", json={"text": "x", "planner": "oracle"})
    assert bad.status_code == 422 and bad.json()["diagnostics"][0] == {
        "path": "/planner",
        "rule": "field.enum",
        "severity": "error",
        "message": "Input should be 'rules' or 'llm'",
    }


def test_retrieve_by_query_ids_and_filter(user):
    a = encode(user, "The espresso machine is on floor 3", tags=["office"])
    encode(user, "Quarterly taxes are due in April", tags=["finance"])
    found = user.post("/v1/retrieve", json={"query": "espresso", "include": ["id", "text", "score"]}).json()
    assert [row["id"] for row in found["data"]["rows"]] == [a]
    assert found["data"]["rows"][0]["score"] > 0
    by_id = user.post("/v1/retrieve", json={"ids": [a]}).json()["data"]["rows"]
    assert [row["id"] for row in by_id] == [a]
    tagged = user.post("/v1/retrieve", json={"filter": {"has_tags": ["finance"]}, "include": ["tags"]}).json()
    assert tagged["data"]["rows"] == [{"tags": ["finance"]}]
    r = user.post("/v1/retrieve", json={"filter": {"status": "sideways"}})
    assert r.status_code == 422 and r.json()["diagnostics"][0]["rule"] == "field.enum"


def test_one_memory_and_its_history(user):
    record_id = encode(user, "Mira prefers tea")
    user.post("/v1/execute", json={"op": "Promote", "target": {"ids": [record_id]}, "args": {"weight": 0.9}})
    memory = user.get(f"/v1/memories/{record_id}").json()["memory"]
    assert memory["text"] == "Mira prefers tea" and memory["weight"] == 0.9 and memory["owner"] == "mira"
    events = user.get(f"/v1/memories/{record_id}/history").json()["events"]
    assert [(e["op"], e["change"]) for e in events] == [("Encode", "insert"), ("Promote", "update")]
    assert events[1]["before"]["weight"] == 0.5 and events[1]["after"]["weight"] == 0.9
    missing = user.get("/v1/memories/999999")
    assert missing.status_code == 404 and missing.json()["diagnostics"][0]["rule"] == "target.not_found"
    assert user.get("/v1/memories/999999/history").status_code == 404
    # digits that are no decimal number ('³' is a digit to str.isdigit, not to int()) name no record
    for odd in ("\u00b3", "1\u00b2", "99999999999999999999999"):
        assert user.get(f"/v1/memories/{odd}").status_code == 404, odd
        assert user.get(f"/v1/memories/{odd}/history").status_code == 404, odd
        assert user.post(f"/v1/proposals/{odd}/approve").status_code == 404, odd
    user.post("/v1/execute", json={"op": "Delete", "target": {"ids": [record_id]}})
    gone = user.get(f"/v1/memories/{record_id}")
    assert gone.status_code == 404 and gone.json()["diagnostics"][0]["rule"] == "target.hidden"
    assert user.get("/v1/no/such/endpoint").json()["diagnostics"][0]["rule"] == "http.not_found"
    assert user.delete("/v1/execute").status_code == 405


def test_facts_current_at_a_time_and_history(user):
    for value, when in [("2026-06-01", "2026-01-01T00:00:00Z"), ("2026-07-15", "2026-03-01T00:00:00Z")]:
        r = user.post(
            "/v1/execute",
            json={
                "op": "Encode",
                "args": {
                    "payload": {
                        "structured": {"subject": "passport", "attribute": "deadline", "value": value}
                    },
                    "time": when,
                },
            },
        )
        assert r.status_code == 200, r.text
    now = user.get("/v1/facts/passport").json()
    assert [(f["attribute"], f["value"]) for f in now["facts"]] == [("deadline", "2026-07-15")]
    then = user.get("/v1/facts/passport", params={"attribute": "deadline", "as_of": "2026-02-01"}).json()
    assert [f["value"] for f in then["facts"]] == ["2026-06-01"]
    history = user.get("/v1/facts/passport/deadline/history").json()["facts"]
    assert [f["value"] for f in history] == ["2026-06-01", "2026-07-15"]
    assert history[0]["valid_to"] == history[1]["valid_from"]
    bad = user.get("/v1/facts/passport", params={"as_of": "not a time"})
    assert bad.status_code == 422 and bad.json()["diagnostics"][0]["path"] == "/as_of"


def test_proposals_list_approve_edit_reject(server, tenant, user):
    agent = server.client(server.key(tenant, "bot", role="agent"))
    ids = [
        agent.post("/v1/execute", json={"op": "Encode", "args": {"payload": {"text": t}}}).json()["data"][
            "id"
        ]
        for t in ("Mira likes jasmine tea", "Mira's badge number is 4411", "Mira dislikes meetings")
    ]
    listed = user.get("/v1/proposals").json()["data"]["rows"]
    assert sorted(row["id"] for row in listed) == sorted(ids)
    assert {row["agent"] for row in listed} == {"bot"}
    assert user.post(f"/v1/proposals/{ids[0]}/approve").status_code == 200
    edited = user.post(f"/v1/proposals/{ids[1]}/edit", json={"text": "Mira's badge is 4412"})
    assert edited.status_code == 200, edited.text
    assert user.post(f"/v1/proposals/{ids[2]}/reject").status_code == 200
    again = user.post(f"/v1/proposals/{ids[2]}/approve")  # decided already: the record's state says no
    assert again.status_code == 409 and again.json()["diagnostics"][0]["rule"] == "proposal.transition"
    assert user.get("/v1/proposals").json()["data"]["count"] == 0
    assert user.get("/v1/proposals", params={"status": "rejected"}).json()["data"]["count"] == 1
    assert user.get(f"/v1/memories/{ids[1]}").json()["memory"]["text"] == "Mira's badge is 4412"
    history = user.get(f"/v1/memories/{ids[1]}/history").json()["events"]
    assert [e["proposal"] for e in history] == ["proposed", "approved with edits"]
    bad_edit = user.post(f"/v1/proposals/{ids[0]}/edit", json={"embedding": [1, 2]})
    assert bad_edit.status_code in (409, 422), bad_edit.text
    assert user.get("/v1/proposals", params={"status": "someday"}).status_code == 422


def test_export_then_import_into_another_tenant(server, tenant, user):
    encode(user, "Mira prefers window seats", tags=["travel"])
    exported = user.get("/v1/export")
    assert exported.status_code == 200 and exported.json()["count"] == 1
    profile = exported.json()["profile"]
    other = server.client(server.key(f"{tenant}-copy", "mira"))
    dry = other.post("/v1/import", params={"dry_run": "true"}, json=profile)
    assert dry.status_code == 200 and dry.json()["dry_run"] is True and len(dry.json()["imported"]) == 1
    assert other.post("/v1/retrieve", json={"query": "window"}).json()["data"]["count"] == 0
    done = other.post("/v1/import", json=profile)
    assert done.status_code == 200, done.text
    assert other.post("/v1/retrieve", json={"query": "window"}).json()["data"]["count"] == 1
    again = other.post("/v1/import", json=profile)  # the same a2p ids: all or nothing, nothing imported
    assert again.status_code == 409 and again.json()["diagnostics"][0]["rule"] == "a2p.id_exists"
    assert other.post("/v1/import", json={}).status_code == 422
    assert other.post("/v1/import", content=b"[1, 2").status_code == 422


def test_status_mapping_follows_rule_families():
    def d(rule: str, severity: str = "error") -> Diagnostic:
        return Diagnostic(path="", rule=rule, severity=severity, message="m")  # type: ignore[arg-type]

    assert status_for([d("consent.read")]) == 403
    assert status_for([d("permission.owner")]) == 403
    assert status_for([d("governance.locked")]) == 409
    assert status_for([d("target.not_found")]) == 404
    assert status_for([d("store.busy")]) == 503  # another writer held the store: try again
    assert status_for([d("field.enum")]) == 422
    assert status_for([d("compat.alias", "warning"), d("governance.lock_owner")]) == 403
    assert status_for([]) == 422


def test_a_conversation_is_readable_only_by_its_participants(server, tenant, user):
    # issue 16 item 6: through the REST server too, a conversation's records are its user's and agent's
    from memql import Memory

    with Memory(server.location, tenant=tenant, actor="mira", embedder=None) as m:
        conv = m.conversation(user="mira", agent="assistant", strategy="flat")
        conv.add_turn("Ana moved to Porto.", "Nice!")
    ask = {"filter": {"has_tags": ["conv:mira/assistant"]}}
    # the two messages and the fact formed from the first (Ana's residence: Porto)
    assert user.post("/v1/retrieve", json=ask).json()["data"]["count"] == 3
    agent = server.client(server.key(tenant, "assistant", role="agent", consent="read"))
    assert agent.post("/v1/retrieve", json=ask).json()["data"]["count"] == 3
    for other in (
        server.client(server.key(tenant, "ravi")),
        server.client(server.key(tenant, "spy", role="agent", consent="read")),
    ):
        assert other.post("/v1/retrieve", json=ask).json()["data"]["count"] == 0
        assert other.post("/v1/retrieve", json={"query": "Porto"}).json()["data"]["count"] == 0
