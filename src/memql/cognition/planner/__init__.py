"""Planners: natural-language instructions (English or Chinese) -> memql IR or workflow.

Every planner returns a Plan (memql.cognition.planner.base); `make_planner` builds one by name.
"""

from memql.cognition.planner.base import Plan, PlanContext, Planner, make_planner

__all__ = ["Plan", "PlanContext", "Planner", "make_planner"]
