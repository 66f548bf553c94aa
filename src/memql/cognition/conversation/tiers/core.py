"""Tiers: MemoryOS (Kang et al. 2025) as a conversation strategy over memql records.

Write path (`observe`): messages pair into dialogue pages in a STM FIFO; when it overflows the oldest page
moves to the MTM segment with the best Fscore >= θ (or founds one, evicting the coldest segment when MTM is
full); a segment hotter than τ promotes its new content into LPM. Read path (`context`): retrieval.py.
Every move is one memql workflow (records.py), so it is validated, atomic and in `memql history`.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from memql.cognition.conversation.base import Context, Message
from memql.cognition.conversation.tiers import lpm
from memql.cognition.conversation.tiers.config import TiersConfig
from memql.cognition.conversation.tiers.llm import TiersLLM
from memql.cognition.conversation.tiers.records import TierRecords, TiersError, step_ids
from memql.cognition.conversation.tiers.scoring import Vectorizer, fscore, heat
from memql.cognition.conversation.tiers.state import (
    Entry,
    PageState,
    SegmentState,
    message_from_row,
    page_from_row,
    segment_from_row,
)
from memql.cognition.conversation.tiers.summary import update_parts
from memql.lang.time import format_instant
from memql.ports.models import LLM

if TYPE_CHECKING:
    from memql.engine.executor import Executor


class Tiers:
    """The MemoryOS strategy: STM pages -> MTM segments -> LPM persona, for one conversation."""

    name = "tiers"

    def __init__(
        self,
        executor: Executor,
        conversation_id: str,
        config: TiersConfig | None = None,
        llm: LLM | None = None,
    ) -> None:
        self.executor = executor
        self.config = config or TiersConfig()
        self.records = TierRecords(executor, conversation_id)
        self.conversation_id = conversation_id
        self.vectorizer = Vectorizer(executor.embedder)
        self.llm = TiersLLM(llm) if llm is not None else None
        self.stats = {"pages": 0, "moved": 0, "segments_created": 0, "evictions": 0, "promotions": 0}
        self.stm: list[PageState] = []
        self.segments: dict[str, SegmentState] = {}  # by segment key (the founding page's id)
        self.segment_ids: dict[str, str] = {}  # key -> record id
        self.lpm: dict[str, Entry] = {}  # LPM entries by record id
        self.pending: list[Message] = []  # messages of the page being formed
        self.last_page: PageState | None = None  # the newest page (meta-chain continuity)
        self.last_moved: PageState | None = None  # the newest page that reached MTM (LLM continuity)
        self.seen = -1  # position of the last message observed
        self._loading = False
        self._load()

    # --- write path --------------------------------------------------------------------------------

    def observe(self, message: Message) -> None:
        if message.position <= self.seen:
            return  # already part of a page (e.g. replayed after a restart)
        self.seen = message.position
        self.vectorizer.learn_names(message.role)
        opener = self.pending[0].role if self.pending else None
        self.pending.append(message)
        replied = opener is not None and message.role != opener
        if replied or len(self.pending) >= self.config.max_page_messages:
            messages, self.pending = self.pending, []
            self._guarded(self._add_page, messages)

    def context(self, query: str, budget_tokens: int) -> Context:
        from memql.cognition.conversation.tiers.retrieval import assemble

        return assemble(self, query, budget_tokens)

    def flush(self) -> None:
        """Close the page being formed (a message still waiting for its reply) as a page of its own."""
        if self.pending:
            messages, self.pending = self.pending, []
            self._guarded(self._add_page, messages)

    def _guarded(self, move: Any, *args: Any) -> None:
        """A refused move rolled back in the store; the Python state is rebuilt from the store to match."""
        try:
            move(*args)
        except TiersError:
            if not self._loading:  # (a move retried while loading fails the same way: no loop)
                self._reset()
                self._load()
            raise

    def _add_page(self, messages: list[Message]) -> None:
        text = "\n".join(f"{m.role}: {m.text}" for m in messages)
        sources = tuple(dict.fromkeys(s for m in messages for s in m.source_ids))
        bare = "\n".join(m.text for m in messages)  # the topic is in what was said, not in who said it
        vector = self.vectorizer.vector(bare)
        words = tuple(self.vectorizer.keywords(bare, self.config.segment_keywords))
        prev = self.last_page
        chained = (
            prev is not None
            and (messages[0].time - prev.end).total_seconds() <= self.config.chain_max_gap_s
            and fscore(vector, words, prev.vector or self._page_vector(prev), prev.keywords)
            >= self.config.chain_threshold
        )
        facets = {
            "source_ids": list(sources),
            "message_ids": [m.memory_id for m in messages],
            "positions": [messages[0].position, messages[-1].position],
            "end": format_instant(messages[-1].time),
            "prev_page": prev.id if chained and prev is not None else None,
            "segment": None,
        }
        step = self.records.encode(
            text,
            "page",
            "stm",
            facets,
            kind="page",
            time=format_instant(messages[0].time),
            comment="tiers: new dialogue page in STM",
        )
        page_id = step_ids(self.records.run("a new page", [step]))[0]
        page = PageState(
            id=page_id,  # type: ignore[arg-type]
            text=text,
            message_ids=tuple(m.memory_id for m in messages),
            source_ids=sources,
            first=messages[0].position,
            last=messages[-1].position,
            time=messages[0].time,
            end=messages[-1].time,
            prev_page=facets["prev_page"],
            vector=vector,
            keywords=words,
        )
        self.stm.append(page)
        self.last_page = page
        self.stats["pages"] += 1
        while len(self.stm) > self.config.stm_capacity:
            # a locked page (a legal hold) stays in STM; the oldest page that may move goes instead
            held = self.records.locked([p.id for p in self.stm])
            movable = next((i for i, p in enumerate(self.stm) if p.id not in held), None)
            if movable is None:
                break
            self._to_mtm(self.stm.pop(movable))

    def _to_mtm(self, page: PageState) -> None:
        """The oldest STM page joins the MTM segment with the best Fscore >= θ, or founds a new one."""
        cfg = self.config
        vector = page.vector if page.vector is not None else self._page_vector(page)
        best_key, best = None, float("-inf")
        held = self.records.locked(list(self.segment_ids.values()))  # a locked segment takes no page
        for key, seg in self.segments.items():
            if seg.id in held:
                continue
            score = fscore(vector, page.keywords, seg.vector, seg.top_keywords(cfg.segment_keywords))
            if score > best:
                best_key, best = key, score
        joins = best_key is not None and best >= cfg.fscore_threshold
        seg = self.segments[best_key] if joins and best_key else None
        prev_page = page.prev_page
        verdict = None
        if self.llm is not None:
            verdict = self.llm.page_to_segment(self.last_moved, page, seg.summary if seg else None)
        steps: list[dict[str, Any]] = []
        if seg is None:
            steps.extend(self._evict_if_full())
            key = page.id
            seg = SegmentState(id="", parts=[], keyword_counts={}, vector=None, created=self.now())
        else:
            key = best_key  # type: ignore[assignment]
        if verdict is not None:
            prev_page = self.last_moved.id if verdict.continuous and self.last_moved is not None else None
            seg.parts = [(verdict.summary, tuple(dict.fromkeys([*seg.source_ids, *page.source_ids]))[-64:])]
            new_keywords = verdict.keywords or list(page.keywords)
        else:
            seg.parts = update_parts(seg.parts, page.text, page.source_ids, cfg.segment_summary_tokens)
            new_keywords = list(page.keywords)
        for word in new_keywords:
            seg.keyword_counts[word] = seg.keyword_counts.get(word, 0) + 1
        seg.keyword_counts = dict(
            sorted(seg.keyword_counts.items(), key=lambda kv: (-kv[1], kv[0]))[: 3 * cfg.segment_keywords]
        )
        seg.interactions += 1
        seg.pages += 1
        seg.vector = self.vectorizer.vector(seg.summary)
        how = f"Fscore {best:.3f} >= θ {cfg.fscore_threshold}" if joins else "no segment reaches θ"
        page_step = self.records.update(
            [page.id],
            f"tiers: page -> MTM segment {key} ({how})",
            facets={"tier": "mtm", "segment": key, "prev_page": prev_page},
        )
        if joins:
            steps.append(page_step)
            steps.append(
                self.records.update(
                    [seg.id],
                    f"tiers: segment {key} takes page {page.id}",
                    text=seg.summary,
                    facets=seg.facets(),
                )
            )
        else:
            steps.append(
                self.records.encode(
                    seg.summary,
                    "segment",
                    "mtm",
                    {"key": key, **seg.facets()},
                    kind="segment",
                    comment=f"tiers: new MTM segment for page {page.id} ({how})",
                )
            )
            steps.append(page_step)
        result = self.records.run("a page's move to MTM", steps)
        if not joins:
            seg.id = step_ids(result)[len(steps) - 2]  # type: ignore[assignment]
            self.segments[key] = seg
            self.segment_ids[key] = seg.id
            self.stats["segments_created"] += 1
        self.stats["moved"] += 1
        page.prev_page = prev_page
        self.last_moved = page
        self._promote_hot()

    def _evict_if_full(self) -> list[dict[str, Any]]:
        """When MTM is at capacity, the coldest segment goes (paper: heat; the code evicts by LFU)."""
        if len(self.segments) < self.config.mtm_capacity:
            return []
        self._refresh_visits()
        now = self.now()
        ranked = sorted(
            self.segments.items(), key=lambda kv: (self.heat_of(kv[1], now), kv[1].created, kv[1].id)
        )
        held = self.records.locked([seg.id for _, seg in ranked], "Delete")
        for at, (key, seg) in enumerate(ranked):  # the coldest that may go: no lock on it or its pages
            if seg.id in held:
                continue
            pages = [r["id"] for r in self.records.read(self.records.facets("page", segment=key), ("id",))]
            if not self.records.locked(pages, "Delete"):
                ranked = ranked[at:]
                break
        else:
            return []  # every segment is held: MTM stays over capacity rather than break a lock
        h = self.heat_of(seg, now)
        nxt = f"; next coldest {self.heat_of(ranked[1][1], now):.3f}" if len(ranked) > 1 else ""
        del self.segments[key], self.segment_ids[key]
        self.stats["evictions"] += 1
        return [
            self.records.delete(
                [seg.id, *pages], f"tiers: evict coldest MTM segment {key} (heat {h:.3f}{nxt})"
            )
        ]

    def _promote_hot(self) -> None:
        """Every segment hotter than τ with content not yet promoted moves that content into LPM."""
        now = self.now()
        hot = {
            key: seg
            for key, seg in self.segments.items()
            if self.heat_of(seg, now) > self.config.heat_threshold and seg.interactions > 0
        }
        held = self.records.locked([seg.id for seg in hot.values()])  # a locked segment stays as it is
        for key, seg in hot.items():
            h = self.heat_of(seg, now)
            if seg.id not in held:
                lpm.promote(self, key, seg, h)
                self.stats["promotions"] += 1

    # --- heat ----------------------------------------------------------------------------------------

    def heat_of(self, seg: SegmentState, now: datetime | None = None) -> float:
        c = self.config
        return heat(
            seg.visits,
            seg.interactions,
            seg.last_access or seg.created,
            now or self.now(),
            alpha=c.alpha,
            beta=c.beta,
            gamma=c.gamma,
            mu_s=c.mu_s,
        )

    def _refresh_visits(self) -> None:
        """N_visit and the last access live on the records (any Retrieve that returns one is a visit)."""
        rows = self.records.read(
            self.records.facets("segment", "mtm"), ("id", "facets", "visits", "last_access_at")
        )
        from memql.cognition.conversation.tiers.state import instant

        for row in rows:
            seg = self.segments.get(row["facets"].get("key"))
            if seg is not None:
                seg.visits, seg.last_access = int(row["visits"] or 0), instant(row["last_access_at"])

    def _page_vector(self, page: PageState) -> Any:
        return self.vectorizer.vector(_bare(page.text))

    def now(self) -> datetime:
        return self.executor.clock.now()

    # --- reload ------------------------------------------------------------------------------------

    def _reset(self) -> None:
        self.stm, self.segments, self.segment_ids, self.lpm, self.pending = [], {}, {}, {}, []
        self.last_page = self.last_moved = None
        self.seen = -1

    def _load(self) -> None:
        self._loading = True
        try:
            self._load_records()
        finally:
            self._loading = False

    def _load_records(self) -> None:
        r = self.records
        include = ("id", "text", "facets", "time", "keywords")
        self.stm = sorted(
            (page_from_row(row) for row in r.read(r.facets("page", "stm"), include)), key=lambda p: p.first
        )
        pages = (
            self.stm
            or sorted(
                (page_from_row(row) for row in r.read(r.facets("page"), include)), key=lambda p: p.last
            )[-2:]
        )
        for p in pages:
            for line in p.text.split("\n"):
                self.vectorizer.learn_names(line.partition(": ")[0])
        for p in pages:
            p.vector = self._page_vector(p)
            p.keywords = tuple(self.vectorizer.keywords(_bare(p.text), self.config.segment_keywords))
        # segments and LPM after the pages: their vectors leave out the speakers' names learnt there
        rows = r.read(
            r.facets("segment", "mtm"), ("id", "text", "facets", "visits", "last_access_at", "created_at")
        )
        for row in rows:
            seg = segment_from_row(row)
            key = row["facets"].get("key", seg.id)
            seg.vector = self.vectorizer.vector(seg.summary)
            self.segments[key], self.segment_ids[key] = seg, seg.id
        for level in ("knowledge", "profile", "trait"):
            rows = r.read(r.facets(level, "lpm"), (*include, "created_at"))
            for row in sorted(rows, key=lambda row: (row["created_at"], row["id"])):  # oldest first (FIFO)
                self.lpm[row["id"]] = lpm.entry_from_row(row, self.vectorizer)
        self.last_page = pages[-1] if pages else None
        moved = [p for p in pages if p.id not in {s.id for s in self.stm}]
        self.last_moved = moved[-1] if moved else None
        self.seen = self.last_page.last if self.last_page else -1
        # messages stored after the newest page: the page being formed when the process stopped
        since = format_instant(self.last_page.end) if self.last_page else None
        rows = r.read(r.facets("message"), ("id", "text", "facets", "time"), time_from=since)
        later = sorted((message_from_row(row) for row in rows), key=lambda m: m.position)
        for message in later[-self.config.max_page_messages :]:
            self.observe(message)


def _bare(page_text: str) -> str:
    """A page's messages without the speakers' names in front."""
    return "\n".join(line.partition(": ")[2] for line in page_text.split("\n"))
