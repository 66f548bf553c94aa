"""Executor.execute(precondition=...) (engine/preconditions.py), on every backend: checked in the program's
own transaction before its first step; a refusal refuses the whole program, nothing written."""

from __future__ import annotations

from memql.engine.preconditions import none_found


def moved(where: dict, owner: str | None = None):
    return none_found(where, owner=owner, rule="conversation.moved", message="it moved", path="/conversation")


def test_a_precondition_that_holds_lets_the_program_run_and_one_that_fails_writes_nothing(memory):
    m = memory(actor="mira", embedder="none")
    m.encode("kept", tags=["k"], facets={"n": 3})
    program = {"workflow": [{"op": "Encode", "args": {"payload": {"text": f"new {i}"}}} for i in range(3)]}
    ran = m.executor.execute(program, precondition=moved({"facets_where": {"n": {"$gte": 4}}}))
    assert ran.success and len(ran.affected_ids) == 3
    refused = m.executor.execute(program, precondition=moved({"facets_where": {"n": {"$gte": 3}}}))
    assert not refused.success and [(d.path, d.rule) for d in refused.diagnostics] == [
        ("/conversation", "conversation.moved")  # the program's refusal, not its first step's
    ]
    assert m.retrieve(filter={"limit": 100}).data["count"] == 4  # the first run's three and the kept one
    one = m.executor.execute(
        {"op": "Encode", "args": {"payload": {"text": "x"}}}, precondition=moved({"has_tags": ["k"]})
    )
    assert [(d.path, d.rule) for d in one.diagnostics] == [("/conversation", "conversation.moved")]


def test_only_the_owners_records_count_when_an_owner_is_named(memory):
    mira = memory(actor="mira", embedder="none")
    ravi = memory(actor="ravi", share=mira, embedder="none")
    ravi.encode("ravi's", tags=["k"])
    step = {"op": "Encode", "args": {"payload": {"text": "mira's"}}}
    assert mira.executor.execute(step, precondition=moved({"has_tags": ["k"]}, owner="mira")).success
    assert not mira.executor.execute(step, precondition=moved({"has_tags": ["k"]}, owner="ravi")).success
