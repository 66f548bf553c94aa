"""Auth end to end: no key / bad key / revoked key -> 401 on every /v1 endpoint; each key transport; the
tenant comes from the key only (another tenant's ids are 404, a body cannot switch tenants); an agent's
consent -> 403."""

from __future__ import annotations

import json

import httpx
import pytest
import rest_server

ENCODE = {"op": "Encode", "args": {"payload": {"text": "standup moves to 9:30"}, "tags": ["team"]}}


def encode(client: httpx.Client, text: str = "standup moves to 9:30", **args) -> str:
    r = client.post("/v1/execute", json={"op": "Encode", "args": {"payload": {"text": text}, **args}})
    assert r.status_code == 200, r.text
    return r.json()["data"]["id"]


def v1_operations(server) -> list[tuple[str, str]]:
    """(method, concrete path) of every /v1 operation the server publishes."""
    spec = rest_server.get(f"{server.base}/openapi.json").json()
    out = []
    for path, item in spec["paths"].items():
        if path.startswith("/v1"):
            concrete = path.replace("{record_id}", "1").replace("{subject}", "s").replace("{attribute}", "a")
            out += [(method.upper(), concrete) for method in item]
    return out


def test_every_v1_endpoint_needs_a_valid_live_key(server, tenant):
    operations = v1_operations(server)
    assert len(operations) >= 14
    made = server.key(tenant)
    server.revoke(made.key.id)
    callers = {
        "no key": server.client(),
        "a made-up key": server.client("memql_0000_not-a-key"),
        "not a memql key": server.client("hunter2", via="header"),
        "a revoked key": server.client(made),
        "a revoked key in the cookie": server.client(made, via="cookie"),
    }
    for why, client in callers.items():
        for method, path in operations:
            r = client.request(method, path, content=b"{}", headers={"content-type": "application/json"})
            assert r.status_code == 401, (why, method, path, r.text)
            body = r.json()
            assert body["success"] is False
            assert body["diagnostics"][0]["rule"] == ("auth.missing" if why == "no key" else "auth.invalid")
            assert r.headers["www-authenticate"] == "Bearer"
    # the one endpoint without a key
    assert rest_server.get(f"{server.base}/healthz").json()["status"] == "ok"


@pytest.mark.parametrize("via", ["bearer", "header", "cookie"])
def test_a_key_is_accepted_from_each_transport(server, tenant, via):
    client = server.client(server.key(tenant), via=via)
    record_id = encode(client)
    assert client.get(f"/v1/memories/{record_id}").json()["memory"]["owner"] == "mira"


def test_revoking_a_key_takes_effect_on_the_next_request(server, tenant):
    made = server.key(tenant)
    client = server.client(made)
    encode(client)
    server.revoke(made.key.id)
    r = client.post("/v1/retrieve", json={"query": "standup"})
    assert r.status_code == 401 and r.json()["diagnostics"][0]["rule"] == "auth.invalid"


def test_another_tenants_ids_are_not_found(server, tenant):
    mine = server.client(server.key(tenant))
    theirs = server.client(server.key(f"{tenant}-other", "bo"))
    record_id = encode(mine, proposal=True)  # a pending proposal, so approve/reject/edit have a target
    for method, path, body in [
        ("GET", f"/v1/memories/{record_id}", None),
        ("GET", f"/v1/memories/{record_id}/history", None),
        (
            "POST",
            "/v1/execute",
            {"op": "Update", "target": {"ids": [record_id]}, "args": {"set": {"text": "x"}}},
        ),
        ("POST", "/v1/retrieve", {"ids": [record_id]}),
        ("POST", f"/v1/proposals/{record_id}/approve", None),
        ("POST", f"/v1/proposals/{record_id}/reject", None),
        ("POST", f"/v1/proposals/{record_id}/edit", {"text": "hijacked"}),
    ]:
        r = theirs.request(method, path, json=body)
        assert r.status_code == 404, (method, path, r.text)
        rules = [d["rule"] for d in r.json().get("diagnostics", []) + r.json().get("warnings", [])]
        assert "target.not_found" in rules, (path, r.text)
    # a Delete of an id not there is the engine's success with nothing deleted (as on the CLI and MCP)
    r = theirs.post("/v1/execute", json={"op": "Delete", "target": {"ids": [record_id]}})
    assert r.status_code == 200 and r.json()["affected_ids"] == []
    assert [w["rule"] for w in r.json()["warnings"]] == ["target.not_found"]
    # and nothing happened to the record
    events = mine.get(f"/v1/memories/{record_id}/history").json()["events"]
    assert [e["change"] for e in events] == ["insert"]
    assert mine.get("/v1/proposals").json()["data"]["count"] == 1


