"""Running a plan: nothing destructive runs unconfirmed. A destructive plan (any delete, soft or hard, all
records, a lock change) executed without confirmation is run as a dry run — its effects are shown,
nothing is committed — and the outcome carries `plan.needs_confirmation`."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from memql.cognition.planner.base import Plan
from memql.engine.executor import Executor
from memql.engine.result import ExecutionResult
from memql.lang.diagnostics import Diagnostic


@dataclass
class PlanOutcome:
    """A plan and, when it was asked to run, what running it did."""

    plan: Plan
    result: ExecutionResult | None = None  # the execution, or the dry run shown for confirmation
    executed: bool = False  # the program ran and was committed
    needs_confirmation: bool = False  # destructive: shown as a dry run, waiting for confirmation
    diagnostics: list[Diagnostic] = field(default_factory=list)  # the plan's, then the outcome's

    @property
    def program(self) -> dict[str, Any] | None:
        return self.plan.program

    @property
    def confidence(self) -> float:
        return self.plan.confidence

    @property
    def destructive(self) -> bool:
        return self.plan.destructive

    @property
    def lang(self) -> str:
        return self.plan.lang

    @property
    def ok(self) -> bool:
        """Planned, and (when executed) run successfully."""
        return self.plan.ok and (self.result is None or (self.result.success and not self.needs_confirmation))

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "program": self.plan.program,
            "confidence": self.plan.confidence,
            "diagnostics": [d.model_dump() for d in self.diagnostics],
            "destructive": self.plan.destructive,
            "lang": self.plan.lang,
            "planner": self.plan.planner,
        }
        if self.plan.stats:
            out["stats"] = self.plan.stats
        if self.result is not None:
            out["executed"] = self.executed
            out["needs_confirmation"] = self.needs_confirmation
            out["result"] = self.result.to_json()
        return out


def confirmed(program: dict[str, Any]) -> dict[str, Any]:
    """The program as the user confirmed it: `meta.confirmation` instead of the planner's dry run."""
    out = copy.deepcopy(program)
    holders = [out, *(out.get("workflow") or [])]
    for holder in holders:
        meta = holder.get("meta")
        if isinstance(meta, dict):
            meta.pop("dry_run", None)
    meta = out.setdefault("meta", {})
    meta["confirmation"] = True
    return out


def run_plan(executor: Executor, plan: Plan, *, execute: bool, confirm: bool) -> PlanOutcome:
    """Run `plan` through the executor when `execute`; a destructive plan only runs with `confirm`."""
    outcome = PlanOutcome(plan=plan, diagnostics=list(plan.diagnostics))
    if not execute or plan.program is None or not plan.ok:
        return outcome
    if plan.destructive and not confirm:
        outcome.result = executor.execute(plan.program, dry_run=True)
        outcome.needs_confirmation = True
        outcome.diagnostics.append(
            Diagnostic(
                path="",
                rule="plan.needs_confirmation",
                severity="error",
                message="this plan is destructive (a delete, all records, or a lock change): it was run "
                "as a dry run and nothing was changed; confirm it to execute",
            )
        )
        return outcome
    outcome.result = executor.execute(confirmed(plan.program) if plan.destructive else plan.program)
    outcome.executed = outcome.result.success and not outcome.result.dry_run
    return outcome
