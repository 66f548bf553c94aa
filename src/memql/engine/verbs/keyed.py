"""Key-addressed records (issue 18): an Encode with a namespace and a key writes the one live record the
tenant has under them — a new record, or an update of the existing one (audited, with history); the
Retrieve extras a document store needs — time-to-live refresh and namespace listing."""

from __future__ import annotations

from typing import Any

from memql.engine.access import check_consent, check_write, may_govern, may_write
from memql.engine.context import Context
from memql.engine.governance import check_lock, check_writable
from memql.engine.targets import query_from_filter
from memql.engine.verbs.base import Outcome
from memql.lang.keyed import NamespaceListing, NamespaceMatch
from memql.lang.target import Target
from memql.lang.time import add_duration, parse_duration
from memql.ports.record import PERMISSION_FIELDS, Record, namespace_labels, namespace_path
from memql.ports.store import RecordQuery

HOLDING = ("active", "pending", "archived")  # a record in one of these holds its key
# what an Encode of an existing key replaces: its content and index, and its time to live
CONTENT = ("text", "structured", "url", "payload_meta", "keywords", "content_hash", "index_paths", "ttl")


def key_holder(ctx: Context, namespace: list[str], key: str) -> Record | None:
    """The live record holding (namespace, key) in the tenant, whoever may read it. One that has expired
    (expire_at passed, not yet swept) is retired first, as its on_expire would: it no longer holds it."""
    q = RecordQuery(namespace=namespace_path(namespace), key=key, statuses=HOLDING, order="created_asc")
    holder = None
    for record, _ in ctx.session.find(ctx.tenant, q):
        if record.expired(ctx.now) and not record.locked(ctx.now):
            ctx.update(record, status="deleted", deleted_at=ctx.now)
        else:
            holder = record
    return holder


def put_keyed(ctx: Context, record: Record, namespace: list[str], key: str, given: set[str]) -> Outcome:
    """Store `record` under (namespace, key): insert it, or update the record that holds the key with its
    content, time to live and the other fields the Encode gave (`given`: their record field names)."""
    holder = key_holder(ctx, namespace, key)
    if holder is None:
        inserted = ctx.insert(record.copy(namespace=namespace_path(namespace), key=key))
        return Outcome([inserted.id], {"id": inserted.id, "created": True})  # type: ignore[list-item]
    if not ctx.may_read(holder):  # its content stays hidden; that the key is taken cannot
        raise ctx.refuse(
            "key.taken", "another live record holds this namespace and key in the tenant", "args", "key"
        )
    ctx.op = "Update"  # the governance of an Update applies: consent, permissions, state, locks
    check_consent(ctx, "Update")  # an agent below read_write proposes records; it never overwrites one
    check_write(ctx, holder)
    check_writable(ctx, "Update", holder)
    check_lock(ctx, "Update", holder)
    # who reads and writes it, and how protected it is, are its owner's say (as for an Update)
    governing = sorted(
        name
        for name in given & {*PERMISSION_FIELDS, "sensitivity", "category"}
        if getattr(record, name) != getattr(holder, name)
    )
    if governing and not may_govern(ctx, holder):
        raise ctx.refuse(
            "permission.owner",
            f"record {holder.id} "
            + (f"belongs to {holder.owner}" if holder.owner else "has no owner")
            + f": only its owner or an admin may change its {', '.join(governing)}",
            "args",
            governing[0],
        )
    changes: dict[str, Any] = {name: getattr(record, name) for name in (*CONTENT, *given)}
    changes["expire_at"] = record.expire_at
    changes["on_expire"] = record.on_expire if record.expire_at is not None else None
    if record.text != holder.text:
        changes["embedding_status"] = "pending"
    updated = ctx.update(holder, **changes)
    return Outcome([updated.id], {"id": updated.id, "created": False})  # type: ignore[list-item]


def refresh_ttl(ctx: Context, records: list[Record]) -> list[Record]:
    """Renew the time to live of the records that have one and that the session may change (a lock
    holds): expire_at = now + ttl. An audited change of expire_at alone, not of content: updated_at stays.
    Returns the records as they now are."""
    out = []
    for record in records:
        if record.ttl is not None and not record.locked(ctx.now) and may_write(ctx, record):
            expire_at = add_duration(ctx.now, parse_duration(record.ttl))
            if expire_at != record.expire_at:
                ctx.session.update(ctx.tenant, record.id, {"expire_at": expire_at})  # type: ignore[arg-type]
                ctx.log_change(record, {"expire_at": expire_at})
                record = record.copy(expire_at=expire_at)
        out.append(record)
    return out


def list_namespaces(ctx: Context, target: Target, listing: NamespaceListing) -> Outcome:
    """The distinct namespaces of the target's records (those the session may read), sorted, matched,
    cut to max_depth, then offset and limit. The store returns distinct namespaces, not records."""
    q = query_from_filter(target.filter, ctx)
    if q.namespace is None and q.namespace_prefix is None:
        q.namespace_prefix = namespace_path(_literal_prefix(listing.match or []))
    q.limit = None
    found = [namespace_labels(path) for path in ctx.session.namespaces(ctx.tenant, q)]
    kept = [ns for ns in found if all(_matches(m, ns) for m in listing.match or ())]
    if listing.max_depth is not None:
        kept = sorted({ns[: listing.max_depth] for ns in kept})
    else:
        kept = sorted(set(kept))
    page = kept[listing.offset : listing.offset + listing.limit]
    return Outcome([], {"namespaces": [list(ns) for ns in page], "count": len(page)})


def _literal_prefix(matches: list[NamespaceMatch]) -> list[str]:
    """The labels before the first wildcard of the first prefix condition: what the store can match."""
    for match in matches:
        if match.type == "prefix":
            labels = []
            for label in match.path:
                if label == "*":
                    break
                labels.append(label)
            return labels
    return []


def _matches(match: NamespaceMatch, namespace: tuple[str, ...]) -> bool:
    path = match.path
    if len(path) > len(namespace):
        return False
    part = namespace[: len(path)] if match.type == "prefix" else namespace[len(namespace) - len(path) :]
    return all(want in ("*", have) for want, have in zip(path, part, strict=True))
