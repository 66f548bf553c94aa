"""The rules planner: deterministic, offline reading of English and Chinese instructions into memql IR.

See docs/planner.md for the grammar it reads. `RulesPlanner().plan(text, context=...)` returns a Plan.
"""

from memql.cognition.planner.rules.planner import RulesPlanner

__all__ = ["RulesPlanner"]
