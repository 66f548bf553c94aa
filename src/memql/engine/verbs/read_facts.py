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
from datetime import UTC, datetime
from typing import Any

from memql.engine.context import Context
from memql.engine.facts import chain_order
from memql.engine.targets import resolve
from memql.lang.ops import RetrieveIR
from memql.lang.target import FactFilter, Filter, Target
from memql.ports.record import Record
from memql.services.extract.matching import QueryWords, match_score

DERIVED_FROM = "derived_from"
_MAX_FACTS = 100_000  # the language's largest filter limit
_LIVE = ("active", "archived")
_OPEN = datetime.max.replace(tzinfo=UTC)

Key = tuple[str, str]


def join_facts(
    ctx: Context, ir: RetrieveIR, hits: Sequence[Record], rows: list[dict[str, Any]], as_of: datetime | None
) -> list[dict[str, Any]]:
    """The facts of `ir.args.facts` for these hits; marks each of `rows` (the hits' rows, in order)."""
    at = as_of if as_of is not None else ctx.now
    facts = resolve(ctx, Target(filter=Filter(fact=FactFilter(), limit=_MAX_FACTS)), write=False, as_of=as_of)
    chains: dict[Key, list[Record]] = {}
    for fact, _ in facts:
        chains.setdefault((fact.subject, fact.attribute), []).append(fact)  # type: ignore[arg-type]
    for chain in chains.values():
        chain.sort(key=chain_order)
    by_id = {f.id: f for f, _ in facts}
    stated = _stated(ctx, hits, by_id, as_of)
    for record, row in zip(hits, rows, strict=True):
        row.update(_superseded(stated.get(record.id, []), chains, at))  # type: ignore[arg-type]
    query = _query_text(ir)
    if query is not None:
        keys = _matching(ctx, chains, query, _key_limit(ctx, ir))
    else:
        keys = list(dict.fromkeys((f.subject, f.attribute) for found in stated.values() for f in found))
    derived = _derived_from(ctx, [f for key in keys for f in chains[key]], as_of)  # type: ignore[misc]
    out: list[dict[str, Any]] = []
    for key in keys:
        chain = chains[key]
        true_now = [f for f in chain if _holds(f, at)][-1:]
        shown = true_now
        if ir.args.facts == "history":
            shown = [f for f in chain if f.valid_from <= at and f not in true_now]  # type: ignore[operator]
            shown += true_now
        out += [_fact_row(f, f in true_now, derived.get(f.id, [])) for f in shown]  # type: ignore[arg-type]
    return out


def _holds(fact: Record, at: datetime) -> bool:
    return fact.valid_from <= at < (fact.valid_to or _OPEN)  # type: ignore[operator]


def _stated(
    ctx: Context, hits: Sequence[Record], facts: dict[str | None, Record], as_of: datetime | None
) -> dict[str, list[Record]]:
    """hit id -> the readable facts it states: itself when it is one, and those formed from it."""
    out: dict[str, list[Record]] = {h.id: [facts[h.id]] if h.id in facts else [] for h in hits}  # type: ignore[misc]
    for link in _links(ctx, list(out), as_of):
        formed = facts.get(link.src) if link.relation == DERIVED_FROM and link.dst in out else None
        if formed is not None and all(f.id != formed.id for f in out[link.dst]):
            out[link.dst].append(formed)
    return out


def _superseded(stated: list[Record], chains: dict[Key, list[Record]], at: datetime) -> dict[str, Any]:
    """A hit none of whose facts holds at `at` any more (each one closed by then): what replaced them."""
    closed = [f for f in stated if f.valid_to is not None and f.valid_to <= at]
    if not stated or len(closed) < len(stated):
        return {"superseded_by": [], "superseded_at": None}
    holding = [
        f.id
        for fact in closed
        for f in chains[(fact.subject, fact.attribute)]
        if _holds(f, at)  # type: ignore[index]
    ]
    return {
        "superseded_by": list(dict.fromkeys(holding)),
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


def _matching(ctx: Context, chains: dict[Key, list[Record]], query: str, limit: int) -> list[Key]:
    """The keys the query names, best first. "my" in a user's query is the user's own facts."""
    words = QueryWords.of(query)
    asker = ctx.actor if ctx.role == "user" else None
    scored = []
    for (subject, attribute), chain in chains.items():
        score = match_score(subject, attribute, [f.value for f in chain], words, asker=asker)
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
