"""Resolve a Target to records: ids, filter, search, all, or an earlier step's records — always in the
session's tenant, with the status, lazy-expiry, clearance and read-permission rules applied inside the
store query. A write also needs the write permission of every record it resolves (engine/access.py)."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from memql.engine import ranking
from memql.engine.access import check_write
from memql.engine.context import Context
from memql.lang.fields import TimeRange
from memql.lang.keyed import conditions
from memql.lang.target import Filter, Target
from memql.lang.time import relative_window
from memql.ports.record import Record, namespace_path
from memql.ports.store import ConditionGroup, RecordQuery, StructuredCondition

VISIBLE = ("active",)  # what reads see by default
LIVE = ("active", "archived")  # what writes by filter, search or all act on by default


def window(tr: TimeRange, ctx: Context):
    if tr.relative is not None:
        return relative_window(tr.relative, tr.amount, tr.unit, ctx.now)  # type: ignore[arg-type]
    return tr.start, tr.end


def query_from_filter(f: Filter | None, ctx: Context, write: bool = False) -> RecordQuery:
    """The store query for a filter: by default unexpired records, active ones for reads and active or
    archived ones for writes (archiving hides a record from reads; it stays governable)."""
    q = RecordQuery(
        statuses=LIVE if write else VISIBLE,
        not_expired_at=ctx.now,
        sensitivities=ctx.visible_sensitivities(),  # beyond the clearance: as if absent, for reads and writes
        access=ctx.read_access(),  # unreadable: as if absent too
    )
    if f is None:
        return q
    if f.status is not None:
        q.statuses = None if f.status == "any" else (f.status,)
        if f.status in ("any", "expired"):
            q.not_expired_at = None
        if f.status == "expired":
            q.lapsed_at = ctx.now
    if f.time_range is not None:
        q.time_from, q.time_to = window(f.time_range, ctx)
    q.has_tags = list(f.has_tags or ())
    q.not_tags = list(f.not_tags or ())
    q.kind = f.type
    facets = dict(f.facets or {})
    for key in ("subject", "location", "topic"):
        if getattr(f, key) is not None:
            facets[key] = getattr(f, key)
    q.facet_equals = facets
    q.weight_gte, q.weight_lte = f.weight_gte, f.weight_lte
    q.expire_before, q.expire_after = f.expire_before, f.expire_after
    q.memory_type, q.category, q.sensitivity = f.memory_type, f.category, f.sensitivity
    if f.namespace is not None:
        q.namespace = namespace_path(f.namespace)
    if f.namespace_prefix is not None:
        q.namespace_prefix = namespace_path(f.namespace_prefix)
    q.key = f.key
    for where, column in ((f.where, "structured"), (f.facets_where, "facets")):
        if where is not None:
            q.structured = [*q.structured, *(_condition(c, column) for c in conditions(where))]
    if f.current:
        q.facts_current_at = ctx.now
    if f.fact is not None:
        q.facts_only = True
        q.subject, q.attribute, q.valid_at = f.fact.subject, f.fact.attribute, f.fact.valid_at
    q.limit = f.limit
    return q


def _condition(node: tuple, column: str) -> StructuredCondition | ConditionGroup:
    """A node of memql.lang.keyed.conditions as the store port's condition on `column`."""
    if len(node) == 2:
        kind, children = node
        return ConditionGroup(kind, tuple(_condition(c, column) for c in children))
    path, op, value = node
    return StructuredCondition(path, op, value, column)  # type: ignore[arg-type]


def canonical_id(value: str | int) -> str:
    """memql ids are decimal record numbers: '001' (and '١') name record '1'. Decimal digits only: '³' is
    a digit to str.isdigit but no number to int(). An int names its record too, as the verbs' targets take
    one (`Memory.history(5)`: it raised AttributeError); anything else is a caller's bug, said as one."""
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    if not isinstance(value, str):
        raise TypeError(f"a record id is a string of digits (or an int), not {type(value).__name__}")
    return str(int(value)) if value.isdecimal() else value


