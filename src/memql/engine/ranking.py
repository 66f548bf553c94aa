"""Search ranking: lexical BM25 and dense similarity fused as a convex combination of evidence on [0, 1],
shaped by weight, recency and heat, optionally diversified by maximal marginal relevance (MMR).

    fused = (1 - alpha) * bm25 / best bm25 + alpha * cosine
    score = fused * (1 + W * (weight - 1/2)) * (1 + R * 2^(-age / H_r)) * (1 + S * heat)
    heat  = visits / (visits + V) * 2^(-since last visit / H_h)

alpha is the dense share of the fusion (0: lexical only, 1: dense only; default 0.5). Without an embedder,
or for point-in-time reads, search is lexical. A query given as a vector is dense only. The age is taken
from the record's event time (else its creation) at the op's `now` (a point-in-time read: at `as_of`).
W, R, H_r, S, V, H_h come from EngineConfig; overrides.recency and overrides.heat replace R and S for one
search. overrides.order_by other than relevance sorts the chosen results, it does not choose them: the
`count` best matches, newest first (say). Each result's score components are kept in ctx.explanations
for Retrieve's `explain`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime, timedelta

import numpy as np

from memql.engine.context import Context
from memql.index.text import lexical_text
from memql.lang.target import Search
from memql.ports.record import Record
from memql.ports.store import RecordQuery
from memql.services.tokenize import tokens

DEFAULT_ALPHA = 0.5
POOL = 5  # candidates per side: POOL x the result count (at least 50)
_DAY = timedelta(days=1)


def search(
    ctx: Context, spec: Search, q: RecordQuery, count: int, as_of: datetime | None
) -> list[tuple[Record, float | None]]:
    """The `count` best records for the search within q's conditions, best first (or in order_by)."""
    overrides = spec.overrides
    alpha = overrides.alpha if overrides and overrides.alpha is not None else DEFAULT_ALPHA
    order = overrides.order_by if overrides and overrides.order_by else "relevance"
    embedder = ctx.embedder if as_of is None else None
    model = embedder.model if embedder is not None else ""
    vector: Sequence[float] | None = None
    if spec.intent.vector is not None:
        if embedder is None:
            return []
        vector, alpha = spec.intent.vector, 1.0
    elif embedder is None or alpha == 0.0:
        alpha = 0.0
    else:
        vector = embedder.embed([spec.intent.query or ""])[0]
    mmr = overrides.mmr if overrides else None
    window = max(ctx.config.mmr_window, 2 * count) if mmr is not None else count  # what MMR picks from
    # fusion needs deep lists; lexical ranking alone only needs room for shaping to reorder (decoding a
    # row costs more than ranking it)
    pool = max(window, 50, POOL * count) if vector is not None else max(window, 2 * count)
    lexical = (
        []
        if alpha == 1.0
        else ctx.session.find(
            ctx.tenant,
            replace(q, text_query=spec.intent.query, order="relevance", limit=pool, as_of=as_of),
        )
    )
    dense = (
        []
        if vector is None
        else ctx.session.dense(ctx.tenant, vector, replace(q, text_query=None, limit=None), pool, model)
    )
    records, fused = _fuse(ctx, lexical, dense, alpha)
    shaped = _shape(ctx, spec, records, fused, as_of or ctx.now)
    if overrides is not None and overrides.min_score is not None:
        shaped = {rid: s for rid, s in shaped.items() if s >= overrides.min_score}
    ranked = sorted(shaped, key=lambda rid: (-shaped[rid], -int(rid) if rid.isdigit() else 0))
    if mmr is None:
        best = ranked[:count]
    else:
        candidates = [records[rid] for rid in ranked[:window]]
        best = diversify(ctx, candidates, shaped, count, mmr, model)
    hits = [(records[rid], shaped[rid]) for rid in best]
    if order != "relevance":
        key = {
            "time_desc": lambda h: -(h[0].time or h[0].created_at).timestamp(),
            "time_asc": lambda h: (h[0].time or h[0].created_at).timestamp(),
            "weight_desc": lambda h: -h[0].weight,
        }[order]
        hits.sort(key=key)
    return hits


