"""POST /v1/context and Retrieve's `facts` over REST (issue 17, item 4), on both backends: the shell over the
Python API MCP's memory_context uses (cognition/conversation/served.py), with its refusals as structured
diagnostics, published in the OpenAPI document."""

from __future__ import annotations

import httpx
import pytest
import rest_server

from memql import Memory

QUERY = "when is my passport due?"


@pytest.fixture
def passport(server, tenant):
    """mira's passport deadline: July 15 on February 10, corrected to June 30 on February 20."""
    with Memory(server.location, tenant=tenant, actor="mira", embedder=None) as m:
        conv = m.conversation(user="mira", agent="assistant", strategy="flat", extractor="rules")
        conv.add_message("user", "My passport deadline is July 15.", time="2026-02-10T09:00:00Z")
        conv.add_message("user", "Correction: it's June 30.", time="2026-02-20T09:00:00Z")


def facts_text(context: dict) -> str:
    return "\n".join(p["text"] for p in context["pieces"] if p["level"] == "fact")


def test_context_leads_with_the_current_fact_and_reads_the_past(server, user, passport):
    r = user.post("/v1/context", json={"query": QUERY, "budget_tokens": 300})
    assert r.status_code == 200, r.text
    now = r.json()
    assert now["success"] and now["pieces"][0]["level"] == "fact" and now["pieces"][0]["source_ids"] == ["M2"]
    assert "June 30" in facts_text(now) and "July 15" not in facts_text(now)
    assert 0 < now["tokens"] <= 300 and now["strategy"] == "flat"
    then = user.post("/v1/context", json={"query": QUERY, "as_of": "2026-02-15T00:00:00Z"}).json()
    assert "July 15" in facts_text(then) and "June 30" not in then["text"]


def test_context_refusals_are_structured(server, tenant, user, passport):
    def refused(client: httpx.Client, body: dict) -> tuple[int, list[tuple[str, str]]]:
        r = client.post("/v1/context", json=body)
        return r.status_code, [(d["path"], d["rule"]) for d in r.json()["diagnostics"]]

    assert refused(user, {"query": "   "}) == (422, [("/query", "field.empty")])
    assert refused(user, {"query": QUERY, "as_of": "the day after never"}) == (
        422,
        [("/as_of", "time.invalid")],
    )
    assert refused(user, {"query": QUERY, "strategy": "nope"}) == (422, [("/strategy", "field.enum")])
    assert refused(user, {"query": QUERY, "budget_tokens": 0})[0] == 422
    assert refused(user, {"query": QUERY, "extra": 1}) == (422, [("/extra", "field.unknown")])
    ravi = server.client(server.key(tenant, "ravi"))
    assert refused(ravi, {"query": QUERY, "user": "mira"}) == (403, [("/user", "conversation.participant")])
    spy = server.client(server.key(tenant, "spy", role="agent", consent="read"))
    assert refused(spy, {"query": QUERY, "user": "mira", "agent": "assistant"}) == (
        403,
        [("/agent", "conversation.participant")],
    )
    # the conversation's own agent may read it; a stranger's own (empty) conversation shows nothing of mira's
    agent = server.client(server.key(tenant, "assistant", role="agent", consent="read"))
    shown = agent.post("/v1/context", json={"query": QUERY, "user": "mira"}).json()
    assert "June 30" in facts_text(shown)
    alone = ravi.post("/v1/context", json={"query": QUERY}).json()
    assert alone["pieces"] == [] and "June" not in alone["text"]


def test_retrieve_and_execute_carry_facts(server, tenant, user, passport):
    found = user.post("/v1/retrieve", json={"query": QUERY, "facts": "current"}).json()
    assert [f["value"] for f in found["data"]["facts"]] == ["2026-06-30"]
    current = found["data"]["facts"][0]["id"]
    stale = [r for r in found["data"]["rows"] if r["superseded_by"]]
    assert stale and all(r["superseded_by"] == [current] for r in stale)
    program = {
        "op": "Retrieve",
        "target": {"search": {"intent": {"query": "passport deadline"}}},
        "args": {"facts": "history"},
    }
    ran = user.post("/v1/execute", json=program).json()
    assert [(f["value"], f["current"]) for f in ran["data"]["facts"]] == [
        ("2026-07-15", False),
        ("2026-06-30", True),
    ]
    r = user.post("/v1/retrieve", json={"query": QUERY, "facts": "yes"})
    assert r.status_code == 422 and r.json()["diagnostics"][0]["rule"] == "field.enum"
    ravi = server.client(server.key(tenant, "ravi"))
    assert ravi.post("/v1/retrieve", json={"query": QUERY, "facts": "history"}).json()["data"]["facts"] == []


def test_the_openapi_document_publishes_the_context_endpoint(server):
    spec = rest_server.get(f"{server.base}/openapi.json").json()
    operation = spec["paths"]["/v1/context"]["post"]
    body = operation["requestBody"]["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[-1]
    assert set(spec["components"]["schemas"][body]["properties"]) == {
        *("query", "user", "agent", "conversation", "budget_tokens", "strategy", "as_of"),
    }
    assert {"200", "401", "403", "422"} <= set(operation["responses"])
    retrieve = spec["components"]["schemas"]["RetrieveRequest"]["properties"]["facts"]
    assert "current" in str(retrieve) and "history" in str(retrieve)
