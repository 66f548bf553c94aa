"""Invariants that need more than one model: confirmation rules, workflow references, time vs now.

Per-model invariants (exactly one payload, weight XOR delta, ...) live in the models themselves, so a
model built in Python is valid by construction; the rules here depend on meta, `now`, or the workflow.
"""

from __future__ import annotations

from datetime import datetime

from memql.lang.diagnostics import Diagnostics, join
from memql.lang.ops import (
    STAGE_OF,
    DeleteIR,
    DemoteIR,
    EncodeIR,
    ExpireIR,
    LockIR,
    Meta,
    OpBase,
    PromoteIR,
)


def check_ir(
    ir: OpBase,
    meta: Meta,
    path: str,
    diags: Diagnostics,
    now: datetime | None,
    step: int | None,
    steps: int | None,
) -> None:
    """Check one parsed IR. `meta` is the effective meta (workflow meta overlaid by the step's)."""
    confirmed = bool(meta.confirmation)
    dry_run = bool(meta.dry_run)
    target = ir.target
    if target is not None and target.all:
        if STAGE_OF[ir.op] == "RET" and not confirmed:
            diags.error(
                join(path, "target", "all"),
                "confirm.all_read",
                f"{ir.op} over all records needs meta.confirmation: true",
            )
        elif STAGE_OF[ir.op] == "STO" and not (confirmed or dry_run):
            diags.error(
                join(path, "target", "all"),
                "confirm.all_write",
                f"{ir.op} on all records needs meta.confirmation: true (or meta.dry_run: true to preview)",
            )
    if target is not None and target.from_step is not None:
        _step_ref(diags, target.from_step, join(path, "target", "from_step"), step, steps)
    derived = ir.args.derived_from if isinstance(ir, EncodeIR) else None
    if derived is not None and derived.from_step is not None:
        _step_ref(diags, derived.from_step, join(path, "args", "derived_from", "from_step"), step, steps)
    if isinstance(ir, DeleteIR) and not ir.args.soft and not (confirmed or dry_run):
        diags.error(
            join(path, "args", "soft"),
            "confirm.hard_delete",
            "a hard delete is permanent: it needs meta.confirmation: true (or meta.dry_run: true)",
        )
    if isinstance(ir, PromoteIR) and ir.args.weight_delta is not None and ir.args.weight_delta < 0:
        diags.warning(
            join(path, "args", "weight_delta"),
            "weight.direction",
            "a negative weight_delta in Promote lowers the weight; Demote says that plainly",
        )
    if isinstance(ir, DemoteIR) and ir.args.weight_delta is not None and ir.args.weight_delta > 0:
        diags.warning(
            join(path, "args", "weight_delta"),
            "weight.direction",
            "a positive weight_delta in Demote raises the weight; Promote says that plainly",
        )
    if isinstance(ir, EncodeIR) and ir.args.dedupe is False and ir.args.payload.fact is not None:
        diags.warning(
            join(path, "args", "dedupe"),
            "fact.dedupe",
            "dedupe does not apply to a typed fact: a value the fact already holds is never stored twice",
        )
    if now is not None:
        _past(ir, path, diags, now)


def _past(ir: OpBase, path: str, diags: Diagnostics, now: datetime) -> None:
    if isinstance(ir, ExpireIR) and ir.args.until is not None and ir.args.until <= now:
        diags.warning(
            join(path, "args", "until"),
            "expire.in_past",
            "until is already past: the records expire as soon as this runs",
        )
    if isinstance(ir, LockIR) and ir.args.policy and ir.args.policy.expires and ir.args.policy.expires <= now:
        diags.warning(
            join(path, "args", "policy", "expires"),
            "expire.in_past",
            "the lock's expiry is already past: it will not hold",
        )


def _step_ref(diags: Diagnostics, ref: int, here: str, step: int | None, steps: int | None) -> None:
    """A reference to an earlier step of the same workflow (target.from_step, Encode's derived_from)."""
    if step is None:
        diags.error(
            here, "workflow.ref_outside", "from_step refers to a workflow step, but this is a single IR"
        )
    elif steps is not None and ref >= steps:
        diags.error(
            here, "workflow.ref_missing", f"step {ref} does not exist (the workflow has {steps} steps)"
        )
    elif ref >= step:
        diags.error(
            here, "workflow.ref_forward", f"step {step} can only refer to earlier steps (0..{step - 1})"
        )