def _fuse(
    ctx: Context,
    lexical: list[tuple[Record, float | None]],
    dense: list[tuple[Record, float]],
    alpha: float,
) -> tuple[dict[str, Record], dict[str, float]]:
    """A convex combination of the two sides' evidence, each on [0, 1]: BM25 divided by the best BM25 of
    the query, and the cosine itself (see _dense_evidence). Each part is explained."""
    records: dict[str, Record] = {}
    parts: dict[str, dict[str, float]] = {}
    best_bm25 = max((float(s) for _, s in lexical if s is not None), default=0.0)
    for side, hits in (("lexical", lexical), ("dense", dense)):
        for rank, (record, score) in enumerate(hits, start=1):
            rid: str = record.id  # type: ignore[assignment]
            records[rid] = record
            if side == "lexical":
                norm = float(score) / best_bm25 if score is not None and best_bm25 > 0 else 0.0
            else:
                norm = _dense_evidence(float(score))
            parts.setdefault(rid, {})[side] = norm
            explain = ctx.explanations.setdefault(rid, {"alpha": alpha})
            explain[f"{side}_rank"] = rank
            explain["bm25" if side == "lexical" else "cosine"] = _sig(score)
    fused = {}
    for rid, p in parts.items():
        lexical_part, dense_part = p.get("lexical", 0.0), p.get("dense", 0.0)
        fused[rid] = (1.0 - alpha) * lexical_part + alpha * dense_part
        # the normalised parts, so that fused = (1 - alpha) * lexical + alpha * dense can be checked
        ctx.explanations[rid].update(lexical=round(lexical_part, 6), dense=round(dense_part, 6))
    return records, fused


def _dense_evidence(cosine: float) -> float:
    """The dense side's evidence on [0, 1]: the cosine itself, an absolute scale. (Min-max scaling over the
    candidates stretched any spread of cosines to 0..1, so a record whose cosine was barely below the
    others' lost all dense credit and tied a record with no lexical match at all.) The store returns only
    positive cosines."""
    return min(1.0, max(0.0, cosine))


def _shape(
    ctx: Context, spec: Search, records: dict[str, Record], fused: dict[str, float], now: datetime
) -> dict[str, float]:
    """fused x weight x recency x heat factors, each explained."""
    config, overrides = ctx.config, spec.overrides
    recency = overrides.recency if overrides and overrides.recency is not None else config.recency_shaping
    heat = overrides.heat if overrides and overrides.heat is not None else config.heat_shaping
    shaped = {}
    for rid, score in fused.items():
        record = records[rid]
        weight_factor = 1.0 + config.weight_shaping * (record.weight - 0.5)
        age = _days(now, record.time or record.created_at)
        freshness = 0.0 if age is None else 0.5 ** (age / (config.recency_half_life / _DAY))
        recency_factor = 1.0 + recency * freshness
        warmth = heat_of(record, now, config.heat_visits, config.heat_half_life)
        heat_factor = 1.0 + heat * warmth
        shaped[rid] = score * weight_factor * recency_factor * heat_factor
        ctx.explanations[rid].update(
            fused=round(score, 6),
            weight=record.weight,
            recency=round(recency_factor, 6),
            age_days=None if age is None else round(age, 3),
            heat=round(heat_factor, 6),
            visits=record.visits,
            score=round(shaped[rid], 6),
        )
    return shaped


def heat_of(record: Record, now: datetime, half_visits: float, half_life: timedelta) -> float:
    """How hot a memory is, in [0, 1): saturating in its visits, decaying since its last visit."""
    since = _days(now, record.last_access_at)
    if record.visits <= 0 or since is None:
        return 0.0
    return record.visits / (record.visits + half_visits) * 0.5 ** (since / (half_life / _DAY))


