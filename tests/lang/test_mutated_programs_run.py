"""Mutated programs that validate also run without a defect: the engine refuses what it must with a rule
of its own (a missing target, a lock, a state), never `exec.internal`. (A null weight or null tags in an
Update's set validated, reached the store and failed its NOT NULL constraint.)"""

from __future__ import annotations

from datetime import UTC, datetime

from hypothesis import HealthCheck, given, settings
from ir_strategies import mutated_ir

from budgets import examples
from memql import Memory
from memql.lang import validate

NOW = datetime(2026, 3, 2, 9, tzinfo=UTC)


@settings(
    max_examples=examples(400),
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(mutated_ir())
def test_a_mutated_program_that_validates_runs_without_a_defect(doc):
    if not validate(doc, now=NOW).valid:
        return  # (its diagnostics are the language's: tests/lang/test_properties.py)
    with Memory(":memory:", tenant="t", actor="mira", embedder=None, clock=NOW) as m:
        m.encode_many([f"note {i} about the ferry #t{i % 3}" for i in range(1, 13)])
        result = m.execute(doc)
    assert not [d for d in result.diagnostics if d.rule == "exec.internal"], result.diagnostics
