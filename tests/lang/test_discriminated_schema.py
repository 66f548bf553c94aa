"""discriminated_schema (the corpus test's faster program schema) gives the schema's own verdicts."""

from __future__ import annotations

import copy

from discriminated_schema import discriminated
from ir_samples import VALID, WORKFLOW
from jsonschema import Draft202012Validator

from memql.lang import json_schema, validate


def _documents() -> list:
    canonical = [validate(copy.deepcopy(doc)).canonical for doc in VALID.values()]
    canonical.append(validate(copy.deepcopy(WORKFLOW)).canonical)
    assert all(doc is not None for doc in canonical)
    broken = []
    for doc in canonical[:6]:
        broken.append({**doc, "op": "Teleport"})  # an op no branch has
        broken.append({k: v for k, v in doc.items() if k != "op"})  # no op at all
        broken.append({**doc, "bogus": 1})  # a field its branch does not allow
        if "args" in doc:
            other = "Lock" if doc["op"] != "Lock" else "Encode"
            broken.append({**doc, "op": other, "stage": "ENC"})  # another branch's op over these args
    broken += [[], "Encode", 3, None, {"workflow": [{"op": "Teleport"}]}, {"workflow": [*canonical[:2], {}]}]
    return canonical + broken


def test_the_discriminated_schema_accepts_and_refuses_what_the_schema_does():
    schema = json_schema("program")
    plain, fast = Draft202012Validator(schema), Draft202012Validator(discriminated(schema))
    documents = _documents()
    verdicts = [(plain.is_valid(doc), fast.is_valid(doc)) for doc in documents]
    assert [p for p, _ in verdicts] == [f for _, f in verdicts]
    assert {p for p, _ in verdicts} == {True, False}  # both kinds of document were tried
