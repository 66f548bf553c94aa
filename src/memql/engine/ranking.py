"""Search ranking: lexical BM25 and dense similarity fused by normalised scores, shaped by weight.

alpha is the dense share of the fusion (0: lexical only, 1: dense only; default 0.5). Without an embedder,
or for point-in-time reads, search is lexical. A query given as a vector is dense only. Each result's
score components are kept in ctx.explanations for Retrieve's `explain`.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from memql.engine.context import Context
from memql.lang.target import Search
from memql.ports.store import Record, RecordQuery

DEFAULT_ALPHA = 0.5
WEIGHT_SHAPING = 0.2  # a weight of 1.0 lifts a score by 10%, 0.0 lowers it by 10%; 0.5 is neutral
POOL = 5  # candidates per side: POOL x the result count (at least 50)


def search(
    ctx: Context, spec: Search, q: RecordQuery, count: int, as_of: datetime | None
) -> list[tuple[Record, float | None]]:
    """The `count` best records for the search within q's conditions, best first (or in q.order)."""
    overrides = spec.overrides
    alpha = overrides.alpha if overrides and overrides.alpha is not None else DEFAULT_ALPHA
    order = overrides.order_by if overrides and overrides.order_by else "relevance"
    embedder = ctx.embedder if as_of is None else None
    if spec.intent.vector is not None:
        if embedder is None:
            return []
        vector, alpha = spec.intent.vector, 1.0
    elif embedder is None or alpha == 0.0:
        return ctx.session.find(
            ctx.tenant, replace(q, text_query=spec.intent.query, order=order, limit=count, as_of=as_of)
        )
    else:
        vector = embedder.embed([spec.intent.query or ""])[0]
    pool = max(50, POOL * count)
    lexical = (
        []
        if alpha == 1.0
        else ctx.session.find(
            ctx.tenant, replace(q, text_query=spec.intent.query, order="relevance", limit=pool)
        )
    )
    dense = ctx.session.dense(
        ctx.tenant, vector, replace(q, text_query=None, limit=None), pool, embedder.model
    )  # type: ignore[union-attr]
    # fusion by normalised scores (measured on LoCoMo: reciprocal-rank fusion over deep candidate lists
    # fell below BM25 alone): BM25 divided by the best BM25, cosine min-max scaled over the candidates
    records: dict[str, Record] = {}
    parts: dict[str, dict[str, float]] = {}
    for side, hits in (("lexical", lexical), ("dense", dense)):
        values = [float(score) for _, score in hits if score is not None]
        top, low = (max(values), min(values)) if values else (0.0, 0.0)
        for rank, (record, score) in enumerate(hits, start=1):
            records[record.id] = record  # type: ignore[index]
            if side == "lexical":
                norm = float(score) / top if score is not None and top > 0 else 0.0
            else:
                norm = (float(score) - low) / (top - low) if top > low else 1.0
            parts.setdefault(record.id, {})[side] = norm  # type: ignore[arg-type]
            explain = ctx.explanations.setdefault(record.id, {"alpha": alpha})  # type: ignore[arg-type]
            explain[f"{side}_rank"] = rank
            explain["bm25" if side == "lexical" else "cosine"] = (
                round(float(score), 6) if score is not None else None
            )
    fused = {
        rid: (1.0 - alpha) * p.get("lexical", 0.0) + alpha * p.get("dense", 0.0) for rid, p in parts.items()
    }
    shaped = {rid: s * (1.0 + WEIGHT_SHAPING * (records[rid].weight - 0.5)) for rid, s in fused.items()}
    for rid, s in shaped.items():
        ctx.explanations[rid].update(
            fused=round(fused[rid], 6), weight=records[rid].weight, score=round(s, 6)
        )
    best = sorted(shaped, key=lambda rid: (-shaped[rid], -int(rid) if rid.isdigit() else 0))[:count]
    hits = [(records[rid], shaped[rid]) for rid in best]
    if order != "relevance":
        key = {
            "time_desc": lambda h: -(h[0].time or h[0].created_at).timestamp(),
            "time_asc": lambda h: (h[0].time or h[0].created_at).timestamp(),
            "weight_desc": lambda h: -h[0].weight,
        }[order]
        hits.sort(key=key)
    return hits
