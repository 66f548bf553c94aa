"""Typed facts, the write side (SGAM; DESIGN §9): an Encode of a fact keeps the history of its (tenant,
subject, attribute) canonical, inside the Encode's own transaction.

A history is made of all the key's live facts (status active or archived), whoever may read them: a key
has one current value. An Encode that would touch a fact the session may not read or write is refused
before anything is written (_check_access).
Each fact holds one value over the world-time window [valid_from, valid_to) and keeps its `evidence`: the
assertions (valid_from, source) of that value inside the window, the first one starting it. The windows
follow from the evidence alone: all assertions in valid_from order, neighbours with the same value joined
into one fact, each window ending where the next begins (the last one open). `supersedes` links tie each
fact to the one before it. So a new assertion (t, v):

- falls inside a window that already holds v: no record is added, the assertion joins that fact's
  evidence (warning `fact.repeat`; with the same valid_from too, nothing changes at all);
- starts an equal, later value earlier: that fact now starts at t, with this source (`fact.extended`);
- otherwise becomes a new fact over [t, next value); the fact true at t closes at t, and if that fact had
  later evidence of its own value, the part after this one is its own fact again (a new record carrying
  that evidence, as if the assertions had arrived in world-time order).

Whatever order a set of dated values arrives in, the history ends up the same — windows, values, sources,
evidence and the `supersedes` chain; only record ids differ. A late-arriving older value slots in without
disturbing later ones. The one exception is an assertion for exactly the valid_from of an assertion with
another value: a correction, where the later-recorded one wins; a fact left without evidence keeps an
empty window [t, t), and a later fact of the value on both sides of the corrected one is folded into the
earlier (soft-deleted, linked `merged_into`). Every change to an existing fact — a closing above all — is
an audited Update, refused when a lock on that fact forbids it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from itertools import pairwise
from typing import Any

from memql.engine.access import may_write
from memql.engine.context import Context
from memql.engine.governance import check_lock
from memql.engine.verbs.base import Outcome
from memql.errors import Refusal
from memql.lang.time import format_instant, parse_instant
from memql.ports.record import Record
from memql.ports.store import RecordQuery

LIVE = ("active", "archived")  # what a history is made of
SUPERSEDES = "supersedes"
_OPEN = datetime.max.replace(tzinfo=UTC)
_PLAIN = (str, int, bool)  # types whose values are equal exactly when their JSON is (same_value)
_NEW = 1 << 62  # where a fact still to be inserted sorts among ids of its window: after every existing one


def chain_order(record: Record) -> tuple[datetime, datetime, int]:
    """A history's order: by valid_from, an empty (corrected) window first, then record number."""
    return (record.valid_from, record.valid_to or _OPEN, int(record.id))  # type: ignore[return-value, arg-type]


def same_value(a: Any, b: Any) -> bool:
    """JSON equality (true is not 1; key order does not matter)."""
    if type(a) is type(b) and type(a) in _PLAIN:  # (most values: no JSON written to compare them)
        return a == b
    return _canonical(a) == _canonical(b)


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


@dataclass(frozen=True)
class _Assertion:
    valid_from: datetime
    value: Any
    source: str | None
    owner: Record | None  # the fact whose evidence holds it (None: the assertion being encoded)

    def evidence(self) -> dict[str, Any]:
        return {"valid_from": format_instant(self.valid_from), "source": self.source}


def history(ctx: Context, subject: str, attribute: str) -> list[Record]:
    """Every live fact of (ctx.tenant, subject, attribute), in chain order, whatever the session may read:
    a key keeps one history, so a new value is placed among all of its facts (and the Encode is refused
    when it would touch one the session may not read or write: _check_access)."""
    found = ctx.session.find(
        ctx.tenant,
        RecordQuery(statuses=LIVE, subject=subject, attribute=attribute, order="created_asc"),
    )
    return sorted((r for r, _ in found), key=chain_order)


