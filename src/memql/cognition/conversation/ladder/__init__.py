"""The xMemory ladder (DESIGN §9): messages -> episodes -> semantic facts -> themes, retrieved top-down.

    ladder = Ladder(executor, "mira/assistant")  # a session's Executor (Memory.executor)
    ladder.observe(message)            # for each stored message, in order (the write path)
    ladder.flush()                     # close the open episode (end of a session, before a restart)
    ladder.context("query", 2000)      # cited pieces within 2,000 tokens

Every unit is a record of the conversation written with memql verbs (see writer.py), so the hierarchy
shows in `memql history` and survives a restart: a new `Ladder` on the same store reloads it from the
conversation's records, rebuilds the open episode from the messages no episode holds yet, and places any
fact no theme holds (a write interrupted between its two transactions). docs/ladder.md has the details.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from memql.cognition.conversation.base import Context, Message
from memql.lang import build
from memql.ports.models import LLM

from .config import LadderConfig
from .reader import LadderReader
from .units import (
    READ_LIMIT,
    EpisodeUnit,
    FactUnit,
    LadderState,
    ThemeUnit,
    iso,
    level_filter,
    source_ids_of,
)
from .vectors import Vectors, centroid
from .writer import LadderWriteError, LadderWriter

if TYPE_CHECKING:
    from memql.engine.executor import Executor

__all__ = ["Ladder", "LadderConfig", "LadderWriteError"]


class Ladder:
    """The Strategy of the xMemory ladder for one conversation."""

    name = "ladder"

    def __init__(
        self,
        executor: Executor,
        conversation_id: str,
        config: LadderConfig | None = None,
        llm: LLM | None = None,
    ) -> None:
        self.executor, self.conversation_id = executor, conversation_id
        self.config = config or LadderConfig()
        self.llm = llm
        self.vectors = Vectors(executor.embedder)
        self.state = LadderState()
        self.writer = LadderWriter(executor, conversation_id, self.state, self.config, self.vectors, llm)
        self.reader = LadderReader(executor, conversation_id, self.state, self.config)
        self._reload()

    @property
    def llm_calls(self) -> int:
        """LLM calls made so far by the model this ladder was given (0 offline)."""
        return self.llm.usage.calls if self.llm is not None else 0

    def observe(self, message: Message) -> None:
        self.reader.invalidate()  # a new message is a candidate at once, before its episode closes
        self.writer.observe(message)

    def flush(self) -> None:
        """Close the open episode now (its messages stay retrievable as messages either way)."""
        self.reader.invalidate()
        self.writer.segment(close_all=True)

    def context(self, query: str, budget_tokens: int) -> Context:
        return self.reader.context(query, budget_tokens)

    # --- restart ------------------------------------------------------------------------------------

    def _reload(self) -> None:
        """Restart from the store: the episodes and the open messages now; the facts and themes when first
        asked for (LadderState.defer), as a write or a context needs them."""
        tag, state = f"conv:{self.conversation_id}", self.state
        for row in self._rows(tag, "episode"):
            facets = row["facets"]
            position = int(facets.get("last_position", -1))
            state.episodes[row["id"]] = EpisodeUnit(
                row["id"],
                row["text"],
                source_ids_of(facets),
                tuple(facets.get("message_ids") or ()),
                tuple(facets.get("cited") or ()),
                position,
                row["time"],
            )
            state.last_position = max(state.last_position, position)
        # only the messages after the last episode's are open: read those, not the whole conversation
        after = {"position": {"$gt": state.last_position}}
        for row in sorted(
            self._rows(tag, "message", after), key=lambda r: int(r["facets"].get("position", 0))
        ):
            message = message_of(row)
            if message.position > state.last_position:
                state.open.append(message)
        state.defer(self._reload_upper)

    def _reload_upper(self) -> None:
        """The facts and themes of a restarted ladder; facts left without a theme (an interrupted write)
        are placed now."""
        tag, state = f"conv:{self.conversation_id}", self.state
        fact_rows = self._rows(tag, "fact")
        vectors = self.vectors.embed([row["text"] for row in fact_rows]) if fact_rows else []
        for row, vector in zip(fact_rows, vectors, strict=True):
            facets = row["facets"]
            state.facts[row["id"]] = FactUnit(
                row["id"],
                row["text"],
                source_ids_of(facets),
                tuple(facets.get("message_ids") or ()),
                row["time"],
                vector,
            )
        for row in self._rows(tag, "theme"):
            members = [m for m in row["facets"].get("members") or () if m in state.facts]
            if not members:
                continue
            state.themes[row["id"]] = ThemeUnit(
                row["id"],
                members,
                centroid(self.vectors.embed([state.facts[m].text for m in members])),
                row["text"],
                tuple(row["facets"].get("cited") or ()),
                row["time"],
                row["facets"].get("split_from"),
            )
            for member in members:
                state.fact_theme[member] = row["id"]
        unplaced = [f for f in state.facts if f not in state.fact_theme]
        if unplaced:
            self.writer.place(unplaced)

    def _rows(self, tag: str, level: str, facets_where: dict | None = None) -> list[dict]:
        """Every active record of the conversation at `level` (whose facets meet `facets_where`), in pages
        of the language's read limit (filter reads come newest first; the next page ends at the oldest
        instant seen, inclusive). A dry run: reloading is no visit to what it reads."""
        rows: dict[str, dict] = {}
        end = None
        while True:
            where = {**level_filter(tag, level), "limit": READ_LIMIT}
            if facets_where is not None:
                where["facets_where"] = facets_where
            if end is not None:
                where["time_range"] = {"start": "1970-01-01T00:00:00Z", "end": iso(end)}
            result = self.executor.execute(
                build.retrieve(filter=where, include=["id", "text", "facets", "time"], meta={"dry_run": True})
            )
            if not result.success:
                reasons = "; ".join(f"{d.rule}: {d.message}" for d in result.diagnostics)
                raise LadderWriteError(f"ladder reload: reading the {level} records failed: {reasons}")
            page = result.data.get("rows", [])
            fresh = [row for row in page if row["id"] not in rows]
            rows.update((row["id"], row) for row in fresh)
            if len(page) < READ_LIMIT or not fresh:
                return list(rows.values())
            end = min(row["time"] for row in page)


def message_of(row: dict) -> Message:
    """A stored message record as the Message the write path observed."""
    facets = row["facets"]
    return Message(
        memory_id=row["id"],
        role=str(facets.get("role") or ""),
        text=row["text"],
        time=row["time"],
        source_ids=source_ids_of(facets),
        position=int(facets.get("position", 0)),
    )
