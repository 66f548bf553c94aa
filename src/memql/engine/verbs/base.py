"""What every verb runner shares: its Outcome, and the registry runners enter with @runner."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from memql.engine.context import Context


@dataclass
class Outcome:
    affected_ids: list[str] = field(default_factory=list)
    data: dict[str, Any] = field(default_factory=dict)


Runner = Callable[["Context", Any], Outcome]

# verb name -> the function that runs it: filled by @runner as the family modules
# (memql.engine.verbs.*) load; memql.engine.verbs imports every family, so importing it fills this
RUNNERS: dict[str, Runner] = {}


def runner(op: str) -> Callable[[Runner], Runner]:
    """Register `fn(ctx, ir) -> Outcome` as the runner of the verb `op` (a model of memql.lang.ops)."""

    def register(fn: Runner) -> Runner:
        if op in RUNNERS:
            raise ValueError(f"verb {op} has two runners ({RUNNERS[op].__name__}, {fn.__name__})")
        RUNNERS[op] = fn
        return fn

    return register


def clamp(value: float) -> float:
    return min(1.0, max(0.0, round(value, 6)))
