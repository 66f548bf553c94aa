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
from typing import Any

import numpy as np

from memql.engine.context import Context
from memql.index.text import lexical_text
from memql.lang.target import Search
from memql.ports.record import Record
from memql.ports.store import Candidate, RecordQuery, amended, epoch_us
from memql.services.tokenize import tokens

DEFAULT_ALPHA = 0.5
POOL = 5  # candidates per side: POOL x the result count (at least 50)
_DAY = timedelta(days=1)
_US_PER_DAY = 86_400_000_000  # _DAY in microseconds: int / int divides as timedelta / timedelta does


def search(
    ctx: Context, spec: Search, q: RecordQuery, count: int, as_of: datetime | None
) -> list[tuple[Record, float | None]]:
    """The `count` best records for the search within q's conditions, best first (or in order_by).

    Both sides answer with candidates (memql.ports.store.Candidate: a score and what shapes it), and only
    the chosen records are read whole: a hybrid search ranks two lists of max(50, POOL x count) candidates
    to return `count` records."""
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
    records: dict[str, Record] = {}  # records already read whole (a point-in-time read's)
    lexical: list[Candidate] = []
    if alpha != 1.0:
        lexical_q = amended(q, text_query=spec.intent.query, order="relevance", limit=pool, as_of=as_of)
        if as_of is None:
            ahead = getattr(ctx.session, "dense_ahead", None) if vector is not None else None
            if ahead is not None:  # (memql.ports.store.SearchAhead) the dense side's index lookup, meanwhile
                ahead(ctx.tenant, vector, pool, model)
            lexical = ctx.session.find_candidates(ctx.tenant, lexical_q)
        else:  # the records as they were: rebuilt from the audit log, not read again by id
            found = ctx.session.find(ctx.tenant, lexical_q)
            records = {r.id: r for r, _ in found}  # type: ignore[misc]
            lexical = [Candidate.of(r, s) for r, s in found]
    # overrides.score "cosine" (validated dense only): the raw cosine, negative ones too, unshaped
    cosine = vector is not None and overrides is not None and overrides.score == "cosine"
    dense_q = amended(q, text_query=None, limit=None)
    dense = (
        []
        if vector is None
        else ctx.session.dense_candidates(ctx.tenant, vector, dense_q, pool, model, signed=cosine)
    )
    fused = _fuse(lexical, dense, alpha)
    if cosine:
        for entry in fused.values():
            score = entry[_CANDIDATE].score
            entry[_DENSE] = entry[_FUSED] = score
            entry += (None, 1.0, 1.0, score)  # unshaped: no age, recency and heat factors of 1
        shaped = fused
    else:
        shaped = _shape(ctx, spec, fused, as_of or ctx.now)
    if overrides is not None and overrides.min_score is not None:
        shaped = {rid: s for rid, s in shaped.items() if s[_SCORE] >= overrides.min_score}
    # best score first, then the newest record; the position breaks what ties remain, as a stable sort
    ranked = sorted(
        (-entry[_SCORE], -int(rid) if rid.isdigit() else 0, i, rid)
        for i, (rid, entry) in enumerate(shaped.items())
    )
    chosen = [rid for *_, rid in ranked[:window]]
    if ctx.explain:  # only a Retrieve that shows `explain` reads them (building one cost more than ranking)
        for rid in chosen:
            ctx.explanations[rid] = _explain(shaped[rid], alpha)
    missing = [rid for rid in chosen if rid not in records]
    if missing:  # the chosen candidates, read in the same transaction that ranked them
        narrow = getattr(ctx.session, "get_fields", None) if ctx.read_fields is not None else None
        if narrow is not None and mmr is None and order == "relevance":  # (MMR, order_by: whole records)
            records.update(narrow(ctx.tenant, missing, ctx.read_fields))
        else:
            records.update(ctx.session.get(ctx.tenant, missing))
    chosen = [rid for rid in chosen if rid in records]
    if mmr is None:
        best = chosen[:count]
    else:
        scores = {rid: shaped[rid][_SCORE] for rid in chosen}
        best = diversify(ctx, [records[rid] for rid in chosen], scores, count, mmr, model)
    hits: list[tuple[Record, float | None]] = [(records[rid], shaped[rid][_SCORE]) for rid in best]
    if cosine and len(hits) < count:  # every record matches: those without a vector follow, unscored
        rest = replace(q, text_query=None, limit=count - len(hits) + len(shaped), order="created_asc")
        unscored = [r for r, _ in ctx.session.find(ctx.tenant, rest) if r.id not in shaped]
        hits += [(r, None) for r in unscored[: count - len(hits)]]
    if order != "relevance":
        key = {
            "time_desc": lambda h: -(h[0].time or h[0].created_at).timestamp(),
            "time_asc": lambda h: (h[0].time or h[0].created_at).timestamp(),
            "weight_desc": lambda h: -h[0].weight,
        }[order]
        hits.sort(key=key)
    return hits


