"""The flat strategy: the conversation's own messages, retrieved for the query and packed under a budget.

One Retrieve (hybrid BM25 + dense, docs/engine.md) over the conversation's message records, deep enough
to fill the budget; each hit may bring the message before it (what a reply answers: "Yes, last week!"
means little without the question); the pieces are packed best first and read in time order, each day
once (memql.cognition.conversation.assemble). It builds nothing on the write path.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from memql.cognition.conversation.assemble import MessagePiece, assemble, message_text
from memql.cognition.conversation.base import Context, Message, Piece
from memql.cognition.conversation.records import (
    ROW_FIELDS,
    conversation_filter,
    message_row_text,
    read_rows,
    with_resolved_days,
)
from memql.lang import build
from memql.ports.models import LLM

if TYPE_CHECKING:
    from memql.engine.executor import Executor

# a message's row with its payload's context: the message before it, what a reply answered (MessagePiece)
_ROW_FIELDS = [*ROW_FIELDS, "payload_meta"]


@dataclass(frozen=True)
class FlatConfig:
    """Constants of the flat strategy (the defaults are the measured ones, docs/conversation.md)."""

    neighbours: int = 1  # messages before a hit that come with it (0: none)
    neighbour_discount: float = 0.5  # a neighbour's score, as a share of its hit's (for hybrid merging)
    tokens_per_candidate: int = 10  # retrieval depth = budget / this: a larger budget looks deeper
    min_candidates: int = 10
    max_candidates: int = 2000
    alpha: float | None = None  # dense vs lexical balance (None: the engine's default)
    mmr: float | None = None  # diversity (None: off)

    def __post_init__(self) -> None:
        if self.neighbours < 0:
            raise ValueError("FlatConfig.neighbours must be 0 or more")
        if self.tokens_per_candidate < 1 or self.min_candidates < 1:
            raise ValueError("FlatConfig.tokens_per_candidate and min_candidates must be positive")
        if self.max_candidates < self.min_candidates or self.max_candidates > 10_000:
            raise ValueError("FlatConfig.max_candidates must be between min_candidates and 10000")


class Flat:
    """Retrieve the conversation's messages for the query; pack the best, with their neighbours."""

    name = "flat"

    def __init__(
        self,
        executor: Executor,
        conversation_id: str,
        config: FlatConfig | None = None,
        llm: LLM | None = None,
    ) -> None:
        self.executor, self.conversation_id = executor, conversation_id
        self.config = config or FlatConfig()

    def observe(self, message: Message) -> None:
        """Nothing to build: the message records are what flat reads."""

    def context(self, query: str, budget_tokens: int) -> Context:
        pieces = assemble(self.candidates(query, budget_tokens), budget_tokens)
        return Context(query, self.name, budget_tokens, pieces)

    def candidates(self, query: str, budget_tokens: int) -> list[Piece]:
        """Message pieces best first, each hit followed by its neighbours (undated: see assemble)."""
        if not query.strip() or budget_tokens <= 0:
            return []
        c = self.config
        k = min(c.max_candidates, max(c.min_candidates, budget_tokens // c.tokens_per_candidate))
        overrides = {name: value for name, value in (("alpha", c.alpha), ("mmr", c.mmr)) if value is not None}
        rows = read_rows(
            self.executor,
            build.by_search(
                query,
                k=k,
                overrides=overrides,
                limit=k,
                filter=conversation_filter(self.conversation_id, "message"),
            ),
            _ROW_FIELDS,
        )
        hits = [(row, float(row.get("score") or 0.0)) for row in rows]
        before = self._neighbours(hits, budget_tokens)
        ranked: list[Piece] = []
        for row, score in hits:
            ranked.append(_piece(row, score))
            for neighbour in before.get(row["id"], []):
                ranked.append(_piece(neighbour, score * c.neighbour_discount, anchor=row["id"]))
        return ranked

    def _neighbours(self, hits: list[tuple[dict, float]], budget_tokens: int) -> dict[str, list[dict]]:
        """hit id -> the messages before it (nearest first), for the hits that could fit the budget: one
        Retrieve by ids per step back."""
        if not self.config.neighbours or not hits:
            return {}
        known = {row["id"]: row for row, _ in hits}
        reach: list[str] = []  # the hits packing can reach (a rough cut: the budget, pieces at face value)
        used = 0
        for row, _ in hits:
            if used > budget_tokens:
                break
            reach.append(row["id"])
            used += len(str(row.get("text", ""))) // 4 + 6
        out: dict[str, list[dict]] = {hit: [] for hit in reach}
        frontier = {hit: known[hit] for hit in reach}
        for _step in range(self.config.neighbours):
            wanted = {
                hit: str(prev) for hit, row in frontier.items() if (prev := row["facets"].get("previous"))
            }
            for hit, row in frontier.items():  # a turn's reply, stored with its question: by position
                position = int(row["facets"].get("position") or 0)
                if hit not in wanted and position > 0:
                    found = self._at_position(position - 1)
                    if found is not None:
                        known[found["id"]], wanted[hit] = found, found["id"]
            missing = sorted({p for p in wanted.values() if p not in known})
            if missing:
                for row in read_rows(self.executor, build.by_ids(missing), _ROW_FIELDS):
                    if row["facets"].get("conversation") == self.conversation_id:
                        known[row["id"]] = row
            frontier = {hit: known[p] for hit, p in wanted.items() if p in known}
            for hit, row in frontier.items():
                out[hit].append(row)
        return out

    def _at_position(self, position: int) -> dict | None:
        where = conversation_filter(self.conversation_id, "message")
        where["facets"]["position"] = position
        rows = read_rows(self.executor, {"filter": {**where, "limit": 1}}, _ROW_FIELDS)
        return rows[0] if rows else None


def _piece(row: dict, score: float, anchor: str | None = None) -> Piece:
    facets = row.get("facets") or {}
    source_ids = tuple(str(s) for s in facets.get("source_ids") or ())
    speaker = str(facets.get("speaker") or facets.get("role") or "")
    text = with_resolved_days(message_row_text(row), facets)
    return MessagePiece(
        text=message_text(source_ids, (row["id"],), speaker, text),
        memory_ids=(row["id"],),
        source_ids=source_ids,
        level="message",
        score=score,
        time=row.get("time"),
        position=int(facets.get("position") or 0),
        anchor=anchor or "",
        replied=str((row.get("payload_meta") or {}).get("context") or ""),
    )