def encode_fact(ctx: Context, record: Record) -> Outcome:
    """Store the fact `record` (subject, attribute, value, valid_from and source set) into its history.
    Everything is decided first, then checked against the session's permissions, then written.

    A `record` with an id is a proposed fact just approved (already active, owned by its approver): it is
    placed as an Encode of it would be, keeping its id; when its value only repeats or adds evidence to a
    fact of the key, the proposal is folded into that fact (deleted, linked `merged_into`)."""
    t, value = record.valid_from, record.value
    assert t is not None and record.subject is not None and record.attribute is not None
    key = f"{record.subject}/{record.attribute}"
    facts = [f for f in history(ctx, record.subject, record.attribute) if f.id != record.id]
    on_chain = [r for r in facts if r.valid_to != r.valid_from]
    earlier_corrections = [f for f in facts if f.valid_to == f.valid_from]
    assertions = [a for r in on_chain for a in _evidence(r)]
    same_time = next((a for a in assertions if a.valid_from == t), None)
    if same_time is not None and same_value(same_time.value, value):  # asserted before, exactly so
        _check_access(ctx, key, [same_time.owner])  # type: ignore[list-item]
        _fold_proposal(ctx, record, same_time.owner)  # type: ignore[arg-type]
        return _repeat(ctx, record, same_time.owner, t)  # type: ignore[arg-type]
    new = _Assertion(t, value, record.source, None)
    # an assertion at exactly t with another value is corrected by this one (the later-recorded wins)
    runs = _runs(sorted([a for a in assertions if a.valid_from != t] + [new], key=lambda a: a.valid_from))
    # each run is kept by the first fact among its assertions' owners that keeps no earlier run
    keepers: list[Record | None] = []
    taken: set[str | None] = set()
    for run in runs:
        keeper = next((a.owner for a in run if a.owner is not None and a.owner.id not in taken), None)
        keepers.append(keeper)
        if keeper is not None:
            taken.add(keeper.id)
    windows = [
        {
            "valid_from": run[0].valid_from,
            "valid_to": runs[i + 1][0].valid_from if i + 1 < len(runs) else None,
            "source": run[0].source,
            "evidence": [a.evidence() for a in run],
        }
        for i, run in enumerate(runs)
    ]
    mine_at = next(i for i, run in enumerate(runs) if any(a is new for a in run))
    # on-chain facts that keep no run: folded into the run holding their assertions, or (their only
    # assertion, at t, corrected) left with the empty window [t, t)
    kept_ids = {k.id for k in keepers if k is not None}
    dropped = [f for f in on_chain if f.id not in kept_ids]
    folded = {f.id: next((i for i, run in enumerate(runs) if _owns(f, run)), None) for f in dropped}
    touched = [k for k, w in zip(keepers, windows, strict=True) if k is not None and _differs(k, w)]
    touched += dropped
    touched += [k for k in keepers[mine_at : mine_at + 2] if k is not None]  # returned; bounds the window
    corrected_ones = [f for f in dropped if folded[f.id] is None]
    chain = _final_chain(windows, keepers, corrected_ones, earlier_corrections, t)
    touched += _relinked(ctx, facts, chain)
    _check_access(ctx, key, touched)

    kept: list[Record] = []  # the fact of each run, as it now is
    closed: list[str] = []
    for run, keeper, window in zip(runs, keepers, windows, strict=True):
        if keeper is None:  # a new fact: this assertion, or the tail of a fact that this one splits
            encoded = record if any(a is new for a in run) else None
            if encoded is not None and encoded.id is not None:  # an approved proposal keeps its record
                kept.append(ctx.update(encoded, **window))
            else:
                kept.append(ctx.insert(_new_fact(encoded or run[0].owner, window, encoded)))  # type: ignore[arg-type]
            continue
        end = window["valid_to"]
        if end is not None and (keeper.valid_to is None or end < keeper.valid_to):
            closed.append(keeper.id)  # type: ignore[arg-type]
        kept.append(_change(ctx, keeper, **window))
    corrected: list[Record] = []
    for fact in dropped:
        into = folded[fact.id]
        if into is None:  # its only assertion, at t, was corrected: it keeps the empty window [t, t)
            corrected.append(_change(ctx, fact, valid_to=t))
            closed.append(fact.id)  # type: ignore[arg-type]
        else:  # its assertions joined an earlier fact's run (a correction removed what stood between)
            _change(ctx, fact, status="deleted", deleted_at=ctx.now)
            ctx.link(fact.id, kept[into].id, "merged_into")  # type: ignore[arg-type]
    _thread(ctx, sorted(kept + corrected + earlier_corrections, key=chain_order))
    mine = kept[mine_at]
    _fold_proposal(ctx, record, mine)
    data: dict[str, Any] = {"id": mine.id}
    if mine.id in {f.id for f in on_chain}:
        if mine.valid_from != t:
            return _repeat(ctx, record, mine, t)
        data["extended"] = True
        ctx.warn(
            "fact.extended",
            f"{key} held this value from a later time (record {mine.id}); it now starts at "
            f"{format_instant(t)}",
            "args",
            "payload",
            "structured",
        )
    if closed:
        data["closed"] = closed
    return Outcome([mine.id], data)  # type: ignore[list-item]


