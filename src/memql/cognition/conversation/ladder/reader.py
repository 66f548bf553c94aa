"""Top-down retrieval (xMemory): themes -> facts -> episodes -> raw messages, under a token budget.

The conversation is ranked for the query by one search of the engine's own (Retrieve: BM25 fused with
embedding similarity, scoped to the conversation's tag; one query embedding), and its rows are grouped by
their `level` facet; a unit's relevance is its score as a share of its level's best. Then the context
is filled coarse to fine:

1. themes, up to `theme_share` of the budget: a theme's summary, citing the turns it shows;
2. facts: the ranked facts plus every fact of the chosen themes, scored by their own relevance plus
   `theme_boost` x their theme's relevance (the theme vouches for members the query words miss);
3. episodes, up to `episode_share`: an episode's summary;
4. raw messages, with whatever budget is left.

Within a level, candidates are taken best first by relevance plus coverage: a candidate whose turns are
all already cited adds no evidence and is skipped; one whose turns are partly cited loses
`coverage_penalty` per covered share before the order is decided (MMR-like). A finer level is only
expanded into while it still adds evidence — new source turns — and fits the budget. Pieces are read
themes first, then in conversation order, so the reader sees a timeline.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from memql.cognition.conversation.base import Context, Piece
from memql.errors import MemqlError
from memql.lang import build
from memql.services.summarize import estimate_tokens

from .config import LadderConfig
from .units import LadderState, source_ids_of

if TYPE_CHECKING:
    from memql.engine.executor import Executor

INCLUDE = ["id", "text", "facets", "time", "score"]


class LadderReadError(MemqlError, RuntimeError):
    """The engine refused the ladder's search; the message names the rule ids."""


@dataclass
class Candidate:
    level: str
    memory_id: str
    text: str  # rendered, citations included
    sources: tuple[str, ...]
    score: float
    time: datetime | None

    @property
    def tokens(self) -> int:
        return estimate_tokens(self.text)


