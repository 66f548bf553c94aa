"""Promote and Demote: priority up or down, reminders from an RRULE, archiving."""

from __future__ import annotations

from datetime import datetime

from dateutil.rrule import rrulestr

from memql.engine.context import Context
from memql.engine.governance import check_lock, check_writable
from memql.engine.targets import resolve
from memql.engine.verbs.base import Outcome, clamp, runner
from memql.lang.ops import DemoteIR, PromoteIR


def next_occurrence(rule: str, after: datetime, until: datetime | None = None) -> datetime | None:
    """The first occurrence of the RRULE strictly after `after` (the rule starts at `after`), or None."""
    recurrence = rrulestr("RRULE:" + rule, dtstart=after)
    nxt = recurrence.after(after, inc=False)
    if nxt is not None and until is not None and nxt > until:
        return None
    return nxt


@runner("Promote")
def run_promote(ctx: Context, ir: PromoteIR) -> Outcome:
    args = ir.args
    affected, reminders = [], {}
    for record, _ in resolve(ctx, ir.target, write=True):  # type: ignore[arg-type]
        check_writable(ctx, "Promote", record)
        check_lock(ctx, "Promote", record)
        changes = {}
        if args.weight is not None:
            changes["weight"] = clamp(args.weight)
        elif args.weight_delta is not None:
            changes["weight"] = clamp(record.weight + args.weight_delta)
        if args.remind is not None:
            try:
                nxt = next_occurrence(args.remind.rrule, ctx.now, args.remind.until)
            except (ValueError, TypeError) as exc:
                raise ctx.refuse(
                    "rrule.invalid", f"cannot schedule {args.remind.rrule}: {exc}", "args", "remind", "rrule"
                ) from None
            changes.update(remind_rrule=args.remind.rrule, remind_until=args.remind.until, next_remind_at=nxt)
            reminders[record.id] = nxt
        if record.status == "archived" and changes.get("weight", record.weight) >= record.weight:
            changes["status"] = "active"  # raising an archived record's priority brings it back
        ctx.update(record, **changes)
        affected.append(record.id)
    data = {"promoted": len(affected)}
    if reminders:
        data["next_remind_at"] = reminders
    return Outcome(affected, data)


@runner("Demote")
def run_demote(ctx: Context, ir: DemoteIR) -> Outcome:
    args = ir.args
    affected = []
    for record, _ in resolve(ctx, ir.target, write=True):  # type: ignore[arg-type]
        check_writable(ctx, "Demote", record)
        check_lock(ctx, "Demote", record)
        if args.archive:
            ctx.update(record, status="archived", weight=min(record.weight, ctx.config.archive_weight))
        elif args.weight is not None:
            ctx.update(record, weight=clamp(args.weight))
        else:
            ctx.update(record, weight=clamp(record.weight + args.weight_delta))  # type: ignore[operator]
        affected.append(record.id)
    return Outcome(affected, {"demoted": len(affected)})
