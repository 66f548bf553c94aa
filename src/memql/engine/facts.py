"""Typed facts, the write side (SGAM; DESIGN §9): an Encode of a fact keeps its (tenant, subject,
attribute) history canonical, inside the Encode's own transaction.

The history of a key is its live facts (status active or archived, within the session's clearance) in
chain order: by valid_from, then valid_to (an empty window first), then record number. Each fact is true
in world time over [valid_from, valid_to); valid_to is the next fact's valid_from (None for the last:
still true), and each fact is linked `supersedes` to the one before it. Two neighbours never hold the
same value. A new value (t, v) therefore lands in one of three ways:

- repeat: the fact true at t already holds v -> nothing is stored (warning `fact.repeat`);
- extended: the next fact after t holds v -> that fact now starts at t, with this Encode's source (it is
  the earlier evidence), and the fact true at t closes at t (warning `fact.extended`);
- inserted: a new fact over [t, next fact's valid_from); the fact true at t closes at t and the
  `supersedes` links are re-threaded around the new one.

Whatever order a set of dated values arrives in, the history ends up the same (same windows, values,
sources and `supersedes` chain): a late-arriving older value slots in without disturbing later ones.
Same-time values are the one exception: a value for exactly the valid_from of a fact with another value
is a correction, and the later-recorded one wins (the corrected fact keeps an empty window [t, t)).
Every closing is an audited Update of the closed fact (its history shows valid_to changing).
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from memql.engine.context import Context
from memql.engine.verbs import Outcome
from memql.lang.time import format_instant
from memql.ports.store import Record, RecordQuery

LIVE = ("active", "archived")  # what a history is made of: deleted facts leave a gap
SUPERSEDES = "supersedes"
_OPEN = datetime.max.replace(tzinfo=UTC)


def chain_order(record: Record) -> tuple[datetime, datetime, int]:
    return (record.valid_from, record.valid_to or _OPEN, int(record.id))  # type: ignore[return-value, arg-type]


def same_value(a: Any, b: Any) -> bool:
    """JSON equality (so that true is not 1, and key order does not matter)."""
    return json.dumps(a, sort_keys=True, ensure_ascii=False) == json.dumps(b, sort_keys=True, ensure_ascii=False)


def history(ctx: Context, subject: str, attribute: str) -> list[Record]:
    """The live facts of (ctx.tenant, subject, attribute) that the session may see, in chain order."""
    found = ctx.session.find(
        ctx.tenant,
        RecordQuery(
            statuses=LIVE,
            subject=subject,
            attribute=attribute,
            sensitivities=ctx.visible_sensitivities(),
            order="created_asc",
        ),
    )
    return sorted((r for r, _ in found), key=chain_order)


def encode_fact(ctx: Context, record: Record) -> Outcome:
    """Store the fact `record` (subject, attribute, value and valid_from set) into its history."""
    t, value = record.valid_from, record.value
    assert t is not None and record.subject is not None and record.attribute is not None
    on_chain = [r for r in history(ctx, record.subject, record.attribute) if r.valid_to != r.valid_from]
    before = [r for r in on_chain if r.valid_from <= t]  # type: ignore[operator]
    after = [r for r in on_chain if r.valid_from > t]  # type: ignore[operator]
    current = before[-1] if before else None  # the last fact starting at or before t
    following = after[0] if after else None
    covers = current is not None and (current.valid_to is None or current.valid_to > t)
    key = f"{record.subject}/{record.attribute}"
    if covers and same_value(current.value, value):  # type: ignore[union-attr]
        ctx.warn(
            "fact.repeat",
            f"{key} already holds this value at {format_instant(t)} (record {current.id}); nothing was stored",  # type: ignore[union-attr]
            "args",
            "payload",
            "structured",
        )
        return Outcome([current.id], {"id": current.id, "deduplicated": True})  # type: ignore[union-attr, list-item]
    closed = []
    if covers:  # the value true at t ends at t
        ctx.update(current, valid_to=t)  # type: ignore[arg-type]
        closed.append(current.id)  # type: ignore[union-attr]
    if following is not None and same_value(following.value, value):
        ctx.update(following, valid_from=t, source=record.source)
        ctx.warn(
            "fact.extended",
            f"{key} holds this value from {format_instant(following.valid_from)} (record {following.id}); "
            f"it now starts at {format_instant(t)}",
            "args",
            "payload",
            "structured",
        )
        data: dict[str, Any] = {"id": following.id, "extended": True}
        return Outcome([following.id], {**data, "closed": closed} if closed else data)  # type: ignore[list-item]
    new = ctx.insert(record.copy(valid_to=following.valid_from if following is not None else None))
    if current is not None:
        ctx.link(new.id, current.id, SUPERSEDES)  # type: ignore[arg-type]
    if following is not None:
        if current is not None and _linked(ctx, following.id, current.id):  # type: ignore[arg-type]
            ctx.unlink(following.id, current.id, SUPERSEDES)  # type: ignore[arg-type]
        ctx.link(following.id, new.id, SUPERSEDES)  # type: ignore[arg-type]
    data = {"id": new.id}
    return Outcome([new.id], {**data, "closed": closed} if closed else data)  # type: ignore[list-item]


def _linked(ctx: Context, src: str, dst: str) -> bool:
    return any(
        (link.src, link.dst, link.relation) == (src, dst, SUPERSEDES)
        for link in ctx.session.links(ctx.tenant, [src])
    )