class LadderReader:
    def __init__(
        self, executor: Executor, conversation_id: str, state: LadderState, config: LadderConfig
    ) -> None:
        self.executor, self.state, self.config = executor, state, config
        self.tag = f"conv:{conversation_id}"
        # the rankings of the last query: asking it again at another budget searches once; any change
        # to the ladder's units (`invalidate`, called by the write path) forgets them
        self._last: tuple[str, dict[str, list[dict[str, Any]]]] | None = None

    def invalidate(self) -> None:
        self._last = None

    def context(self, query: str, budget_tokens: int) -> Context:
        context = Context(query=query, strategy="ladder", budget_tokens=budget_tokens)
        if budget_tokens <= 0 or not query.strip():
            return context
        config = self.config
        themes = self._rank("theme", query, config.theme_candidates)
        theme_rel = {row["id"]: rel for row, rel in themes}
        chosen: list[Candidate] = []
        covered: set[str] = set()
        used = 0

        def fill(candidates: list[Candidate], cap: int) -> None:
            nonlocal used
            spent = 0
            pool = [c for c in candidates if c.sources]
            while pool:
                best = max(pool, key=lambda c: (self._gain(c, covered), -c.tokens))
                pool.remove(best)
                if not set(best.sources) - covered or self._gain(best, covered) <= 0:
                    continue
                cost = best.tokens
                if used + cost > budget_tokens or spent + cost > cap:
                    continue
                chosen.append(best)
                covered.update(best.sources)
                used += cost
                spent += cost

        fill([self._theme(row, rel) for row, rel in themes], int(budget_tokens * config.theme_share))
        fill(self._facts(query, theme_rel), budget_tokens)
        episodes = self._rank("episode", query, config.episode_candidates)
        fill([self._episode(row, rel) for row, rel in episodes], int(budget_tokens * config.episode_share))
        messages = self._rank("message", query, config.message_candidates)
        fill([self._message(row, rel) for row, rel in messages], budget_tokens)

        ordered = [c for c in chosen if c.level == "theme"] + sorted(
            (c for c in chosen if c.level != "theme"), key=lambda c: (c.time is None, c.time or datetime.min)
        )
        context.pieces = [
            Piece(c.text, (c.memory_id,), c.sources, c.level, round(c.score, 4), c.time) for c in ordered
        ]
        return context

    # --- candidates per level -------------------------------------------------------------------------

    def _rank(self, level: str, query: str, k: int) -> list[tuple[dict[str, Any], float]]:
        """The level's best `k` units for the query, with their relevance (score / the level's best)."""
        if self._last is None or self._last[0] != query:
            self._last = (query, self._search(query))
        rows = self._last[1].get(level, [])[:k]
        best = max((row["score"] or 0.0 for row in rows), default=0.0)
        if best <= 0:
            return []
        ranked = [(row, (row["score"] or 0.0) / best) for row in rows]
        return [(row, rel) for row, rel in ranked if rel >= self.config.min_relevance]

    def _search(self, query: str) -> dict[str, list[dict[str, Any]]]:
        """One search over the whole conversation (one query embedding), its rows grouped by level."""
        where = {"has_tags": [self.tag]}
        result = self.executor.execute(
            build.retrieve(query, filter=where, k=self.config.search_candidates, include=INCLUDE)
        )
        if not result.success:
            reasons = "; ".join(f"{d.rule}: {d.message}" for d in result.diagnostics)
            raise LadderReadError(f"ladder search failed: {reasons}")
        levels: dict[str, list[dict[str, Any]]] = {}
        for row in result.data.get("rows", []):
            levels.setdefault(str(row["facets"].get("level")), []).append(row)
        return levels

    def _facts(self, query: str, theme_rel: dict[str, float]) -> list[Candidate]:
        relevance = {row["id"]: rel for row, rel in self._rank("fact", query, self.config.fact_candidates)}
        for theme_id in theme_rel:  # the members of every ranked theme, found or not by the query's words
            theme = self.state.themes.get(theme_id)
            for member in theme.members if theme else ():
                relevance.setdefault(member, 0.0)
        out = []
        for fact_id, rel in relevance.items():
            fact = self.state.facts.get(fact_id)
            if fact is None:
                continue
            boost = self.config.theme_boost * theme_rel.get(self.state.fact_theme.get(fact_id, ""), 0.0)
            text = f"[{cite(fact.source_ids)}] {stamp(fact.time)}{fact.text}"
            out.append(Candidate("fact", fact_id, text, fact.source_ids, rel + boost, fact.time))
        return out

    def _theme(self, row: dict[str, Any], rel: float) -> Candidate:
        cited = tuple(row["facets"].get("cited") or ())
        return Candidate("theme", row["id"], f"[theme; {cite(cited)}] {row['text']}", cited, rel, row["time"])

    def _episode(self, row: dict[str, Any], rel: float) -> Candidate:
        cited = tuple(row["facets"].get("cited") or ())
        text = f"[episode {stamp(row['time']).strip()}; {cite(cited)}] {row['text']}"
        return Candidate("episode", row["id"], text, cited, rel, row["time"])

    def _message(self, row: dict[str, Any], rel: float) -> Candidate:
        sources = source_ids_of(row["facets"])
        role = str(row["facets"].get("role") or "")
        body = row["text"].strip()
        if role and not body.lower().startswith(role.lower() + ":"):
            body = f"{role}: {body}"
        text = f"[{cite(sources)}] {stamp(row['time'])}{body}"
        return Candidate("message", row["id"], text, sources, rel, row["time"])

    def _gain(self, candidate: Candidate, covered: set[str]) -> float:
        share = sum(1 for s in candidate.sources if s in covered) / len(candidate.sources)
        return candidate.score * (1.0 - self.config.coverage_penalty * share)


def cite(sources: tuple[str, ...] | list[str]) -> str:
    return ", ".join(sources)


def stamp(time: datetime | None) -> str:
    """A compact date, e.g. "(8 May 2023) ", or nothing."""
    return f"({time.day} {time:%b %Y}) " if time is not None else ""
