"""What the LPM and retrieval steps read and change of a Tiers strategy: a protocol, so that they and
`Tiers` (core.py), which calls them, do not import each other."""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

from memql.cognition.conversation.tiers.config import TiersConfig
from memql.cognition.conversation.tiers.llm import TiersLLM
from memql.cognition.conversation.tiers.records import TierRecords
from memql.cognition.conversation.tiers.scoring import Vectorizer
from memql.cognition.conversation.tiers.state import Entry, PageState, SegmentState


class TiersView(Protocol):
    name: str
    config: TiersConfig
    records: TierRecords
    vectorizer: Vectorizer
    llm: TiersLLM | None
    stm: list[PageState]
    segments: dict[str, SegmentState]  # by segment key
    segment_ids: dict[str, str]  # segment key -> record id
    lpm: dict[str, Entry]  # LPM entries by record id

    def now(self) -> datetime: ...