def test_a_body_naming_a_tenant_does_not_switch_tenants(server, tenant):
    mine = server.client(server.key(tenant))
    other = f"{tenant}-victim"
    victim = server.client(server.key(other, "vic"))
    encode(victim, "the victim's secret plan")
    # the IR has no tenant field: naming one is refused, and the key's tenant stays the one acted in
    r = mine.post("/v1/execute", json={**ENCODE, "tenant": other})
    assert r.status_code == 422 and r.json()["diagnostics"][0]["rule"] == "field.unknown"
    r = mine.post("/v1/execute", json={**ENCODE, "meta": {"actor": "vic", "tenant": other}})
    assert r.status_code == 422
    r = mine.post("/v1/retrieve", json={"query": "secret plan", "tenant": other})
    assert r.status_code == 422 and r.json()["diagnostics"][0] == {
        "path": "/tenant",
        "rule": "field.unknown",
        "severity": "error",
        "message": "Extra inputs are not permitted",
    }
    # a structured payload may carry any key, "tenant" included: it is content, stored in the caller's tenant
    r = mine.post(
        "/v1/execute",
        json={"op": "Encode", "args": {"payload": {"structured": {"tenant": other, "note": "hello"}}}},
    )
    assert r.status_code == 200
    assert mine.post("/v1/retrieve", json={"query": "secret plan"}).json()["data"]["count"] == 0
    seen = victim.post("/v1/retrieve", json={"filter": {"status": "any"}, "include": ["id", "text"]}).json()
    assert [row["text"] for row in seen["data"]["rows"]] == ["the victim's secret plan"]
    # a claimed meta.actor is audited as a claim; the owner is the key's actor
    r = mine.post("/v1/execute", json={**ENCODE, "meta": {"actor": "vic"}})
    assert mine.get(f"/v1/memories/{r.json()['data']['id']}").json()["memory"]["owner"] == "mira"


def test_an_agent_gets_403_for_what_its_consent_does_not_cover(server, tenant):
    owner = server.client(server.key(tenant))
    record_id = encode(owner)
    proposer = server.client(server.key(tenant, "bot", role="agent"))  # consent: propose
    reader = server.client(server.key(tenant, "reader", role="agent", consent="read"))
    writer = server.client(server.key(tenant, "helper", role="agent", consent="read_write"))
    delete = {"op": "Delete", "target": {"ids": [record_id]}}
    summarize = {"op": "Summarize", "target": {"ids": [record_id]}}
    for client, program, rule in [
        (proposer, delete, "consent.write"),
        (proposer, summarize, "consent.read"),
        (reader, delete, "consent.write"),
    ]:
        r = client.post("/v1/execute", json=program)
        assert r.status_code == 403, r.text
        assert r.json()["diagnostics"][0]["rule"] == rule
    # a proposal needs a user to decide it: an agent approving its own proposal is refused
    proposed = proposer.post("/v1/execute", json=ENCODE).json()["data"]["id"]
    r = writer.post(f"/v1/proposals/{proposed}/approve")
    assert r.status_code in (403, 404), r.text  # it cannot even see another agent's proposal
    r = proposer.post(f"/v1/proposals/{proposed}/approve")
    assert r.status_code == 403 and r.json()["diagnostics"][0]["rule"] in (
        "consent.write",
        "proposal.approver",
    )
    # read_write covers the write
    assert writer.post("/v1/execute", json=delete).status_code == 200
    assert (
        json.loads(owner.get(f"/v1/memories/{record_id}").text)["diagnostics"][0]["rule"] == "target.hidden"
    )