def _sig(value: float | None) -> float | None:
    """Six significant digits: BM25 scores over a handful of records are tiny, and rounding to six
    decimals would show them all as 1e-06."""
    return None if value is None else float(f"{float(value):.6g}")


def _days(now: datetime, then: datetime | None) -> float | None:
    """Days from `then` to `now`; a future instant counts as now (a scheduled event is not older)."""
    return None if then is None else max(0.0, (now - then) / _DAY)


# --- maximal marginal relevance -------------------------------------------------------------------


def diversify(
    ctx: Context,
    candidates: list[Record],
    relevance: dict[str, float],
    count: int,
    lam: float,
    model: str,
) -> list[str]:
    """Pick `count` of the candidates (best first) by maximal marginal relevance:
    argmax lam * relevance / best relevance - (1 - lam) * (highest similarity to a record already picked).

    Similarity is the cosine of the records' stored embeddings of `model` ("": none) when both have one,
    else the Jaccard overlap of their token sets. Ties go to the better-ranked candidate, so lam = 1 keeps
    the plain ranking.
    """
    if not candidates:
        return []
    ids: list[str] = [r.id for r in candidates]  # type: ignore[misc]
    rel = np.array([relevance[rid] for rid in ids])
    rel = rel / rel.max() if rel.max() > 0 else np.zeros(len(ids))
    similar = _Similarity(candidates, model)
    redundancy = np.zeros(len(ids))
    open_ = np.ones(len(ids), dtype=bool)
    picked: list[str] = []
    while len(picked) < min(count, len(ids)):
        gains = np.where(open_, lam * rel - (1.0 - lam) * redundancy, -np.inf)
        chosen = int(np.argmax(gains))  # the first of equal values: the better-ranked candidate
        open_[chosen] = False
        picked.append(ids[chosen])
        ctx.explanations[ids[chosen]].update(
            mmr_rank=len(picked),
            redundancy=round(float(redundancy[chosen]), 6),
            mmr=round(float(gains[chosen]), 6),
        )
        redundancy = np.where(open_, np.maximum(redundancy, similar.to(chosen)), redundancy)
    return picked


class _Similarity:
    """Similarity of each candidate to one of them: the cosine of unit vectors where both have one, else
    token Jaccard (the fallback covers lexical-only search and records not embedded yet)."""

    def __init__(self, records: list[Record], model: str) -> None:
        self.records = records
        vectors = [_unit(r.embedding) if model and r.embedding_model == model else None for r in records]
        dim = next((len(v) for v in vectors if v is not None), 0)  # one model, one dimension
        self.has = np.array([v is not None and len(v) == dim for v in vectors])
        self.matrix = np.zeros((len(records), dim))
        for i, v in enumerate(vectors):
            if self.has[i]:
                self.matrix[i] = v
        self.token_sets: dict[int, frozenset[str]] = {}

    def to(self, j: int) -> np.ndarray:
        out = self.matrix @ self.matrix[j] if self.has[j] else np.zeros(len(self.records))
        lacking = np.flatnonzero(~self.has) if self.has[j] else range(len(self.records))
        for i in lacking:
            out[i] = self._jaccard(int(i), j)
        return out

    def _jaccard(self, i: int, j: int) -> float:
        a, b = self._words(i), self._words(j)
        union = len(a | b)
        return len(a & b) / union if union else 0.0

    def _words(self, i: int) -> frozenset[str]:
        if i not in self.token_sets:
            record = self.records[i]
            self.token_sets[i] = frozenset(tokens(record.text or lexical_text(record)))
        return self.token_sets[i]


def _unit(blob: bytes | None) -> np.ndarray | None:
    if not blob:
        return None
    vector = np.frombuffer(blob, dtype="<f4").astype(np.float64)
    norm = float(np.linalg.norm(vector))
    return vector / norm if norm > 0 else None
