"""Governance checks shared by the write verbs: locks, lock ownership, record state."""

from __future__ import annotations

from memql.engine.context import Context
from memql.ports.store import Record


def check_lock(ctx: Context, op: str, record: Record, *, appending: bool = False) -> None:
    """Refuse `op` on a locked record unless the lock's policy allows it.

    read_only refuses every write; append_only lets through only additions (Label add, an Update
    that extends the text). policy.allow lets an op through either mode; policy.deny always refuses.
    """
    if not record.locked(ctx.now):
        return
    policy = record.lock_policy or {}
    if op in (policy.get("deny") or ()):
        allowed = False
    elif op in (policy.get("allow") or ()):
        allowed = True
    else:
        allowed = record.lock_mode == "append_only" and appending
    if not allowed:
        why = f" ({record.lock_reason})" if record.lock_reason else ""
        raise ctx.refuse(
            "governance.locked",
            f"record {record.id} is locked {record.lock_mode}{why}: {op} refused",
            "target",
        )


def check_writable(ctx: Context, op: str, record: Record) -> None:
    """Writes act on live records: not on deleted or expired ones."""
    if record.status == "deleted" or record.expired(ctx.now) or record.status == "expired":
        state = "deleted" if record.status == "deleted" else "expired"
        raise ctx.refuse("governance.target_state", f"record {record.id} is {state}: {op} refused", "target")


def may_change_lock(ctx: Context, record: Record) -> bool:
    """Only the locker, a listed reviewer or an admin may change or lift a live lock."""
    if not record.locked(ctx.now) or ctx.admin:
        return True
    reviewers = (record.lock_policy or {}).get("reviewers") or ()
    return ctx.actor is not None and (ctx.actor == record.lock_by or ctx.actor in reviewers)
