"""From planned steps to a validated program: the checks every planner's output goes through.

A planner's steps are never trusted with `meta`: who acts and whether a destructive op is confirmed is
the caller's decision, not the planner's. So `meta` (and `_comment`) are dropped, and where the language
itself demands a confirmation (hard delete, a target of `all`) the step gets `meta.confirmation: true` so
the program validates — and the plan is marked destructive, which obliges the caller to confirm before
it runs (DESIGN §3; Memory.plan shows a destructive plan as a dry run).
"""

from __future__ import annotations

import copy
import re
from datetime import datetime
from typing import Any

from memql.lang import ValidationResult, build, validate

CONFIRM_RULES = frozenset({"confirm.hard_delete", "confirm.all_write", "confirm.all_read"})
_STEP_PATH = re.compile(r"^/workflow/(\d+)(?:/|$)")


def check_steps(steps: list[Any], now: datetime | None) -> tuple[ValidationResult, bool]:
    """Validate `steps` as one program (the IR itself for one step, a workflow for several); returns the
    validation result and whether the program is destructive (any Delete, `all`, a lock change, an expiry
    that hard-deletes)."""
    steps = [_without_meta(step) for step in steps]
    program: Any = steps[0] if len(steps) == 1 else build.workflow(steps)
    result = validate(copy.deepcopy(program), now=now)
    needs = {_step_of(d.path) for d in result.errors if d.rule in CONFIRM_RULES}
    if needs:
        for i in needs:
            if 0 <= i < len(steps) and isinstance(steps[i], dict):
                steps[i]["meta"] = {"confirmation": True}
        program = steps[0] if len(steps) == 1 else build.workflow(steps)
        result = validate(copy.deepcopy(program), now=now)
    return result, bool(result.valid and is_destructive(result.canonical))


def is_destructive(program: dict[str, Any] | None) -> bool:
    """True when a canonical program deletes (soft or hard), targets `all`, changes a lock, or schedules an
    expiry that hard-deletes: the operations a user must confirm."""
    if not program:
        return False
    for ir in program.get("workflow", [program]):
        args = ir.get("args") or {}
        if (ir.get("target") or {}).get("all"):
            return True
        if ir.get("op") == "Lock":
            return True
        if ir.get("op") == "Delete":  # soft or hard: a planned deletion is confirmed before it runs
            return True
        if ir.get("op") == "Expire" and args.get("on_expire") == "hard_delete":
            return True
    return False


def step_pointer(path: str, steps: int) -> str:
    """A validation path as a pointer into the planner's reply ``{"workflow": [...]}`` (a one-step program
    is validated as the IR itself, so its paths lack the ``/workflow/0`` prefix)."""
    return "/workflow/0" + path if steps == 1 else path


def _step_of(path: str) -> int:
    match = _STEP_PATH.match(path)
    return int(match.group(1)) if match else 0


def _without_meta(step: Any) -> Any:
    if not isinstance(step, dict):
        return step  # validation names what is wrong with it
    return {k: copy.deepcopy(v) for k, v in step.items() if k not in ("meta", "_comment")}
