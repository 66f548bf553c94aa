"""The system verbs Sweep, Remind and Restore run through the executor like every verb: the audit log
holds their canonical IR, one that changed nothing is not logged, and they validate like any IR."""

from __future__ import annotations

from datetime import timedelta

from memql.lang import validate


def test_the_audit_log_holds_the_canonical_ir(m, db, clock):
    m.encode("draft")
    m.expire("1", ttl="P1D", on_expire="archive")
    m.encode("plan")
    m.delete("2")
    m.restore("2")
    clock.advance(timedelta(days=2))
    m.sweep()
    ops = [(o["op"], o["ir"], o["affected_ids"]) for o in db.operations(m)][-2:]
    assert ops == [
        ("Restore", {"stage": "STO", "op": "Restore", "target": {"ids": ["2"]}, "args": {}}, ["2"]),
        ("Sweep", {"stage": "STO", "op": "Sweep", "args": {}}, ["1"]),
    ]


def test_a_system_verb_that_changed_nothing_is_not_logged(m, db):
    m.encode("x")
    before = len(db.operations(m))
    assert m.sweep().success and m.due().success and m.due(advance=True).success
    assert len(db.operations(m)) == before


def test_a_sweep_in_a_workflow_and_as_a_dry_run(m, db, clock):
    m.encode("draft")
    m.expire("1", ttl="P1D", on_expire="archive")
    clock.advance(timedelta(days=2))
    preview = m.execute({"op": "Sweep", "meta": {"dry_run": True}})
    assert preview.success and preview.dry_run and preview.data["expired"] == {"archive": ["1"]}
    assert db.record(m, "1").status == "active"
    done = m.execute({"workflow": [{"op": "Sweep"}, {"op": "Retrieve", "target": {"from_step": 0}}]})
    assert done.success and db.record(m, "1").status == "archived"


def test_system_verbs_validate_like_any_ir():
    assert validate({"op": "sweep"}).valid  # spelled case-insensitively, stage derived
    assert validate({"op": "Remind", "args": {"advance": True}}).valid
    rules = lambda program: [d.rule for d in validate(program).errors]  # noqa: E731
    assert rules({"op": "Sweep", "target": {"ids": ["1"]}}) == ["target.forbidden"]
    assert rules({"op": "Restore"}) == ["target.required"]
    assert rules({"op": "Restore", "target": {"ids": ["1", "2"]}}) == ["restore.target"]
    assert rules({"op": "Restore", "target": {"filter": {"status": "deleted"}}}) == ["restore.target"]
    assert rules({"op": "Remind", "args": {"advance": "later"}}) == ["field.type"]
