"""Every constant of the xMemory ladder (DESIGN §9). The theme thresholds are DESIGN's; the others are
memql's choices, documented in docs/ladder.md, and all of them can be changed per conversation."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta


@dataclass(frozen=True)
class LadderConfig:
    # --- episodes: a run of messages on one topic -----------------------------------------------------
    episode_shift: float = 0.25  # a message whose cosine to the open episode's centroid is below: new topic
    episode_gap: timedelta = timedelta(hours=3)  # silence longer than this (a new session) ends an episode
    min_episode_messages: int = 4  # a topic shift is only believed after this many messages
    max_episode_messages: int = 24  # an episode never grows beyond this many messages
    episode_summary_tokens: int = 60  # the stored episode text: an extractive summary this long

    # --- semantic facts: salient sentences, each citing its message -----------------------------------
    fact_min_terms: int = 3  # content keywords a sentence needs to be a fact ("Thanks!" is not one)
    facts_per_message: int = 2  # the most salient sentences kept per message

    # --- themes: clusters of facts (DESIGN §9) --------------------------------------------------------
    theme_attach: float = 0.62  # attach a fact to the nearest theme centroid at or above this cosine
    theme_max_members: int = 12  # a theme with more members is split in two
    theme_coherence: float = 0.45  # a theme of >= 4 members whose mean member-centroid cosine is below: split
    theme_merge: float = 0.78  # two themes whose centroids are this close are merged
    theme_summary_tokens: int = 48  # the stored theme text: label + extractive summary this long
    theme_label_terms: int = 4  # keywords in a theme's label

    # --- retrieval: top-down, relevance plus coverage -------------------------------------------------
    search_candidates: int = 300  # rows of the one search per query, every level together
    theme_candidates: int = 12  # the most themes considered per query
    fact_candidates: int = 80  # facts ranked per query (plus the members of the chosen themes)
    episode_candidates: int = 12
    message_candidates: int = 80
    theme_share: float = 0.1  # the most of the budget theme summaries may take
    episode_share: float = 0.15  # the most of the budget episode summaries may take
    theme_boost: float = 0.35  # a fact's score gains this times its theme's relevance
    min_relevance: float = 0.05  # candidates scoring below this share of their level's best are dropped
    coverage_penalty: float = 0.5  # a candidate whose evidence is partly covered loses this per covered share
