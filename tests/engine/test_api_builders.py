"""The Python API's convenience methods build their IRs with memql.lang.build: a bad argument comes back
as diagnostics in the ExecutionResult, never as an exception, and nothing is written."""

from __future__ import annotations

import pytest


def test_bad_arguments_are_diagnostics(m, db):
    before = len(db.operations(m))
    for result in (
        m.update(None, text="x"),  # no ids
        m.promote("1", weight="heavy"),
        m.encode(),  # no payload
        m.label("1"),  # neither tags nor facets
        m.expire("1", ttl="soon"),
    ):
        assert not result.success and result.diagnostics
    assert len(db.operations(m)) == before


def test_the_audited_ir_is_the_built_one(m, db):
    rid = m.encode("Standup moves to 9:30", tags=["team"]).id
    m.delete(rid, reason="moved", confirm=True)
    ir = db.operations(m)[-1]["ir"]
    assert ir["target"] == {"ids": [rid]}
    assert ir["args"]["reason"] == "moved" and ir["args"]["soft"] is True
    assert ir["meta"] == {"confirmation": True}


def test_an_int_names_a_record_wherever_an_id_is_taken(m):
    """get and the verbs took 5 for "5"; history, lineage and consolidation's primary raised AttributeError
    (found by fuzzing the API's arguments). A value that is no id at all is a TypeError that says so."""
    m.encode("the ferry leaves at nine")
    assert m.history(1) == m.history("1") and len(m.history(1)) == 1
    assert m.lineage(1) == m.lineage("1")
    assert m.get(1)["id"] == "1"
    with pytest.raises(TypeError, match="a record id is a string of digits"):
        m.history(None)
