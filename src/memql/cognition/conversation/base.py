"""The contract shared by conversation memory's strategies (flat, tiers, ladder, hybrid).

A conversation's messages are stored as memql records (one Encode each) by `Conversation`; a strategy
observes each stored message on the write path (and may build its own structure with memql verbs: pages,
segments, episodes, facts, themes) and, on the read path, assembles a context for a query within a token
budget. Every piece of a context cites the memory ids it was built from and the source turn ids those
memories came from (LoCoMo `dia_id`s), so a context can be scored against evidence.

Tokens are counted with `memql.services.summarize.estimate_tokens` (deterministic; no tokenizer download),
on the rendered text of each piece, citations included: what the budget bounds is what a model would read.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol

from memql.lang.diagnostics import Diagnostic
from memql.services.summarize import estimate_tokens


@dataclass(frozen=True)
class Message:
    """One stored conversation message."""

    memory_id: str  # the record that holds it
    role: str  # "user", "assistant", or a speaker's name for streams that are not strict pairs
    text: str
    time: datetime
    source_ids: tuple[str, ...] = ()  # the turn ids it came from (e.g. LoCoMo dia_ids)
    position: int = 0  # 0-based order within the conversation
    fact_ids: tuple[str, ...] = ()  # the typed facts formed from it (with an extractor)
    # why facts it states were not formed: a fact the session may not change (another's, or locked)
    unformed: tuple[Diagnostic, ...] = ()


@dataclass(frozen=True)
class Piece:
    """One cited piece of an assembled context."""

    text: str  # rendered text, as it appears in the context (citations included)
    memory_ids: tuple[str, ...]
    source_ids: tuple[str, ...]
    level: str  # what it is: "message", "page", "segment", "episode", "fact", "theme", "profile", ...
    score: float = 0.0
    time: datetime | None = None

    @property
    def tokens(self) -> int:
        return estimate_tokens(self.text)


@dataclass
class Context:
    """An assembled context: its pieces in reading order, and what it cost."""

    query: str
    strategy: str
    budget_tokens: int
    pieces: list[Piece] = field(default_factory=list)
    llm_calls: int = 0  # LLM calls made on the read path for this context

    @property
    def tokens(self) -> int:
        return estimate_tokens(self.text)

    @property
    def text(self) -> str:
        return "\n".join(piece.text for piece in self.pieces)

    @property
    def memory_ids(self) -> list[str]:
        return list(dict.fromkeys(i for piece in self.pieces for i in piece.memory_ids))

    @property
    def source_ids(self) -> list[str]:
        return list(dict.fromkeys(i for piece in self.pieces for i in piece.source_ids))


class Strategy(Protocol):
    """A way of remembering a conversation and of assembling context from it."""

    name: str

    def observe(self, message: Message) -> None:
        """Called once per stored message, in order (the write path)."""
        ...

    def context(self, query: str, budget_tokens: int) -> Context:
        """The most useful cited context for `query` whose `tokens` is at most `budget_tokens`."""
        ...
