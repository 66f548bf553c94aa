"""Planners: natural-language instructions (English or Chinese) -> memql IR or workflow.

Every planner returns a Plan (memql.cognition.planner.base); `make_planner` builds one by name. The
planners' modules import what they share from `base`, never this package, so the package can import them.
"""

from __future__ import annotations

from typing import Any

from memql.cognition.planner.base import Plan, PlanContext, Planner
from memql.ports.models import LLM


def make_planner(name: str, *, llm: LLM | None = None, **options: Any) -> Planner:
    """The planner called `name`: "rules" (deterministic, offline) or "llm" (an OpenAI-compatible model;
    `llm` defaults to the one configured in the environment)."""
    if name == "rules":
        from memql.cognition.planner.rules.planner import RulesPlanner

        return RulesPlanner(**options)
    if name == "llm":
        from memql.cognition.planner.llm import LLMPlanner

        return LLMPlanner(llm=llm, **options)
    raise ValueError(f"unknown planner {name!r}: expected rules or llm")


__all__ = ["Plan", "PlanContext", "Planner", "make_planner"]
