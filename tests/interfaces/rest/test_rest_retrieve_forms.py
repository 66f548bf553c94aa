"""/v1/retrieve takes every request form /v1/execute takes (one IR, a JSON list of IRs, {"workflow": [...]},
{"steps": [{"ir": ...}]}, the Text2Mem reference spellings) as well as its own shorthand, against the live
server on both backends; any verb but Retrieve is refused (field.enum at the step's op) before anything
runs, and the key's tenant, consent and clearance hold in every form."""

from __future__ import annotations

import pytest

ESPRESSO = "the espresso machine on floor 3 is fixed"
ROOF = "the roof garden opens in May"
BY_SEARCH = {
    "op": "Retrieve",
    "target": {"search": {"intent": {"query": "espresso machine"}, "limit": 5}},
    "args": {"include": ["id", "text"]},
}
# the same read as the reference code and its prompts spell it: a lower-case op and stage, the query
# beside intent rather than in it, the limit among the overrides
BY_SEARCH_REFERENCE = {
    "stage": "ret",
    "op": "retrieve",
    "target": {"search": {"query": "espresso machine", "overrides": {"limit": 5}}},
    "args": {"include": ["id", "text"]},
}
DELETE = {"op": "Delete", "target": {"ids": ["{id}"]}}  # "{id}": the test's record
LOCK = {"op": "Lock", "target": {"ids": ["{id}"]}, "args": {"mode": "read_only"}}
ENCODE = {"op": "Encode", "args": {"payload": {"text": "sneaked in"}}}


def encode(client, text: str, **args) -> str:
    r = client.post("/v1/execute", json={"op": "Encode", "args": {"payload": {"text": text}, **args}})
    assert r.status_code == 200, r.text
    return r.json()["data"]["id"]


def by_ids(*ids: str) -> dict:
    return {"op": "Retrieve", "target": {"ids": list(ids)}, "args": {"include": ["id", "text"]}}


def texts(result: dict) -> list[str]:
    return [row["text"] for row in result["data"]["rows"]]


def step_texts(result: dict) -> list[list[str]]:
    return [texts(step) for step in result["steps"]]


def test_the_shorthand_and_one_retrieve_ir_in_either_spelling(user):
    encode(user, ESPRESSO)
    encode(user, ROOF)
    ask = {"query": "espresso machine", "k": 5, "include": ["id", "text"]}
    shorthand = user.post("/v1/retrieve", json=ask)
    assert shorthand.status_code == 200 and texts(shorthand.json()) == [ESPRESSO]
    canonical = user.post("/v1/retrieve", json=BY_SEARCH)
    assert canonical.status_code == 200, canonical.text
    assert canonical.json()["op"] == "Retrieve" and texts(canonical.json()) == [ESPRESSO]
    assert canonical.json()["warnings"] == []
    reference = user.post("/v1/retrieve", json=BY_SEARCH_REFERENCE)
    assert reference.status_code == 200, reference.text
    assert texts(reference.json()) == [ESPRESSO]
    # read as /v1/execute reads it: each rewritten spelling is named, as a warning
    assert {w["path"] for w in reference.json()["warnings"] if w["rule"] == "compat.alias"} >= {
        "/op",
        "/stage",
        "/target/search/overrides/limit",
    }
    executed = user.post("/v1/execute", json=BY_SEARCH_REFERENCE).json()
    assert executed["data"]["rows"] == reference.json()["data"]["rows"]
    assert [w["path"] for w in executed["warnings"]] == [w["path"] for w in reference.json()["warnings"]]


@pytest.mark.parametrize("shape", ["list", "workflow", "steps"])
def test_a_workflow_of_retrieves_in_each_shape(user, shape):
    espresso, roof = encode(user, ESPRESSO), encode(user, ROOF)
    irs = [by_ids(roof), BY_SEARCH_REFERENCE, by_ids(espresso, roof)]
    body = {
        "list": irs,
        "workflow": {"workflow": irs, "name": "three reads"},
        "steps": {"name": "three reads", "steps": [{"name": f"{i}", "ir": ir} for i, ir in enumerate(irs)]},
    }[shape]
    r = user.post("/v1/retrieve", json=body)
    assert r.status_code == 200, r.text
    assert r.json()["op"] == "Workflow"
    assert step_texts(r.json()) == [[ROOF], [ESPRESSO], [ESPRESSO, ROOF]]
    assert step_texts(user.post("/v1/execute", json=body).json()) == step_texts(r.json())


