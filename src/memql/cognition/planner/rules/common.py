"""What every verb's reading shares: the object phrase, its target, and the planned step."""

from __future__ import annotations

from typing import Any

from memql.cognition.planner.rules import arguments as a
from memql.cognition.planner.rules.model import Clause, Reading, Step
from memql.cognition.planner.rules.targets import TargetReading, read_target


def object_phrase(clause: Clause, reading: Reading, stops: str | None = None) -> str:
    start, end = a.object_span(clause, reading.lang, stops)
    return a.strip_trailers(clause.text[start:end], reading.lang)


def target_of(
    clause: Clause, reading: Reading, index: int, phrase: str, *, write: bool, deletes: bool = False
) -> TargetReading:
    found = read_target(
        phrase, op=clause.verb or "", step=index, reading=reading, write=write, deletes=deletes
    )
    return found


def make_step(op: str, args: dict[str, Any], found: TargetReading | None, destructive: bool = False) -> Step:
    step = Step(op=op, args={k: v for k, v in args.items() if v is not None})
    if found is not None:
        step.target, step.confidence, step.assumptions = (
            found.target,
            found.confidence,
            list(found.assumptions),
        )
        step.destructive = destructive or found.kind == "all"
    else:
        step.destructive = destructive
    return step
