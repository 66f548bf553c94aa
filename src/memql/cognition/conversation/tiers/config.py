"""TiersConfig: every constant of the MemoryOS tiers, with the paper's values as defaults (DESIGN §9).

Kang et al. 2025, "Memory OS of AI Agent". Where the published code (BAI-LAB/MemoryOS) uses other values,
the paper wins here; docs/tiers.md lists each difference and the choice made.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any


@dataclass(frozen=True)
class TiersConfig:
    # short-term memory (STM): a FIFO of dialogue pages
    stm_capacity: int = 7  # pages (paper: 7; code: 10)
    max_page_messages: int = 8  # a page closes after this many messages even without a reply (memql)
    # meta-chain (offline rule): a page continues the previous one when it follows it within
    # `chain_max_gap_s` and their Fscore reaches `chain_threshold`
    chain_threshold: float = 0.35
    chain_max_gap_s: float = 3600.0
    # mid-term memory (MTM): segments of pages
    mtm_capacity: int = 200  # segments (paper: 200; code: 2000)
    fscore_threshold: float = 0.6  # θ: a page joins the best segment when cos + Jaccard >= θ
    segment_summary_tokens: int = 120  # extractive summary size of a segment (offline)
    segment_keywords: int = 10  # keywords of a segment used in the Jaccard term
    # heat = alpha * N_visit + beta * L_interaction + gamma * exp(-Δt / mu)
    alpha: float = 1.0
    beta: float = 1.0
    gamma: float = 1.0
    mu_s: float = 1e7  # seconds (paper: 1e7 s; code: 24 h)
    # long-term persona memory (LPM)
    heat_threshold: float = 5.0  # τ: a segment hotter than this is promoted into LPM
    kb_capacity: int = 100  # user knowledge base entries (oldest dropped first)
    knowledge_per_promotion: int = 5  # at most this many entries extracted per promotion (offline)
    profile_tokens: int = 120
    traits: int = 12  # keywords kept per traits record
    # retrieval
    top_m_segments: int = 5
    top_k_pages: int = 10
    top_knowledge: int = 10
    # memql extension, off by default (paper behaviour): after the paper's selection, keep adding the next
    # best MTM pages while the token budget allows
    fill_budget: bool = False

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, bool):
                continue
            if not isinstance(value, int | float) or value < 0:
                raise ValueError(f"TiersConfig.{f.name} must be a non-negative number, got {value!r}")
        for name in ("stm_capacity", "mtm_capacity", "max_page_messages", "top_k_pages", "mu_s"):
            if getattr(self, name) <= 0:
                raise ValueError(f"TiersConfig.{name} must be positive, got {getattr(self, name)!r}")

    @classmethod
    def from_dict(cls, values: dict[str, Any]) -> TiersConfig:
        """A config from plain values; an unknown key is refused by name (a typo must not be ignored)."""
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(values) - known)
        if unknown:
            raise ValueError(f"unknown TiersConfig field(s): {', '.join(unknown)}")
        return cls(**values)
