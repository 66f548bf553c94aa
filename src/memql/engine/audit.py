"""Reading the audit log and the lineage links of one record, governed like every read: a session sees
the trail of a record only if it may read the record (and no link to a record it may not read)."""

from __future__ import annotations

from typing import Any

from memql.engine.executor import Executor
from memql.engine.redaction import governance_of
from memql.engine.targets import canonical_id
from memql.ports.record import Event
from memql.ports.store import StoreSession

# fields a decision on a proposal changes; any other changed field makes the approval an edit
_DECISION = frozenset({"status", "owner", "updated_at", "expire_at", "on_expire"})


def transition(change: str, before: dict[str, Any], after: dict[str, Any]) -> str | None:
    """What an audit event did to a proposal: proposed, approved, approved with edits, rejected,
    expired — or None when the event is not a proposal's transition."""
    if change == "insert":
        return "proposed" if after.get("status") == "pending" else None
    if change != "update" or before.get("status") != "pending" or "status" not in after:
        return None
    status = after["status"]
    if status == "active":
        return "approved with edits" if set(after) - _DECISION else "approved"
    return status if status in ("rejected", "expired") else None


def may_read_history(
    executor: Executor, session: StoreSession, record_id: str, events: list[Event] | None = None
) -> bool:
    """Whether the session may see a record's audit trail: the record is within its clearance and read
    permissions. A record that is gone (hard-deleted) is judged by its last governance, which its delete
    event keeps (owner, agent, sensitivity, read permissions): a session that could not read it while it
    lived sees nothing of it after. `events`: the record's events, when the caller has them."""
    ctx = executor.context(session, executor.clock.now())
    record = session.get(executor.tenant, [record_id]).get(record_id)
    if record is None:
        if events is None:
            events = session.history(executor.tenant, record_id)
        gone = [e for e in events if e.kind == "delete"]
        if not gone:
            return False  # never existed: nothing to show
        record = governance_of(record_id, gone[-1].before)
    return ctx.may_read(record)


def history(executor: Executor, record_id: str) -> list[dict[str, Any]]:
    """Every change to a record, oldest first: when, who, which op, each field before and after,
    `note` (the op's `_comment`), and for a proposal which step it was (`proposal`). Nothing for a
    record the session may not read (as if absent), nor for a gone one it could not read while it lived."""
    rid = canonical_id(record_id)
    if not rid.isdecimal():
        return []  # no record has this id (nor can the store be asked about one that is not text)
    with executor.store.read() as session:  # a read: no write lock
        events = session.history(executor.tenant, rid)
        if not may_read_history(executor, session, rid, events):
            return []
    return [
        {
            "seq": e.seq,
            "time": e.operation.time,
            "actor": e.operation.actor,
            "op": e.operation.op,  # type: ignore[union-attr]
            "change": e.kind,
            "before": e.before,
            "after": e.after,
            "proposal": transition(e.kind, e.before, e.after),
            "workflow_id": e.operation.workflow_id,
            "trace_id": e.operation.trace_id,  # type: ignore[union-attr]
            "note": e.operation.ir.get("_comment"),  # type: ignore[union-attr]
        }
        for e in events
    ]


def lineage(executor: Executor, record_id: str) -> list[dict[str, Any]]:
    """A record's links, both directions, oldest first: {src, dst, relation, created_at}. Governed like
    history: nothing for a record the session may not read, and no link to a record it may not read (the
    other end's existence would leak through its id)."""
    rid = canonical_id(record_id)
    if not rid.isdecimal():
        return []  # (as history)
    with executor.store.read() as session:
        if not may_read_history(executor, session, rid):
            return []
        found = session.links(executor.tenant, [rid])
        return [
            {"src": link.src, "dst": link.dst, "relation": link.relation, "created_at": link.created_at}
            for link in found
            if may_read_history(executor, session, link.dst if link.src == rid else link.src)
        ]