def _differs(fact: Record, window: dict[str, Any]) -> bool:
    return any(getattr(fact, name) != value for name, value in window.items())


def _final_chain(
    windows: list[dict[str, Any]],
    keepers: list[Record | None],
    corrected: list[Record],
    earlier_corrections: list[Record],
    t: datetime,
) -> list[str]:
    """The ids of the key's live facts once the Encode is written, in chain order; a fact still to be
    inserted is named `+N` and sorts after every existing one of its window, as its new id will."""
    placed: list[tuple[datetime, datetime, int, str]] = []
    for i, (window, keeper) in enumerate(zip(windows, keepers, strict=True)):
        ends = window["valid_to"] or _OPEN
        if keeper is None:
            placed.append((window["valid_from"], ends, _NEW + i, f"+{i}"))
        else:
            placed.append((window["valid_from"], ends, int(keeper.id), keeper.id))  # type: ignore[arg-type]
    for fact in corrected:
        placed.append((fact.valid_from, t, int(fact.id), fact.id))  # type: ignore[arg-type]
    for fact in earlier_corrections:
        placed.append((*chain_order(fact), fact.id))  # type: ignore[arg-type]
    return [name for *_, name in sorted(placed)]


def _relinked(ctx: Context, facts: list[Record], chain: list[str]) -> list[Record]:
    """The existing facts whose `supersedes` link to the fact before them _thread would redraw."""
    by_id = {f.id: f for f in facts}
    wanted = {(later, earlier) for earlier, later in pairwise(chain)}
    members = set(chain)
    have = {
        (link.src, link.dst)
        for link in ctx.session.links(ctx.tenant, [i for i in chain if i in by_id])
        if link.relation == SUPERSEDES and link.src in members and link.dst in members
    }
    return [by_id[src] for src, _ in wanted ^ have if src in by_id]


def _check_access(ctx: Context, key: str, touched: list[Record]) -> None:
    """Refuse the Encode, before anything is written, when a fact it touches is one the session may not
    read (clearance and read permissions) or may not write. The refusal names the key and who may record
    the value, never what the hidden facts hold nor their ids."""
    barred = [f for f in touched if not (ctx.may_read(f) and may_write(ctx, f))]
    if not barred:
        return
    owners = sorted({f.owner for f in barred if f.owner is not None})
    who = f"{'its owner' if len(owners) == 1 else 'their owners'} ({', '.join(owners)}) or an admin"
    actor = f"{ctx.role} {ctx.actor}" if ctx.actor else "an anonymous session"
    raise ctx.refuse(
        "permission.fact",
        f"{key}: this value would close, extend, repeat or border a fact of the key that {actor} may not "
        f"read or change; only {who if owners else 'an admin'} may record it",
        "args",
        "payload",
        "structured",
    )


