"""Memory.plan on every backend: a plan runs through the engine; nothing destructive (hard delete, all
records, a lock change) runs without confirmation, and with it, it does."""

from __future__ import annotations

import pytest


def _seed(m) -> None:
    m.encode("Q2 budget draft: 1.2M", tags=["budget"])
    m.encode("Launch moved to Friday", tags=["launch"])
    m.encode("Team offsite in Lisbon", tags=["travel"])


def _alive(m) -> list[str]:
    return sorted(m.retrieve(filter={"status": "any"}, include=["id"]).affected_ids, key=int)


def test_plan_alone_changes_nothing(memory):
    m = memory()
    _seed(m)
    outcome = m.plan("Delete record 1")
    assert outcome.program == {
        "stage": "STO",
        "op": "Delete",
        "target": {"ids": ["1"]},
        "args": {"soft": True},
        "meta": {"dry_run": True},
    }
    assert outcome.destructive and outcome.result is None and not outcome.executed
    assert _alive(m) == ["1", "2", "3"]


def test_a_plain_plan_executes(memory):
    m = memory()
    _seed(m)
    outcome = m.plan("Tag the launch notes as 'urgent'", execute=True)
    assert outcome.executed and outcome.ok and outcome.result.affected_ids == ["2"]
    assert m.retrieve(ids="2", include=["tags"]).data["rows"][0]["tags"] == ["launch", "urgent"]


def test_a_plan_reads_the_store_it_plans_for(memory):
    m = memory()
    _seed(m)
    outcome = m.plan("Summarize the budget notes")  # "budget" is a tag in this store: a tag filter
    assert outcome.program["target"] == {"filter": {"has_tags": ["budget"]}}
    other = memory(share=m, tenant="other")
    assert "search" in other.plan("Summarize the budget notes").program["target"]  # another tenant's tags


def test_reading_the_context_leaves_no_trace(memory, db):
    m = memory()
    _seed(m)
    before = {i: (r.visits, r.last_access_at) for i, r in db.records(m).items()}
    operations = len(db.operations(m))
    m.plan("Find the budget notes")
    assert {i: (r.visits, r.last_access_at) for i, r in db.records(m).items()} == before
    assert len(db.operations(m)) == operations
    m.retrieve(ids="1")  # whereas a real read is a visit
    assert db.record(m, "1").visits == before["1"][0] + 1


DESTRUCTIVE = [
    ("Permanently delete record 1", "hard delete"),
    ("Tag all my memories as 'reviewed'", "all"),
    ("Lock record 1", "lock"),
]


@pytest.mark.parametrize(("text", "kind"), DESTRUCTIVE, ids=[k for _, k in DESTRUCTIVE])
def test_destructive_plans_do_not_run_unconfirmed(memory, text, kind):
    m = memory()
    _seed(m)
    outcome = m.plan(text, execute=True)
    assert outcome.destructive and outcome.needs_confirmation and not outcome.executed and not outcome.ok
    assert outcome.result.dry_run and outcome.result.success  # what it would do, shown
    assert [d.rule for d in outcome.diagnostics][-1] == "plan.needs_confirmation"
    _assert_unchanged(m, kind)


@pytest.mark.parametrize(("text", "kind"), DESTRUCTIVE, ids=[k for _, k in DESTRUCTIVE])
def test_destructive_plans_run_when_confirmed(memory, text, kind):
    m = memory()
    _seed(m)
    outcome = m.plan(text, execute=True, confirm=True)
    assert outcome.executed and outcome.ok and not outcome.needs_confirmation
    if kind == "hard delete":
        assert _alive(m) == ["2", "3"]
        assert m.restore("1").success is False  # gone, not recoverable
    elif kind == "all":
        rows = m.retrieve(filter={}, include=["tags"]).data["rows"]
        assert len(rows) == 3 and all("reviewed" in r["tags"] for r in rows)
    else:
        refused = m.update("1", text="changed")
        assert not refused.success and refused.diagnostics[0].rule == "governance.locked"


def test_an_unlock_is_a_lock_change_too(memory):
    m = memory()
    _seed(m)
    m.lock("1")
    assert m.plan("Unlock record 1", execute=True).needs_confirmation
    assert not m.update("1", text="changed").success
    assert m.plan("Unlock record 1", execute=True, confirm=True).executed
    assert m.update("1", text="changed").success


def test_a_plan_made_earlier_runs_with_execute_plan(memory):
    m = memory()
    _seed(m)
    made = m.plan("Permanently delete record 3").plan
    assert m.execute_plan(made).needs_confirmation and _alive(m) == ["1", "2", "3"]
    assert m.execute_plan(made, confirm=True).executed and _alive(m) == ["1", "2"]


def test_a_clarification_executes_nothing(memory):
    m = memory()
    _seed(m)
    outcome = m.plan("Delete everything", execute=True, confirm=True)
    assert outcome.program is None and outcome.result is None and not outcome.ok
    assert outcome.diagnostics[0].rule == "plan.clarify"
    assert _alive(m) == ["1", "2", "3"]


def test_a_workflow_plan_runs_as_one_transaction(memory):
    m = memory()
    _seed(m)
    outcome = m.plan("Save that the demo is on Friday and tag it 'demo'", execute=True)
    assert outcome.executed and outcome.result.op == "Workflow"
    row = m.retrieve(ids="4", include=["text", "tags"]).data["rows"][0]
    assert row["text"] == "The demo is on Friday" and "demo" in row["tags"]


def test_chinese_instructions_execute(memory):
    m = memory()
    m.encode("季度预算两百万", tags=["预算"])
    outcome = m.plan("把预算记录标记为'重要'", execute=True)
    assert outcome.executed and outcome.lang == "zh"
    assert m.retrieve(ids="1", include=["tags"]).data["rows"][0]["tags"] == ["预算", "重要"]
    assert m.plan("永久删除记录1", execute=True).needs_confirmation
    assert _alive(m) == ["1"]


def _assert_unchanged(m, kind: str) -> None:
    assert _alive(m) == ["1", "2", "3"]
    rows = m.retrieve(filter={"status": "any"}, include=["id", "tags", "lock"]).data["rows"]
    assert not any("reviewed" in r["tags"] for r in rows)
    assert all(r["lock"] is None for r in rows)
    assert m.update("1", text="still editable").success


def test_the_store_context_a_planner_sees(memory, clock):
    from memql.cognition.planner.store_context import store_context

    m = memory()
    _seed(m)
    m.encode("Budget review moved", tags=["budget", "meeting"])
    context = store_context(m.executor)
    assert context.now == clock.now()
    assert context.tags[0] == "budget" and set(context.tags) == {"budget", "launch", "travel", "meeting"}
    assert context.recent_ids[:2] == ("4", "3")
    assert frozenset({"budget", "meeting"}) in context.tag_sets
    assert context.types == ()  # nothing was given a type
