"""Planners in the Text2Mem Bench: what a planner sees and what the runner does with its plan.

The planner sees the sample's instruction text and a PlanContext built from the store after the
prerequisites ran (tags in use, recent ids, record kinds, the eval clock) — never the gold IR, the
assertions or the expected ids. A plan the planner declines (a clarification) fails the sample at the
`plan` stage. A destructive plan is confirmed, as the user at the prompt would confirm it (the gold IRs
carry `meta.confirmation` where they need it).
"""

from __future__ import annotations

from typing import Any

from memql.bench.text2mem import Planner, SampleError

GOLD = "gold"
PLANNERS = (GOLD, "rules", "llm")


class PlanDeclined(SampleError):
    """The planner returned no program (a clarification, or an error)."""


def bench_planner(name: str, **options: Any):
    """A runner planner `(instruction, memory) -> program` backed by make_planner(name)."""
    from memql.cognition.planner import make_planner
    from memql.cognition.planner.execution import confirmed
    from memql.cognition.planner.store_context import store_context

    planner = make_planner(name, **options)

    def plan(text: str, memory: Any) -> Any:
        made = planner.plan(text, context=store_context(memory.executor))
        if made.program is None or not made.ok:
            errors = [f"{d.message} [{d.rule}]" for d in made.diagnostics if d.severity == "error"]
            raise PlanDeclined("; ".join(errors) or "the planner returned no program")
        return confirmed(made.program) if made.destructive else made.program

    plan.planner_name = name  # type: ignore[attr-defined]
    return plan


def resolve_planner(name: str) -> Planner | None:
    """The planner called `name`: `gold` (the sample's own schema_list, i.e. no planner), `rules` or `llm`."""
    if name == GOLD:
        return None
    if name not in PLANNERS:
        raise ValueError(f"unknown planner {name!r} (available: {', '.join(PLANNERS)})")
    return bench_planner(name)
