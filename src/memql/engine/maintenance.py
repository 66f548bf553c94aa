"""Housekeeping that runs outside a user's IR: the expiry sweeper, due reminders, restoring deletions.

Each run is one transaction and one audited operation ("Sweep", "Remind", "Restore").
"""

from __future__ import annotations

from datetime import timedelta

from memql.engine.access import check_consent, check_write
from memql.engine.context import Context
from memql.engine.executor import Executor
from memql.engine.result import ExecutionResult
from memql.engine.targets import canonical_id
from memql.engine.verbs import clamp
from memql.engine.verbs.weight import next_occurrence
from memql.errors import Refusal
from memql.lang.diagnostics import Diagnostic
from memql.ports.record import Operation, Record
from memql.ports.store import RecordQuery, StoreSession

_TICK = timedelta(microseconds=1)


def _run(executor: Executor, op: str, body, *, writes: bool = True) -> ExecutionResult:
    """Run `body(ctx)` in one transaction, logged as one operation; a refusal rolls everything back."""
    now = executor.clock.now()
    try:
        with executor.store.transaction() as session:
            ctx = executor.context(session, now)
            ctx.op = op
            if writes:
                check_consent(ctx, op)  # housekeeping writes need an agent's read_write consent
            affected, data = body(ctx)
            if ctx.events:
                session.log(
                    Operation(
                        time=now,
                        tenant=executor.tenant,
                        actor=executor.actor,
                        op=op,
                        ir={"op": op, "data": data},
                        affected_ids=affected,
                    ),
                    ctx.loggable_events(),
                )
    except _Refused as refused:
        return ExecutionResult(success=False, op=op, diagnostics=[refused.diagnostic])
    except Refusal as refusal:
        diagnostic = Diagnostic(path="", rule=refusal.rule, severity="error", message=refusal.message)
        return ExecutionResult(success=False, op=op, diagnostics=[diagnostic])
    return ExecutionResult(success=True, op=op, affected_ids=affected, data=data)


class _Refused(Exception):
    def __init__(self, diagnostic: Diagnostic) -> None:
        self.diagnostic = diagnostic


def sweep(executor: Executor) -> ExecutionResult:
    """Apply on_expire to every record whose expire_at has passed, and purge soft-deleted records
    whose recovery window has closed. A locked record keeps its expiry until the lock lifts. A pending
    proposal that nobody decided on in time becomes `expired`, whatever its on_expire. The sweep applies
    what was scheduled, tenant-wide: it is housekeeping, not a caller's read or write of each record."""

    def body(ctx: Context):
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
            action = (
                "none" if record.status == "pending" else record.on_expire or ctx.config.default_on_expire
            )
            actions.setdefault(action, []).append(record.id)  # type: ignore[arg-type]
            done = {"expire_at": None, "on_expire": None}  # applied: the record is visible in its new state
            if action == "soft_delete":
                ctx.update(record, status="deleted", deleted_at=ctx.now, **done)
            elif action == "hard_delete":
                to_purge.append(record)
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
                    content_hash=None,
                    source=None,
                    # a fact stops being one: its key, value and evidence go (its history closes around it)
                    **dict.fromkeys(("subject", "attribute", "value", "evidence"), None),
                    **done,
                )
                ctx.redact_history(record.id)  # type: ignore[arg-type]
            else:  # none: it simply is expired
                ctx.update(record, status="expired", **done)
        closed = ctx.now - ctx.config.recovery_window
        deleted = ctx.session.find(ctx.tenant, RecordQuery(statuses=("deleted",), order="created_asc"))
        stale = [r for r, _ in deleted if r.deleted_at is not None and r.deleted_at <= closed]
        to_purge += stale
        if to_purge:
            ctx.hard_delete(to_purge)
        affected = [r.id for r, _ in due if r.id not in held] + [r.id for r in stale]
        return affected, {"expired": actions, "purged": [r.id for r in stale], "held_by_lock": held}

    return _run(executor, "Sweep", body)


def due_reminders(executor: Executor, *, advance: bool = False) -> ExecutionResult:
    """Records whose reminder is due; with advance, schedule each one's next occurrence."""

    def body(ctx: Context):
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
        if advance:
            for r in due:
                check_write(ctx, r)
            for r in due:
                ctx.update(
                    r,
                    next_remind_at=next_occurrence(r.remind_rrule, ctx.now, r.remind_until)
                    if r.remind_rrule
                    else None,
                )
        return [r.id for r in due], {"due": rows}

    return _run(executor, "Remind", body, writes=advance)


def restore(executor: Executor, record_id: str) -> ExecutionResult:
    """Bring back a soft-deleted record within the recovery window."""

    def body(ctx: Context):
        rid = canonical_id(record_id)
        record = ctx.session.get(ctx.tenant, [rid]).get(rid)
        if record is None or not ctx.may_read(record):  # beyond clearance or permissions: as if absent
            raise _Refused(
                Diagnostic(
                    path="",
                    rule="target.not_found",
                    severity="error",
                    message=f"no record {record_id} in this tenant",
                )
            )
        if record.status != "deleted":
            raise _Refused(
                Diagnostic(
                    path="",
                    rule="governance.target_state",
                    severity="error",
                    message=f"record {rid} is {record.status}, not deleted",
                )
            )
        if record.deleted_at is not None and record.deleted_at + ctx.config.recovery_window <= ctx.now:
            raise _Refused(
                Diagnostic(
                    path="",
                    rule="restore.window",
                    severity="error",
                    message=f"record {rid} was deleted more than {ctx.config.recovery_window.days} days ago",
                )
            )
        check_write(ctx, record)
        ctx.update(record, status="active", deleted_at=None)
        return [rid], {"restored": rid}

    return _run(executor, "Restore", body)


def may_read_history(executor: Executor, session: StoreSession, record_id: str) -> bool:
    """Whether the session may see a record's audit trail: the record is within its clearance and read
    permissions; a record that is gone (hard-deleted, its content redacted) only to users and admins."""
    ctx = executor.context(session, executor.clock.now())
    record = session.get(executor.tenant, [record_id]).get(record_id)
    if record is None:
        return ctx.role != "agent"
    return ctx.may_read(record)


def lineage(executor: Executor, record_id: str) -> list[dict]:
    """A record's links, both directions, oldest first: {src, dst, relation, created_at}. Governed like
    history: nothing for a record the session may not read, and no link to a record it may not read (the
    other end's existence would leak through its id)."""
    with executor.store.transaction() as session:
        if not may_read_history(executor, session, record_id):
            return []
        found = session.links(executor.tenant, [record_id])
        return [
            {"src": link.src, "dst": link.dst, "relation": link.relation, "created_at": link.created_at}
            for link in found
            if may_read_history(executor, session, link.dst if link.src == record_id else link.src)
        ]