# One candidate's evidence and score, a list kept as numbers until the search knows which are returned
# (only those are explained: rounding every candidate's parts cost more than ranking them). A list, not an
# object: a search builds one per candidate, and setting a dozen attributes cost more than fusing them.
# _fuse fills the first eight places (a side's rank and raw score are None when it did not find the
# candidate), _shape (or the raw-cosine path) appends the last four.
_CANDIDATE, _LEXICAL_RANK, _BM25, _DENSE_RANK, _COSINE, _LEXICAL, _DENSE, _FUSED = range(8)
_AGE, _RECENCY, _HEAT, _SCORE = range(8, 12)
Scored = list  # the twelve places above, in that order


def _explain(entry: Scored, alpha: float) -> dict[str, Any]:
    """The score's account (Retrieve's `explain`): each side's rank and raw score, the normalised parts,
    so that fused = (1 - alpha) * lexical + alpha * dense can be checked, and the shaping."""
    out: dict[str, Any] = {"alpha": alpha}
    if entry[_LEXICAL_RANK] is not None:
        out["lexical_rank"], out["bm25"] = entry[_LEXICAL_RANK], _sig(entry[_BM25])
    if entry[_DENSE_RANK] is not None:
        out["dense_rank"], out["cosine"] = entry[_DENSE_RANK], _sig(entry[_COSINE])
    c, age = entry[_CANDIDATE], entry[_AGE]
    out.update(
        lexical=round(entry[_LEXICAL], 6),
        dense=round(entry[_DENSE], 6),
        fused=round(entry[_FUSED], 6),
        weight=c.weight,
        recency=round(entry[_RECENCY], 6),
        age_days=None if age is None else round(age, 3),
        heat=round(entry[_HEAT], 6),
        visits=c.visits,
        score=round(entry[_SCORE], 6),
    )
    return out


def _fuse(lexical: list[Candidate], dense: list[Candidate], alpha: float) -> dict[str, Scored]:
    """A convex combination of the two sides' evidence, each on [0, 1]: BM25 divided by the best BM25 of
    the query, and the cosine itself, an absolute scale. (Min-max scaling over the candidates stretched any
    spread of cosines to 0..1, so a record whose cosine was barely below the others' lost all dense credit
    and tied a record with no lexical match at all.) The store returns only positive cosines."""
    scored: dict[str, Scored] = {}
    best_bm25 = max([c.score for c in lexical], default=0.0)
    lexical_share = 1.0 - alpha
    no_dense = alpha * 0.0  # a lexical candidate's dense part, unless it has one
    for rank, c in enumerate(lexical, start=1):
        part = c.score / best_bm25 if best_bm25 > 0 else 0.0
        scored[c.id] = [c, rank, c.score, None, None, part, 0.0, lexical_share * part + no_dense]
    for rank, c in enumerate(dense, start=1):
        dense_part = min(1.0, max(0.0, c.score))
        entry = scored.get(c.id)
        if entry is None:
            scored[c.id] = [
                c,
                None,
                None,
                rank,
                c.score,
                0.0,
                dense_part,
                lexical_share * 0.0 + alpha * dense_part,
            ]
        else:
            entry[_CANDIDATE], entry[_DENSE_RANK], entry[_COSINE], entry[_DENSE] = (
                c,
                rank,
                c.score,
                dense_part,
            )
            entry[_FUSED] = lexical_share * entry[_LEXICAL] + alpha * dense_part
    return scored


def _shape(ctx: Context, spec: Search, scored: dict[str, Scored], now: datetime) -> dict[str, Scored]:
    """fused x weight x recency x heat factors (ages in days from the candidates' microseconds: the same
    quotient as timedelta division, without a datetime per candidate; the heat written out in the loop,
    which runs for every candidate)."""
    config, overrides = ctx.config, spec.overrides
    recency = overrides.recency if overrides and overrides.recency is not None else config.recency_shaping
    heat = overrides.heat if overrides and overrides.heat is not None else config.heat_shaping
    recency_days = config.recency_half_life / _DAY
    heat_days, half_visits, weight_shaping = (
        config.heat_half_life / _DAY,
        config.heat_visits,
        config.weight_shaping,
    )
    now_us: int = epoch_us(now)  # type: ignore[assignment]
    for entry in scored.values():
        c = entry[_CANDIDATE]
        weight_factor = 1.0 + weight_shaping * (c.weight - 0.5)
        at = c.at_us
        if at is None:
            age, freshness = None, 0.0
        else:
            age = max(0.0, (now_us - at) / _US_PER_DAY)  # a future event counts as now
            freshness = 0.5 ** (age / recency_days)
        recency_factor = 1.0 + recency * freshness
        visits, last = c.visits, c.last_access_us
        if visits <= 0 or last is None:
            hot = 0.0
        else:
            since = max(0.0, (now_us - last) / _US_PER_DAY)
            hot = visits / (visits + half_visits) * 0.5 ** (since / heat_days)
        heat_factor = 1.0 + heat * hot
        entry += (
            age,
            recency_factor,
            heat_factor,
            entry[_FUSED] * weight_factor * recency_factor * heat_factor,
        )
    return scored


def _sig(value: float | None) -> float | None:
    """Six significant digits: BM25 scores over a handful of records are tiny, and rounding to six
    decimals would show them all as 1e-06."""
    return None if value is None else float(f"{float(value):.6g}")


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
        if ctx.explain:
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
