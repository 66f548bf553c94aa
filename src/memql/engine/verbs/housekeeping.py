"""The system verbs: Sweep, Remind, Restore (lang/ops/housekeeping.py). They run through the executor
like every verb — one transaction, the consent check, the audit log holding their canonical IR — except
that a system verb that changed nothing is not logged (a sweep with nothing due leaves no trace).
"""

from __future__ import annotations

from datetime import timedelta

from memql.engine.access import check_write
from memql.engine.context import Context
from memql.engine.governance import check_lock
from memql.engine.targets import canonical_id
from memql.engine.verbs.base import Outcome, clamp, runner
from memql.engine.verbs.keyed import key_holder
from memql.engine.verbs.weight import next_occurrence
from memql.lang.ops import RemindIR, RestoreIR, SweepIR
from memql.ports.record import Record, namespace_labels
from memql.ports.store import RecordQuery

_TICK = timedelta(microseconds=1)


@runner("Sweep")
def run_sweep(ctx: Context, _ir: SweepIR) -> Outcome:
    """Apply on_expire to every record whose expire_at has passed, and purge soft-deleted records
    whose recovery window has closed. A locked record keeps its expiry until the lock lifts. A pending
    proposal that nobody decided on in time becomes `expired`, whatever its on_expire. The sweep applies
    what was scheduled, tenant-wide: it is housekeeping, not a caller's read or write of each record."""
    due = ctx.session.find(
        ctx.tenant,
        RecordQuery(statuses=("active", "pending"), expire_before=ctx.now + _TICK, order="created_asc"),
    )
    actions: dict[str, list[str]] = {}
    held: list[str] = []
    to_purge: list[Record] = []
    for record, _ in due:
        if record.locked(ctx.now):
            held.append(record.id)  # type: ignore[arg-type]
            continue
        action = "none" if record.status == "pending" else record.on_expire or ctx.config.default_on_expire
        actions.setdefault(action, []).append(record.id)  # type: ignore[arg-type]
        if action == "hard_delete":
            to_purge.append(record)
        else:
            _expire(ctx, record, action)
    closed = ctx.now - ctx.config.recovery_window
    deleted = ctx.session.find(ctx.tenant, RecordQuery(statuses=("deleted",), order="created_asc"))
    stale = [r for r, _ in deleted if r.deleted_at is not None and r.deleted_at <= closed]
    to_purge += stale
    if to_purge:
        ctx.hard_delete(to_purge)
    affected = [r.id for r, _ in due if r.id not in held] + [r.id for r in stale]
    return Outcome(
        affected,  # type: ignore[arg-type]
        {"expired": actions, "purged": [r.id for r in stale], "held_by_lock": held},
    )


def _expire(ctx: Context, record: Record, action: str) -> None:
    """Apply one expired record's on_expire (hard_delete is the caller's: purged in one batch)."""
    done = {"expire_at": None, "on_expire": None}  # applied: the record is visible in its new state
    if action == "soft_delete":
        ctx.update(record, status="deleted", deleted_at=ctx.now, **done)
    elif action == "demote":
        ctx.update(record, weight=clamp(record.weight + ctx.config.demote_on_expire_delta), **done)
    elif action == "archive":
        ctx.update(record, status="archived", **done)
    elif action == "anonymize":
        ctx.update(
            record,
            text="[anonymized]",
            url=None,
            structured=None,
            payload_meta={},
            facets={},
            keywords=[],
            tags=[],  # what was said too: kept, the next change's event would log them again
            content_hash=None,
            source=None,
            # a fact stops being one: its key, value and evidence go (its history closes around it)
            **dict.fromkeys(("subject", "attribute", "value", "evidence"), None),
            **done,
        )
        ctx.redact_history(record.id)  # type: ignore[arg-type]
    else:  # none: it simply is expired
        ctx.update(record, status="expired", **done)


@runner("Remind")
def run_remind(ctx: Context, ir: RemindIR) -> Outcome:
    """Records whose reminder is due, among those the session may read; with advance, schedule each
    one's next occurrence (which needs write permission on every one of them)."""
    query = RecordQuery(
        statuses=("active",),
        not_expired_at=ctx.now,
        order="time_asc",
        sensitivities=ctx.visible_sensitivities(),
        access=ctx.read_access(),
    )
    hits = ctx.session.find(ctx.tenant, query)
    due = [r for r, _ in hits if r.next_remind_at is not None and r.next_remind_at <= ctx.now]
    rows = [{"id": r.id, "text": r.text, "due": r.next_remind_at, "rrule": r.remind_rrule} for r in due]
    if not ir.args.advance:
        return Outcome([r.id for r in due], {"due": rows})  # type: ignore[misc]
    for r in due:
        check_write(ctx, r)
    # a locked record is written by nobody, housekeeping included: its reminder stays due (as the sweep
    # leaves a locked record's expiry) until the lock lifts, and the result says which ones were held
    held = [r.id for r in due if r.locked(ctx.now)]
    for r in due:
        if r.id not in held:
            upcoming = next_occurrence(r.remind_rrule, ctx.now, r.remind_until) if r.remind_rrule else None
            ctx.update(r, next_remind_at=upcoming)
    return Outcome([r.id for r in due], {"due": rows, "held_by_lock": held})  # type: ignore[misc]


@runner("Restore")
def run_restore(ctx: Context, ir: RestoreIR) -> Outcome:
    """Bring back a soft-deleted record within the recovery window."""
    named = ir.target.ids[0]  # type: ignore[union-attr,index]  # one id: the model's invariant
    rid = canonical_id(named)
    record = ctx.session.get(ctx.tenant, [rid]).get(rid)
    if record is None or not ctx.may_read(record):  # beyond clearance or permissions: as if absent
        raise ctx.refuse("target.not_found", f"no record {named} in this tenant")
    if record.status != "deleted":
        raise ctx.refuse("governance.target_state", f"record {rid} is {record.status}, not deleted")
    if record.deleted_at is not None and record.deleted_at + ctx.config.recovery_window <= ctx.now:
        raise ctx.refuse(
            "restore.window",
            f"record {rid} was deleted more than {ctx.config.recovery_window.days} days ago",
        )
    check_write(ctx, record)
    check_lock(ctx, "Restore", record)
    if record.key is not None and key_holder(ctx, list(namespace_labels(record.namespace or "")), record.key):
        raise ctx.refuse("key.taken", f"record {rid}: another live record holds its namespace and key now")
    ctx.update(record, status="active", deleted_at=None)
    return Outcome([rid], {"restored": rid})