def _owns(fact: Record, run: list[_Assertion]) -> bool:
    return any(a.owner is not None and a.owner.id == fact.id for a in run)


def _change(ctx: Context, fact: Record, **changes: Any) -> Record:
    """An audited Update of a fact the new assertion touches; a lock on it refuses the Encode, unless the
    change only adds evidence and the lock is append_only (or its policy allows Encode)."""
    diff = {k: v for k, v in changes.items() if getattr(fact, k) != v}
    if not diff:
        return fact
    appending = set(diff) == {"evidence"}
    try:
        check_lock(ctx, "Encode", fact, appending=appending)
    except Refusal as refusal:
        raise ctx.refuse(refusal.rule, refusal.message, "args", "payload", "structured") from None
    return ctx.update(fact, **diff)


def _evidence(record: Record) -> list[_Assertion]:
    entries = record.evidence or [{"valid_from": record.valid_from, "source": record.source}]
    return [_Assertion(_instant(e["valid_from"]), record.value, e.get("source"), record) for e in entries]


def _instant(value: datetime | str) -> datetime:
    return value if isinstance(value, datetime) else parse_instant(value)[0]


def _runs(assertions: list[_Assertion]) -> list[list[_Assertion]]:
    """Neighbours with the same value, joined."""
    runs: list[list[_Assertion]] = []
    for a in assertions:
        if runs and same_value(runs[-1][0].value, a.value):
            runs[-1].append(a)
        else:
            runs.append([a])
    return runs


def _new_fact(template: Record, window: dict[str, Any], encoded: Record | None) -> Record:
    """The record of a new fact: the Encode's own record, or a copy of the fact whose tail it is."""
    base = encoded if encoded is not None else template
    structured = {"subject": base.subject, "attribute": base.attribute, "value": base.value}
    structured["valid_from"] = format_instant(window["valid_from"])
    if window["source"] is not None:
        structured["source"] = window["source"]
    fields = {**window, "structured": structured if encoded is None else base.structured}
    return base.copy(id=None, visits=0, last_access_at=None, **fields)


def _repeat(ctx: Context, record: Record, owner: Record, t: datetime) -> Outcome:
    ctx.warn(
        "fact.repeat",
        f"{record.subject}/{record.attribute} already holds this value at {format_instant(t)} (record "
        f"{owner.id}); nothing new was stored",
        "args",
        "payload",
        "structured",
    )
    return Outcome([owner.id], {"id": owner.id, "deduplicated": True})  # type: ignore[list-item]


def _fold_proposal(ctx: Context, record: Record, into: Record) -> None:
    """An approved proposal whose value another fact already holds: one fact per value, so it is merged
    into that fact (its assertion is in that fact's evidence) and leaves the history."""
    if record.id is not None and into.id != record.id:
        ctx.update(record, status="deleted", deleted_at=ctx.now)
        ctx.link(record.id, into.id, "merged_into")


def _thread(ctx: Context, facts: list[Record]) -> None:
    """Make the `supersedes` links among the key's live facts exactly: each fact -> the one before it."""
    ids = [f.id for f in facts]
    wanted = {(later, earlier) for earlier, later in pairwise(ids)}
    members = set(ids)
    have = {
        (link.src, link.dst)
        for link in ctx.session.links(ctx.tenant, ids)  # type: ignore[arg-type]
        if link.relation == SUPERSEDES and link.src in members and link.dst in members
    }
    for src, dst in sorted(have - wanted):
        ctx.unlink(src, dst, SUPERSEDES)  # type: ignore[arg-type]
    for src, dst in sorted(wanted - have, key=lambda pair: ids.index(pair[0])):
        ctx.link(src, dst, SUPERSEDES)  # type: ignore[arg-type]
