"""The Python API's convenience methods build their IRs with memql.lang.build: a bad argument comes back
as diagnostics in the ExecutionResult, never as an exception, and nothing is written."""

from __future__ import annotations


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
