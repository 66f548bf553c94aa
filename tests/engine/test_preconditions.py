"""Executor.execute(precondition=...) (engine/preconditions.py), on every backend: checked in the program's
own transaction before its first step; a refusal refuses the whole program, nothing written."""

from __future__ import annotations

from memql.engine.preconditions import none_written_after


def unchanged_since(after: str | None, owner: str | None = None):
    """No record tagged k was written after `after`."""
    return none_written_after(
        {"has_tags": ["k"]},
        after,
        owner=owner,
        rule="conversation.moved",
        message="it moved",
        path="/conversation",
    )


def test_a_precondition_that_holds_lets_the_program_run_and_one_that_fails_writes_nothing(memory):
    m = memory(actor="mira", embedder="none")
    first = m.encode("first", tags=["k"]).id
    program = {"workflow": [{"op": "Encode", "args": {"payload": {"text": f"new {i}"}}} for i in range(3)]}
    ran = m.executor.execute(program, precondition=unchanged_since(first))  # untagged: nothing after it
    assert ran.success and len(ran.affected_ids) == 3
    second = m.encode("second", tags=["k"]).id
    refused = m.executor.execute(program, precondition=unchanged_since(first))
    assert not refused.success and [(d.path, d.rule) for d in refused.diagnostics] == [
        ("/conversation", "conversation.moved")  # the program's refusal, not its first step's
    ]
    assert m.retrieve(filter={"limit": 100}).data["count"] == 5  # the first run's three, and the two
    assert m.executor.execute(program, precondition=unchanged_since(second)).success
    one = m.executor.execute(
        {"op": "Encode", "args": {"payload": {"text": "x"}}}, precondition=unchanged_since(None)
    )
    assert [(d.path, d.rule) for d in one.diagnostics] == [("/conversation", "conversation.moved")]


def test_only_the_owners_records_count_when_an_owner_is_named(memory):
    mira = memory(actor="mira", embedder="none")
    first = mira.encode("mira's", tags=["k"]).id
    ravi = memory(actor="ravi", share=mira, embedder="none")
    ravi.encode("ravi's", tags=["k"])
    step = {"op": "Encode", "args": {"payload": {"text": "mira's next"}}}
    assert mira.executor.execute(step, precondition=unchanged_since(first, owner="mira")).success
    assert not mira.executor.execute(step, precondition=unchanged_since(first, owner="ravi")).success
    assert not mira.executor.execute(step, precondition=unchanged_since(first)).success  # anyone's