@pytest.mark.parametrize(
    ("body", "path"),
    [
        (DELETE, "/op"),
        ({**DELETE, "op": " delete "}, "/op"),  # the language reads this spelling too
        ({"op": "Delete"}, "/op"),  # not a valid Delete either: the endpoint's refusal comes first
        ([BY_SEARCH, DELETE], "/1/op"),
        ({"workflow": [ENCODE, BY_SEARCH]}, "/workflow/0/op"),
        ({"steps": [{"ir": BY_SEARCH}, {"ir": LOCK}]}, "/steps/1/ir/op"),
    ],
)
def test_any_other_verb_is_refused_naming_the_field_and_nothing_runs(user, body, path):
    record = encode(user, ESPRESSO)
    sent = _with_id(body, record)
    r = user.post("/v1/retrieve", json=sent)
    assert r.status_code == 422, r.text
    assert r.json()["success"] is False
    first = r.json()["diagnostics"][0]
    assert (first["path"], first["rule"], first["severity"]) == (path, "field.enum", "error")
    assert "Retrieve only" in first["message"] and "/v1/execute" in first["message"]
    # the record is as it was, and nothing was written
    assert user.get(f"/v1/memories/{record}").json()["memory"]["text"] == ESPRESSO
    assert user.get(f"/v1/memories/{record}/history").json()["events"][-1]["op"] == "Encode"
    everything = user.post("/v1/retrieve", json={"filter": {"status": "any"}, "include": ["text"]}).json()
    assert texts(everything) == [ESPRESSO]


def test_a_shorthand_field_inside_an_ir_gets_the_languages_diagnostic(user):
    r = user.post("/v1/retrieve", json={"op": "Retrieve", "query": "espresso"})
    assert r.status_code == 422
    first = r.json()["diagnostics"][0]
    assert (first["path"], first["rule"]) == ("/query", "field.unknown")
    assert "target.search.intent.query" in first["message"]  # it says where the query goes


def test_every_form_reads_only_the_keys_tenant_within_its_consent_and_clearance(server, tenant, user):
    mine = encode(user, ESPRESSO)
    secret = encode(user, "the locker code is 4711", sensitivity="restricted")
    other = server.client(server.key(f"{tenant}-other", "eve"))
    encode(other, "eve's espresso notes")
    workflows = [[BY_SEARCH], {"workflow": [BY_SEARCH]}, {"steps": [{"ir": BY_SEARCH}]}]
    for form in [BY_SEARCH, BY_SEARCH_REFERENCE, *workflows]:
        seen = other.post("/v1/retrieve", json=form).json()
        rows = seen["steps"][0] if "steps" in seen else seen
        assert texts(rows) == ["eve's espresso notes"], form  # never the other tenant's record
    # the other tenant's id is not there for it, in the IR form as in the shorthand
    assert other.post("/v1/retrieve", json=by_ids(mine)).status_code == 404
    assert other.post("/v1/retrieve", json={"ids": [mine]}).status_code == 404
    # an agent whose consent is propose-only reads only its own proposals, whatever the form
    proposer = server.client(server.key(tenant, "bot", role="agent"))
    for form in (BY_SEARCH, {"workflow": [BY_SEARCH]}, {"query": "espresso machine"}):
        seen = proposer.post("/v1/retrieve", json=form).json()
        assert (seen["steps"][0] if "steps" in seen else seen)["data"]["rows"] == [], form
    assert proposer.post("/v1/retrieve", json=by_ids(mine)).status_code == 404
    # a key cleared only for standard records does not see a restricted one through an IR
    cleared = server.client(server.key(tenant, "ravi", clearance="standard"))
    assert texts(cleared.post("/v1/retrieve", json={**by_ids(mine, secret)}).json()) == [ESPRESSO]
    assert sorted(texts(user.post("/v1/retrieve", json=by_ids(mine, secret)).json())) == sorted(
        [ESPRESSO, "the locker code is 4711"]
    )


def _with_id(body, record: str):
    if isinstance(body, dict):
        return {k: _with_id(v, record) for k, v in body.items()}
    if isinstance(body, list):
        return [_with_id(v, record) for v in body]
    return record if body == "{id}" else body
