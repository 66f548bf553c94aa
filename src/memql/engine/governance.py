"""Governance checks shared by the write verbs: locks, lock ownership, record state, and the sensitivity
a record's a2p category implies. Permissions and consent: engine/access.py."""

from __future__ import annotations

from memql.engine.access import may_govern
from memql.engine.context import Context
from memql.lang.categories import lookup, stricter
from memql.lang.fields import SENSITIVITY_ORDER
from memql.ports.record import Record


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
    """Only the locker, a listed reviewer or an admin may change or lift a live lock (an owner who is none
    of these appeals to an admin)."""
    if not record.locked(ctx.now) or ctx.admin:
        return True
    return ctx.actor is not None and (ctx.actor == record.lock_by or ctx.actor in lock_reviewers(record))


def lock_reviewers(record: Record) -> list[str]:
    return list((record.lock_policy or {}).get("reviewers") or ())


def who_may_lift(record: Record) -> str:
    """Who may change or lift a record's live lock, in words, for the refusal its owner gets."""
    names = [record.lock_by] if record.lock_by else []
    names += [r for r in lock_reviewers(record) if r not in names]
    people = f"{', '.join(names)} or " if names else ""
    return f"{people}any admin of the tenant"


def check_may_place_lock(ctx: Context, record: Record) -> None:
    """Placing a lock is governance, like changing the record's permissions (engine/access.may_govern):
    its owner and admins; on an ownerless record or a proposal nobody accepted, also the tenant's users.
    Otherwise a writer could freeze another's record against its owner."""
    if may_govern(ctx, record):
        return
    who = (
        f"its owner ({record.owner}) or an admin"
        if record.owner is not None
        else "the tenant's users or an admin"
    )
    actor = f"{ctx.role} {ctx.actor}" if ctx.actor else "an anonymous session"
    raise ctx.refuse(
        "permission.lock",
        f"record {record.id}: only {who} may lock it, not {actor}",
        "target",
    )


def classify(
    ctx: Context,
    category: str | None,
    sensitivity: str | None,
    record: Record | None,
    at: tuple[str, ...],
) -> str:
    """The sensitivity of an encoded (`record` None) or updated record: the stricter of the one given
    and its category's. A category change never lowers the record's sensitivity (give the sensitivity to
    lower it). `at` is the JSON path of the fields (args, or args/set). An ext: category must be
    registered (EngineConfig.categories): guessing "standard" for a misspelt sensitive one would
    under-protect what it names."""
    floor, named = None, category
    if category is not None:
        floor = lookup(category, ctx.config.categories)
        if floor is None:
            raise ctx.refuse(
                "category.unregistered",
                f"{category} is not a registered extension category (EngineConfig.categories)",
                *at,
                "category",
            )
    elif record is not None and record.category is not None:
        named = record.category
        floor = lookup(named, ctx.config.categories)  # a category from before the registry: no floor
    if sensitivity is not None:
        result = stricter(sensitivity, floor)
        if result != sensitivity:
            ctx.warn(
                "category.sensitivity",
                f"{named} is {floor}: the record is {result}, not {sensitivity}",
                *at,
                "sensitivity",
            )
        return result
    return stricter(record.sensitivity if record is not None else None, floor)


def lowered(ctx: Context, record: Record, category: str | None, sensitivity: str) -> list[str]:
    """Which read governance an Update lowers (docs/engine.md, Permissions): "sensitivity" when the new
    one is less protected than the record's, "category" when the new category's sensitivity floor is
    below the current one's (a category from before the registry, or none, has the lowest floor)."""
    rank = SENSITIVITY_ORDER.index

    def floor(name: str | None) -> int:
        level = lookup(name, ctx.config.categories) if name is not None else None
        return rank(level or SENSITIVITY_ORDER[0])

    found = []
    if rank(sensitivity) < rank(record.sensitivity):
        found.append("sensitivity")
    if floor(category) < floor(record.category):
        found.append("category")
    return found
