"""The tiers' read path (paper §3.3): all of STM, the top-m MTM segments by Fscore and their top-k pages,
the top LPM knowledge entries, the profile and traits, assembled as cited pieces within a token budget.

Segments are ranked by Fscore(query, segment) = cos + Jaccard of keywords, the paper's rule (its code
ranks by cosine alone and passes no query keywords). Pages inside the chosen segments are ranked by
memql's hybrid search (BM25 fused with the embedding). The chosen segments and knowledge entries are then
read with a real Retrieve: that is their visit (N_visit and the recency term of heat).
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from memql.cognition.conversation.base import Context, Piece
from memql.cognition.conversation.tiers.scoring import cos, fscore
from memql.cognition.conversation.tiers.state import PageState, instant
from memql.services import estimate_tokens

if TYPE_CHECKING:
    from memql.cognition.conversation.tiers.view import TiersView

PAGE_POOL = 4  # candidate pages fetched per page wanted (restricted to the chosen segments afterwards)


def cite(source_ids, memory_ids) -> str:
    ids = list(source_ids) or [f"#{i}" for i in memory_ids]
    return ", ".join(ids)


def when(t: datetime | None) -> str:
    return f"{t.day} {t:%b %Y}" if t is not None else ""


def page_piece(text: str, sources, memory_ids, t: datetime | None, level: str, score: float) -> Piece:
    body = text.replace("\n", " / ")
    return Piece(
        f"[{cite(sources, memory_ids)} · {when(t)}] {body}",
        tuple(memory_ids),
        tuple(sources),
        level,
        score,
        t,
    )


def assemble(tiers: TiersView, query: str, budget: int) -> Context:
    cfg, r = tiers.config, tiers.records
    q_vec = tiers.vectorizer.vector(query)
    q_words = tiers.vectorizer.keywords(query, cfg.segment_keywords)
    # MTM: top-m segments by Fscore, then their best pages
    ranked = sorted(
        tiers.segments.items(),
        key=lambda kv: -fscore(q_vec, q_words, kv[1].vector, kv[1].top_keywords(cfg.segment_keywords)),
    )[: cfg.top_m_segments]
    chosen_keys = {key for key, _ in ranked}
    pool = r.search(query, r.facets("page", "mtm"), PAGE_POOL * cfg.top_k_pages * max(1, cfg.top_m_segments))
    in_segments = [row for row in pool if row["facets"].get("segment") in chosen_keys]
    pages = in_segments[: cfg.top_k_pages]
    extra = [row for row in pool if row not in pages] if cfg.fill_budget else []
    # LPM
    knowledge = sorted(
        (e for e in tiers.lpm.values() if e.level == "knowledge" and e.vector is not None),
        key=lambda e: (
            -(
                cos(q_vec, e.vector)
                + len(set(q_words) & set(e.keywords)) / max(1, len(set(q_words) | set(e.keywords)))
            )
        ),  # type: ignore[arg-type]
    )[: cfg.top_knowledge]
    profile = [e for e in tiers.lpm.values() if e.level == "profile"]
    traits = [e for e in tiers.lpm.values() if e.level == "trait"]

    def row_piece(row, level="page") -> Piece:
        f = row["facets"]
        return page_piece(
            row["text"] or "",
            f.get("source_ids", []),
            f.get("message_ids", [row["id"]]),
            instant(row["time"]),
            level,
            float(row.get("score") or 0.0),
        )

    def stm_piece(p: PageState) -> Piece:
        return page_piece(p.text, p.source_ids, p.message_ids, p.time, "page", 0.0)

    # priority: what the paper always includes first (profile, STM), then retrieved evidence
    candidates: list[tuple[int, Piece]] = []  # (reading order group, piece)
    for e in profile:
        candidates.append((0, Piece(f"[profile] {e.text}", (e.id,), e.source_ids, "profile")))
    candidates.extend((4, stm_piece(p)) for p in tiers.stm)
    candidates.extend((3, row_piece(row)) for row in pages)
    for e in knowledge:
        candidates.append(
            (1, Piece(f"[{cite(e.source_ids, [e.id])}] {e.text}", (e.id,), e.source_ids, "knowledge"))
        )
    for e in traits:
        candidates.append((0, Piece(f"[{e.of} traits] {e.text.partition(': ')[2]}", (e.id,), (), "trait")))
    for _key, seg in ranked:
        text = seg.summary.replace("\n", " ")
        candidates.append(
            (
                2,
                Piece(
                    f"[segment: {cite(seg.source_ids[:6], [seg.id])}] {text}",
                    (seg.id,),
                    seg.source_ids,
                    "segment",
                ),
            )
        )
    candidates.extend((3, row_piece(row)) for row in extra)
    kept: list[tuple[int, int, Piece]] = []
    used = 0
    for order, (group, piece) in enumerate(candidates):
        cost = estimate_tokens(piece.text) + 1  # + the newline that joins pieces (an upper bound)
        if used + cost <= budget:
            kept.append((group, order, piece))
            used += cost
    kept.sort(key=_reading_order)
    context = Context(query, tiers.name, budget, [p for _, _, p in kept])
    while context.tokens > budget:  # the per-piece sum bounds the total in practice; be exact anyway
        lowest = max(range(len(kept)), key=lambda i: kept[i][1])  # drop the least important piece
        kept.pop(lowest)
        context.pieces = [p for _, _, p in kept]
    used_ids = [tiers.segment_ids[k] for k, _ in ranked] + [
        e.id for e in knowledge if any(e.id in p.memory_ids for p in context.pieces)
    ]
    r.visit(used_ids)
    for _, seg in ranked:
        seg.visits += 1
        seg.last_access = tiers.now()
    return context


def _reading_order(item: tuple[int, int, Piece]) -> tuple[int, float, int]:
    """Persona, knowledge and segments first (in priority order), then every page in time order."""
    group, order, piece = item
    if group < 3:
        return (group, 0.0, order)
    return (3, piece.time.timestamp() if piece.time else 0.0, order)