def resolve(
    ctx: Context,
    target: Target,
    *,
    write: bool,
    narrow: RecordQuery | None = None,
    as_of: datetime | None = None,
    offset: int = 0,
) -> list[tuple[Record, float | None]]:
    """The records a target selects, in ranking order, with their lexical score when searched.

    `narrow` adds verb-specific conditions (Delete's older_than/time_range). Writes use the capped
    limit the language wrote into the IR; reads through a bare filter default to the read limit.
    `as_of` (reads) selects from the records as the audit log says they were at that instant.
    A write is refused (`permission.write`) when a record it resolves may be read but not changed.
    `offset` (reads) skips that many of the ordered records first: a search ranks offset + k candidates.
    """
    rows = _resolve(ctx, target, write=write, narrow=narrow, as_of=as_of, offset=offset)
    if write:
        for record, _ in rows:
            check_write(ctx, record)
    return rows


def _resolve(
    ctx: Context,
    target: Target,
    *,
    write: bool,
    narrow: RecordQuery | None,
    as_of: datetime | None,
    offset: int = 0,
) -> list[tuple[Record, float | None]]:
    if target.all:
        q = query_from_filter(None, ctx, write)
        q.offset = offset
        return find_records(ctx, _narrowed(q, narrow), as_of)
    if target.ids is not None or target.from_step is not None:
        return _by_ids(ctx, target, write=write, narrow=narrow, as_of=as_of)[offset:]
    q = query_from_filter(target.filter, ctx, write)
    if target.search is not None:
        spec = target.search
        overrides = spec.overrides
        k = overrides.k if overrides and overrides.k else spec.limit or ctx.config.default_k
        count = min(k, spec.limit) if spec.limit is not None else k  # top-k candidates, at most limit
        return ranking.search(ctx, spec, _narrowed(q, narrow), count + offset, as_of)[offset:]
    if q.limit is None and not write:
        q.limit = ctx.config.default_read_limit
    q.offset = offset
    return find_records(ctx, _narrowed(q, narrow), as_of)


def _by_ids(ctx: Context, target: Target, *, write: bool, narrow: RecordQuery | None, as_of: datetime | None):
    if target.from_step is not None:
        ids = ctx.step_ids[target.from_step]
    else:
        ids = list(dict.fromkeys(canonical_id(i) for i in target.ids or ()))  # "1" and "001" are one record
    if as_of is not None or target.filter is not None or narrow is not None:
        q = _narrowed(query_from_filter(target.filter, ctx, write), narrow)
        q.ids = ids
        q.limit = None
        return find_records(ctx, q, as_of)
    found = {i: r for i, r in ctx.session.get(ctx.tenant, ids).items() if ctx.may_read(r)}
    for missing in [i for i in ids if i not in found]:
        ctx.warn("target.not_found", f"no record {missing} in this tenant", "target")
    rows = []
    for record_id in ids:
        record = found.get(record_id)
        if record is None:
            continue
        if not write and (record.status not in VISIBLE or record.expired(ctx.now)):
            ctx.warn("target.hidden", f"record {record_id} is {_state(record, ctx)}; not returned", "target")
            continue
        rows.append((record, None))
    return rows


def _state(record: Record, ctx: Context) -> str:
    lapsed = record.status in ("active", "pending") and record.expired(ctx.now)
    return "expired" if lapsed else record.status


def _narrowed(q: RecordQuery, narrow: RecordQuery | None) -> RecordQuery:
    if narrow is None:
        return q
    changes = {}
    if narrow.created_before is not None:
        changes["created_before"] = narrow.created_before
    if narrow.time_from is not None:
        changes["time_from"] = max(filter(None, (q.time_from, narrow.time_from)))
    if narrow.time_to is not None:
        changes["time_to"] = min(filter(None, (q.time_to, narrow.time_to)))
    return replace(q, **changes)


def find_records(
    ctx: Context, q: RecordQuery, as_of: datetime | None = None
) -> list[tuple[Record, float | None]]:
    """The records of a store query built by query_from_filter (the session's conditions are in it), as
    they were at `as_of` when given."""
    if as_of is not None:
        q = replace(q, as_of=as_of, not_expired_at=as_of if q.not_expired_at is not None else None)
    return ctx.session.find(ctx.tenant, q)
