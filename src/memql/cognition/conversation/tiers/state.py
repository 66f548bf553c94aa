"""The tiers' working state, and how it is read back from the store.

The store is the truth: every page, segment and LPM entry is a record of the conversation (tag `conv:<id>`,
facets `conversation`, `level`, `tier`, `source_ids`). Python keeps only what is bounded by the tiers'
capacities (the STM pages, the MTM segments' vectors and counters, the LPM entries) so that Fscore and heat
need no query per page; `load` rebuilds it from the records, so a restart loses nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from memql.cognition.conversation.base import Message
from memql.cognition.conversation.tiers.scoring import Vector
from memql.lang.time import format_instant, parse_instant

ACTOR = "tiers"  # the actor named in a memory's audit log when it has none of its own (see Tiers)


@dataclass
class PageState:
    """A dialogue page: an opening message and its reply (or a run of one speaker's messages)."""

    id: str
    text: str
    message_ids: tuple[str, ...]
    source_ids: tuple[str, ...]
    first: int  # position of its first message
    last: int  # position of its last message
    time: datetime  # its first message's time
    end: datetime  # its last message's time
    prev_page: str | None = None  # meta-chain: the page it continues
    vector: Vector | None = None
    keywords: tuple[str, ...] = ()


@dataclass
class SegmentState:
    """An MTM segment: a summary (sentences with the turns each came from), keywords, heat counters."""

    id: str
    parts: list[tuple[str, tuple[str, ...]]]  # the summary's sentences and each one's source turn ids
    keyword_counts: dict[str, int]
    vector: Vector | None
    created: datetime
    visits: int = 0  # N_visit: the record's `visits` (a Retrieve that returns it is a visit)
    last_access: datetime | None = None
    interactions: int = 0  # L_interaction: pages joined since its content was last promoted
    pages: int = 0  # pages it holds
    analyzed_until: int = -1  # position of the last message whose content reached LPM
    analyzed_time: datetime | None = None  # and the time of its page

    @property
    def summary(self) -> str:
        return SENTENCE_JOIN.join(sentence for sentence, _ in self.parts)

    @property
    def source_ids(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(i for _, ids in self.parts for i in ids))

    def top_keywords(self, limit: int) -> list[str]:
        return [k for k, _ in sorted(self.keyword_counts.items(), key=lambda kv: (-kv[1], kv[0]))[:limit]]

    def facets(self) -> dict[str, Any]:
        return {
            "summary_sources": [list(ids) for _, ids in self.parts],
            "source_ids": list(self.source_ids),
            "keyword_counts": self.keyword_counts,
            "interactions": self.interactions,
            "pages": self.pages,
            "analyzed_until": self.analyzed_until,
            "analyzed_time": format_instant(self.analyzed_time) if self.analyzed_time else None,
        }


@dataclass
class Entry:
    """An LPM entry: a knowledge-base sentence, the profile, or a traits record."""

    id: str
    level: str  # knowledge | profile | trait
    text: str
    source_ids: tuple[str, ...] = ()
    vector: Vector | None = None
    keywords: tuple[str, ...] = ()
    of: str = "user"  # traits: user | agent
    counts: dict[str, int] = field(default_factory=dict)  # traits: keyword counts behind the text


def instant(value: Any) -> datetime | None:
    if value is None or isinstance(value, datetime):
        return value
    return parse_instant(str(value))[0]


def page_from_row(row: dict[str, Any]) -> PageState:
    f = row["facets"]
    first, last = f.get("positions", [0, 0])
    return PageState(
        id=row["id"],
        text=row["text"] or "",
        message_ids=tuple(f.get("message_ids", ())),
        source_ids=tuple(f.get("source_ids", ())),
        first=int(first),
        last=int(last),
        time=instant(row["time"]),  # type: ignore[arg-type]
        end=instant(f.get("end")) or instant(row["time"]),  # type: ignore[arg-type]
        prev_page=f.get("prev_page"),
        keywords=tuple(row.get("keywords") or ()),
    )


def segment_from_row(row: dict[str, Any]) -> SegmentState:
    f = row["facets"]
    sentences = _split_summary(row["text"] or "", len(f.get("summary_sources", [])))
    parts = [(s, tuple(ids)) for s, ids in zip(sentences, f.get("summary_sources", []), strict=False)]
    return SegmentState(
        id=row["id"],
        parts=parts,
        keyword_counts={str(k): int(v) for k, v in (f.get("keyword_counts") or {}).items()},
        vector=None,
        created=instant(row["created_at"]),  # type: ignore[arg-type]
        visits=int(row.get("visits") or 0),
        last_access=instant(row.get("last_access_at")),
        interactions=int(f.get("interactions", 0)),
        pages=int(f.get("pages", 0)),
        analyzed_until=int(f.get("analyzed_until", -1)),
        analyzed_time=instant(f.get("analyzed_time")),
    )


SENTENCE_JOIN = "\n"  # a segment's text holds one summary sentence per line, so it splits back exactly


def _split_summary(text: str, expected: int) -> list[str]:
    lines = [line for line in text.split(SENTENCE_JOIN) if line.strip()]
    return lines if len(lines) == expected else [text] * min(1, expected)


def message_from_row(row: dict[str, Any]) -> Message:
    f = row["facets"]
    return Message(
        memory_id=row["id"],
        role=str(f.get("role", "user")),
        text=row["text"] or "",
        time=instant(row["time"]),  # type: ignore[arg-type]
        source_ids=tuple(f.get("source_ids", ())),
        position=int(f.get("position", 0)),
    )
