"""Retrieve `facts` (memql extension; docs/language.md, "Retrieve facts"): beside the hits, the typed facts
the read is about, true at its instant, and on every hit whether the facts it states still hold.

- Which facts: the keys (subject, attribute) whose words the search query names — the same matcher a
  conversation's context uses (services/extract/matching.py); without a query text (ids, a filter, a
  vector search), the keys the hits state. "current" gives each key's value true at the instant;
  "history" adds the values it held before, each with its window.
- The instant is the Retrieve's `as_of`, else now: the facts as the store held them then (the audit log
  replayed, as for the hits), true in the world then.
- Every fact is read through the session's own conditions (tenant, read permissions, clearance, consent,
  expiry, status), as the hits are: a fact the reader may not read never appears, not even as the id
  that superseded a hit, and a fact's `derived_from` names only records the reader may read.
- A hit states the typed facts it is (a fact record) or that were formed from it (`derived_from` links,
  a conversation's message). A hit none of whose stated facts holds at the instant any more carries
  `superseded_by` (the ids of the facts that hold those keys now) and `superseded_at` (when the first
  of them stopped being true); every other hit carries [] and null.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from memql.engine.context import Context
from memql.engine.facts import chain_order
from memql.engine.targets import find_records, query_from_filter
from memql.lang.ops import RetrieveIR
from memql.lang.target import FactFilter, Filter
from memql.ports.record import Record
from memql.services.extract.matching import QueryWords, match_score

DERIVED_FROM = "derived_from"
_LIVE = ("active", "archived")

Key = tuple[str, str]


def join_facts(
    ctx: Context, ir: RetrieveIR, hits: Sequence[Record], rows: list[dict[str, Any]], as_of: datetime | None
) -> list[dict[str, Any]]:
    """The facts of `ir.args.facts` for these hits; marks each of `rows` (the hits' rows, in order)."""
    at = as_of if as_of is not None else ctx.now
    holding: dict[Key, Record] = {}  # each key's readable value true at `at` (one store query)
    for fact in sorted(_facts(ctx, FactFilter(valid_at=at), as_of), key=chain_order):
        holding[_key(fact)] = fact
    stated = _stated(ctx, hits, as_of)
    for record, row in zip(hits, rows, strict=True):
        row.update(_superseded(stated[record.id], holding, at))  # type: ignore[index]
    query = _query_text(ir)
    if query is not None:
        keys = _matching(ctx, holding, query, _key_limit(ctx, ir))
    else:
        keys = list(dict.fromkeys(_key(f) for found in stated.values() for f in found))
    shown: list[Record] = []
    for key in keys:
        if ir.args.facts == "history":  # the key's whole history up to the instant, oldest first
            chain = _facts(ctx, FactFilter(subject=key[0], attribute=key[1]), as_of)
            shown += sorted((f for f in chain if f.valid_from <= at), key=chain_order)  # type: ignore[operator]
        elif key in holding:
            shown.append(holding[key])
    derived = _derived_from(ctx, shown, as_of)
    current = {f.id for f in holding.values()}
    return [_fact_row(f, f.id in current, derived.get(f.id, [])) for f in shown]  # type: ignore[arg-type]


def _key(fact: Record) -> Key:
    return (fact.subject, fact.attribute)  # type: ignore[return-value]


def _facts(
    ctx: Context, condition: FactFilter, as_of: datetime | None, ids: list[str] | None = None
) -> list[Record]:
    """The typed facts meeting `condition` that a read of this session sees (tenant, permissions,
    clearance, consent, status, expiry), as the store held them at `as_of`; among `ids` when given."""
    q = query_from_filter(Filter(fact=condition), ctx)
    if ids is not None:
        q.ids = ids
    return [record for record, _ in find_records(ctx, q, as_of)]


def _stated(ctx: Context, hits: Sequence[Record], as_of: datetime | None) -> dict[str, list[Record]]:
    """hit id -> the facts it states that the reader may read: itself when it is a live fact, and those
    formed from it (links derived_from: fact -> hit)."""
    out: dict[str, list[Record]] = {
        h.id: [h] if h.attribute is not None and h.status in _LIVE else []  # type: ignore[misc]
        for h in hits
    }
    formed: dict[str, list[str]] = {}  # fact id -> the hits it was formed from
    for link in _links(ctx, list(out), as_of):
        if link.relation == DERIVED_FROM and link.dst in out:
            formed.setdefault(link.src, []).append(link.dst)
    if formed:
        for fact in _facts(ctx, FactFilter(), as_of, ids=list(formed)):
            for hit in formed[fact.id]:  # type: ignore[index]
                if all(f.id != fact.id for f in out[hit]):
                    out[hit].append(fact)
    return out


def _superseded(stated: list[Record], holding: dict[Key, Record], at: datetime) -> dict[str, Any]:
    """A hit none of whose facts holds at `at` any more (each one closed by then): what holds now."""
    closed = [f for f in stated if f.valid_to is not None and f.valid_to <= at]
    if not stated or len(closed) < len(stated):
        return {"superseded_by": [], "superseded_at": None}
    now = [holding[_key(f)].id for f in closed if _key(f) in holding]
    return {
        "superseded_by": list(dict.fromkeys(now)),
        "superseded_at": min(f.valid_to for f in closed),  # type: ignore[type-var]
    }


def _query_text(ir: RetrieveIR) -> str | None:
    search = ir.target.search if ir.target is not None else None
    return search.intent.query if search is not None else None


def _key_limit(ctx: Context, ir: RetrieveIR) -> int:
    """As many keys as the search asks for records (its k, at most its limit)."""
    spec = ir.target.search  # type: ignore[union-attr]
    k = spec.overrides.k if spec.overrides and spec.overrides.k else spec.limit or ctx.config.default_k  # type: ignore[union-attr]
    return min(k, spec.limit) if spec.limit is not None else k  # type: ignore[union-attr]


def _matching(ctx: Context, holding: dict[Key, Record], query: str, limit: int) -> list[Key]:
    """The keys the query names, best first. "my" in a user's query is the user's own facts."""
    words = QueryWords.of(query)
    asker = ctx.actor if ctx.role == "user" else None
    scored = []
    for (subject, attribute), fact in holding.items():
        score = match_score(subject, attribute, [fact.value], words, asker=asker)
        if score > 0:
            scored.append((-score, subject, attribute))
    return [(subject, attribute) for _, subject, attribute in sorted(scored)[:limit]]


def _links(ctx: Context, ids: list[str], as_of: datetime | None):
    """The links of these records (those made by `as_of`, for a read of the past)."""
    found = ctx.session.links(ctx.tenant, ids)
    if as_of is None:
        return found
    return [link for link in found if link.created_at is None or link.created_at <= as_of]


def _derived_from(ctx: Context, facts: list[Record], as_of: datetime | None) -> dict[str, list[str]]:
    """fact id -> the records it was formed from that the reader may read (live, unexpired)."""
    ids = [f.id for f in facts]
    links = [
        link
        for link in _links(ctx, ids, as_of)  # type: ignore[arg-type]
        if link.relation == DERIVED_FROM and link.src in set(ids)
    ]
    sources = ctx.session.get(ctx.tenant, list({link.dst for link in links}))
    readable = {
        i for i, r in sources.items() if r.status in _LIVE and not r.expired(ctx.now) and ctx.may_read(r)
    }
    out: dict[str, list[str]] = {}
    for link in links:
        if link.dst in readable:
            out.setdefault(link.src, []).append(link.dst)
    return out


def _fact_row(fact: Record, holds: bool, derived_from: list[str]) -> dict[str, Any]:
    return {
        "id": fact.id,
        "subject": fact.subject,
        "attribute": fact.attribute,
        "value": fact.value,
        "valid_from": fact.valid_from,
        "valid_to": fact.valid_to,
        "current": holds,
        "source": fact.source,
        "evidence": fact.evidence or [],
        "derived_from": derived_from,
    }
