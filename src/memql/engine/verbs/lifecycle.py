"""Delete, Lock and Expire: removal (soft or hard), protection, and a finite lifetime."""

from __future__ import annotations

from memql.engine.context import Context
from memql.engine.governance import (
    check_lock,
    check_may_place_lock,
    check_writable,
    may_change_lock,
    who_may_lift,
)
from memql.engine.targets import resolve, window
from memql.engine.verbs.base import Outcome, runner
from memql.lang.ops import DeleteIR, ExpireIR, LockIR
from memql.lang.time import add_duration, parse_duration
from memql.ports.store import RecordQuery


@runner("Delete")
def run_delete(ctx: Context, ir: DeleteIR) -> Outcome:
    args = ir.args
    narrow = None
    if args.older_than is not None:
        narrow = RecordQuery(created_before=add_duration(ctx.now, parse_duration(args.older_than), -1))
    elif args.time_range is not None:
        start, end = window(args.time_range, ctx)
        narrow = RecordQuery(time_from=start, time_to=end)
    records = [r for r, _ in resolve(ctx, ir.target, write=True, narrow=narrow)]  # type: ignore[arg-type]
    for record in records:
        check_lock(ctx, "Delete", record)
    if not args.soft:
        ctx.hard_delete(records)
        return Outcome([r.id for r in records], {"deleted": len(records), "hard": True})  # type: ignore[misc]
    affected = []
    for record in records:
        if record.status == "deleted":
            ctx.warn("target.hidden", f"record {record.id} is already deleted", "target")
            continue
        ctx.update(record, status="deleted", deleted_at=ctx.now)
        affected.append(record.id)
    restorable_until = ctx.now + ctx.config.recovery_window
    return Outcome(affected, {"deleted": len(affected), "hard": False, "restorable_until": restorable_until})


@runner("Lock")
def run_lock(ctx: Context, ir: LockIR) -> Outcome:
    args = ir.args
    affected = []
    for record, _ in resolve(ctx, ir.target, write=True):  # type: ignore[arg-type]
        if not may_change_lock(ctx, record):
            why = f" ({record.lock_reason})" if record.lock_reason else ""
            raise ctx.refuse(
                "governance.lock_owner",
                f"record {record.id} is locked by {record.lock_by or 'someone else'}{why}; only "
                f"{who_may_lift(record)} may change or lift the lock",
                "target",
            )
        if args.mode != "unlock" and not record.locked(ctx.now):
            check_may_place_lock(ctx, record)  # a live lock is its locker's, reviewers' and admins'
        if args.mode == "unlock":
            if record.lock_mode is None:
                ctx.warn("target.hidden", f"record {record.id} is not locked", "target")
                continue
            ctx.update(
                record, lock_mode=None, lock_reason=None, lock_policy=None, lock_until=None, lock_by=None
            )
        else:
            check_writable(ctx, "Lock", record)
            policy = args.policy.model_dump(mode="json", exclude_none=True) if args.policy else None
            ctx.update(
                record,
                lock_mode=args.mode,
                lock_reason=args.reason,
                lock_policy=policy,
                lock_until=args.policy.expires if args.policy else None,
                lock_by=ctx.actor,
            )
        affected.append(record.id)
    return Outcome(
        affected, {"mode": args.mode, "locked" if args.mode != "unlock" else "unlocked": len(affected)}
    )


@runner("Expire")
def run_expire(ctx: Context, ir: ExpireIR) -> Outcome:
    args = ir.args
    when = args.until if args.until is not None else add_duration(ctx.now, parse_duration(args.ttl))  # type: ignore[arg-type]
    affected = []
    for record, _ in resolve(ctx, ir.target, write=True):  # type: ignore[arg-type]
        check_writable(ctx, "Expire", record)
        check_lock(ctx, "Expire", record)
        ctx.update(record, expire_at=when, on_expire=args.on_expire)
        affected.append(record.id)
    return Outcome(affected, {"expire_at": when, "on_expire": args.on_expire, "expiring": len(affected)})
