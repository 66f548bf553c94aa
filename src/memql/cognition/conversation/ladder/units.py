"""The ladder's units as the write path and retrieval hold them, and how they map to memql records.

Every unit is a record of the conversation (tag `conv:<id>`, facets `conversation`, `level`,
`source_ids`), written only with memql verbs. Relations live in facets so that one transaction can write
a unit without knowing ids another step of it creates: an episode lists its message records
(`message_ids`), a fact the message record it came from (`message_ids`), a theme its member facts
(`members`). `cited` is the part of `source_ids` whose text the stored summary actually shows: a summary
piece of a context cites only that.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import numpy as np

from memql.cognition.conversation.base import Message
from memql.lang import build
from memql.lang.target import MOST_READ

READ_LIMIT = MOST_READ  # the language's largest filter limit: reloads read in pages of this many


@dataclass
class FactUnit:
    id: str
    text: str
    source_ids: tuple[str, ...]
    message_ids: tuple[str, ...]
    time: datetime | None
    vector: np.ndarray


@dataclass
class EpisodeUnit:
    id: str
    text: str
    source_ids: tuple[str, ...]
    message_ids: tuple[str, ...]
    cited: tuple[str, ...]
    last_position: int
    time: datetime | None


@dataclass
class ThemeUnit:
    id: str  # a record id, or "new:<n>" before its Encode ran
    members: list[str]  # fact ids
    centroid: np.ndarray
    text: str = ""
    cited: tuple[str, ...] = ()
    time: datetime | None = None
    split_from: str | None = None


class LadderState:
    """What a ladder holds in memory. Its facts and themes (with which theme holds each fact) may be
    loaded when first asked for (`defer`): a reopened ladder that only takes messages into its open
    episode never reads them, and a server reopens a conversation on every call."""

    def __init__(self) -> None:
        self.open: list[Message] = []  # the episode being built
        self.episodes: dict[str, EpisodeUnit] = {}
        self.last_position = -1  # the last message position an episode holds
        self._facts: dict[str, FactUnit] = {}
        self._themes: dict[str, ThemeUnit] = {}
        self._fact_theme: dict[str, str] = {}  # fact id -> its theme's id
        self._load: Callable[[], None] | None = None

    def defer(self, load: Callable[[], None]) -> None:
        """`load` fills the facts and themes the first time any of them is asked for."""
        self._load = load

    def loaded(self) -> None:
        """Load what was deferred now (before a write, so that the load reads the store as it was)."""
        load, self._load = self._load, None
        if load is not None:
            load()

    @property
    def facts(self) -> dict[str, FactUnit]:
        self.loaded()
        return self._facts

    @property
    def themes(self) -> dict[str, ThemeUnit]:
        self.loaded()
        return self._themes

    @property
    def fact_theme(self) -> dict[str, str]:
        self.loaded()
        return self._fact_theme


def unit_facets(
    conversation_id: str, level: str, source_ids: tuple[str, ...] | list[str], **extra: Any
) -> dict:
    return {"conversation": conversation_id, "level": level, "source_ids": list(source_ids), **extra}


def encode_ir(
    tag: str, facets: dict, text: str, kind: str, time: datetime | None, comment: str
) -> dict[str, Any]:
    return build.encode(
        text,
        type=kind,
        tags=[tag],
        facets=facets,
        time=iso(time) if time is not None else None,
        dedupe=False,  # two facts may read alike; each is its own unit
        comment=comment,
    )


def iso(value: datetime) -> str:
    """An instant in the language's UTC form (a naive time is read as UTC, as the language does)."""
    value = value.astimezone(UTC) if value.utcoffset() is not None else value.replace(tzinfo=UTC)
    return value.strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def level_filter(tag: str, level: str) -> dict[str, Any]:
    return {"has_tags": [tag], "facets": {"level": level}}


def source_ids_of(facets: dict) -> tuple[str, ...]:
    return tuple(str(s) for s in facets.get("source_ids") or ())
