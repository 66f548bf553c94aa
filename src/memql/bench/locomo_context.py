"""`memql bench locomo --budget N[,N2...]`: evidence recall of assembled contexts under a token budget.

Each conversation gets a fresh store and is ingested through `Conversation.add_message` (speaker = role,
dia_id = source id, session time + one second per turn = time; a shared photo's caption appended to the
text) with the strategies the mode needs observing; then every question gets `context(question,
budget)` per budget. A question's evidence recall is the share of its evidence dia_ids among the
context's source ids; evidence is normalised as in `memql.bench.locomo` (unmappable items stay in the
denominator as misses; questions without evidence are counted and left out of the means).

Reported: recall per category and over categories 1-4 (the headline), mean context tokens, LLM calls
per turn (write) and per question (read), ingest time, query latency, and a recall/token curve per mode.
The headline figures are at the issue's acceptance budget: the largest budget listed that is at most
2,000 tokens (else the smallest). With an LLM, the LLM-assisted run is reported beside the offline one,
never mixed into it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from memql.bench.locomo import (
    CATEGORIES,
    HEADLINE,
    Conversation,
    EvidenceStats,
    Question,
    conversation_memory,
    load,
)
from memql.bench.perf import percentile
from memql.ports.models import LLM

MODES = ("flat", "tiers", "ladder", "hybrid")
ACCEPTANCE_BUDGET = 2000
EMBED_BATCH = 64  # messages embedded per model call while ingesting (a history arrives all at once)


@dataclass(frozen=True)
class ContextResult:
    """One question's context at one budget."""

    question: Question
    sample_id: str
    mode: str
    budget: int
    source_ids: tuple[str, ...]
    tokens: int
    ms: float
    llm_calls: int

    def recall(self) -> float | None:
        total = len(self.question.evidence) + self.question.unmappable
        if total == 0:
            return None
        found = set(self.source_ids)
        return sum(1 for e in self.question.evidence if e in found) / total


@dataclass
class ModeRun:
    mode: str
    results: list[ContextResult]
    turns: int = 0
    ingest_s: float = 0.0
    write_llm_calls: int = 0


def message_text(turn: Any) -> str:
    text = turn.text.strip()
    if turn.caption:
        text = f"{text} [shares a photo: {turn.caption}]".strip()
    return text or "(empty turn)"


def evaluate_mode(
    conversations: Iterable[Conversation],
    mode: str,
    budgets: Sequence[int],
    *,
    memory_options: dict[str, Any] | None = None,
    llm: LLM | None = None,
    progress: Callable[[str], None] | None = None,
    db: str | None = None,
    extractor: str | None = None,
) -> ModeRun:
    """Ingest every conversation through the conversation API (fresh store each), forming facts with
    `extractor` when given, and assemble a context per question and budget. The run is named after the
    mode, and the extractor when there is one ("flat+rules")."""
    if mode not in MODES:
        raise ValueError(f"unknown mode {mode!r}; choose from {', '.join(MODES)}")
    run = ModeRun(f"{mode}+{extractor}" if extractor else mode, [])
    for conv in conversations:
        if progress:
            progress(f"{mode} {conv.sample_id}: {len(conv.turns)} turns, {len(conv.questions)} questions")
        user, agent = (s or "speaker" for s in conv.speakers)
        # the conversation is its user's (docs/conversation.md, Privacy): the bench acts as that user
        with conversation_memory(conv, db, actor=user, llm=llm, **(memory_options or {})) as memory:
            session = memory.conversation(
                user=user,
                agent=agent,
                id=conv.sample_id,
                strategy=mode,
                embed_batch=EMBED_BATCH,
                extractor=extractor,
            )
            started = time.perf_counter()
            for turn in conv.turns:
                session.add_message(
                    turn.speaker or "speaker", message_text(turn), time=turn.time, source_id=turn.dia_id
                )
            session.flush()  # ingest ends when every message is embedded
            run.ingest_s += time.perf_counter() - started
            run.turns += len(conv.turns)
            run.write_llm_calls += session.write_llm_calls
            for q in conv.questions:
                for budget in budgets:
                    run.results.append(_ask(session, conv.sample_id, mode, q, budget))
    return run


def _ask(session: Any, sample_id: str, mode: str, q: Question, budget: int) -> ContextResult:
    if not q.question.strip():
        return ContextResult(q, sample_id, mode, budget, (), 0, 0.0, 0)
    started = time.perf_counter()
    context = session.context(q.question, budget)
    ms = (time.perf_counter() - started) * 1000
    return ContextResult(
        q, sample_id, mode, budget, tuple(context.source_ids), context.tokens, ms, context.llm_calls
    )


def headline_budget(budgets: Sequence[int]) -> int:
    within = [b for b in budgets if b <= ACCEPTANCE_BUDGET]
    return max(within) if within else min(budgets)


def _mean(values: list[float]) -> float:
    return round(sum(values) / len(values), 4) if values else 0.0


def _recall(results: Sequence[ContextResult], categories: Iterable[int]) -> float:
    chosen = set(categories)
    return _mean([v for r in results if r.question.category in chosen and (v := r.recall()) is not None])


def _tokens(results: Sequence[ContextResult]) -> float:
    return round(sum(r.tokens for r in results) / len(results), 1) if results else 0.0


def summary(run: ModeRun, budget: int) -> dict[str, Any]:
    """Figures of one mode at one budget."""
    at = [r for r in run.results if r.budget == budget]
    by_category = {}
    for category in sorted({r.question.category for r in at}):
        members = [r for r in at if r.question.category == category]
        by_category[str(category)] = {
            "name": CATEGORIES.get(category, "other"),
            "n": len(members),
            "recall": _recall(members, (category,)),
            "context_tokens": _tokens(members),
        }
    asked = [r for r in at if r.question.question.strip()]
    latencies = [r.ms for r in asked]
    return {
        "recall": _recall(at, HEADLINE),
        "by_category": by_category,
        "context_tokens": _tokens(at),
        "max_context_tokens": max((r.tokens for r in at), default=0),
        "llm_calls": {
            "write_per_turn": round(run.write_llm_calls / run.turns, 4) if run.turns else 0.0,
            "read_per_question": round(sum(r.llm_calls for r in asked) / len(asked), 4) if asked else 0.0,
            "write": run.write_llm_calls,
            "read": sum(r.llm_calls for r in asked),
        },
        "query_ms": {
            "p50": round(percentile(latencies, 50), 3) if latencies else 0.0,
            "p95": round(percentile(latencies, 95), 3) if latencies else 0.0,
        },
    }


def curve(run: ModeRun, budgets: Sequence[int]) -> list[dict[str, Any]]:
    points = []
    for budget in budgets:
        at = [r for r in run.results if r.budget == budget]
        points.append({"budget": budget, "recall": _recall(at, HEADLINE), "context_tokens": _tokens(at)})
    return points


def report(runs: Sequence[ModeRun], budgets: Sequence[int], stats: EvidenceStats, conversations: int) -> dict:
    """The issue-7 JSON: the first mode's figures at the headline budget, and a curve per mode."""
    budget = headline_budget(budgets)
    first = runs[0]
    at = [r for r in first.results if r.budget == budget]
    out: dict[str, Any] = {
        **summary(first, budget),
        "mode": first.mode,
        "budget": budget,
        "budgets": list(budgets),
        "conversations": conversations,
        "questions": len(at),
        "headline_questions": sum(1 for r in at if r.question.category in HEADLINE),
        "no_evidence": sum(1 for r in at if r.recall() is None),
        "evidence_items": stats.items,
        "evidence_fixed": stats.fixed,
        "evidence_unmappable": stats.unmappable,
        "turns": first.turns,
        "ingest_s": round(first.ingest_s, 3),
        "ingest_turns_per_s": round(first.turns / first.ingest_s, 1) if first.ingest_s else 0.0,
        "curve": {run.mode: curve(run, budgets) for run in runs},
    }
    if len(runs) > 1:
        out["modes"] = {
            run.mode: {
                **summary(run, budget),
                "ingest_s": round(run.ingest_s, 3),
                "ingest_turns_per_s": round(run.turns / run.ingest_s, 1) if run.ingest_s else 0.0,
            }
            for run in runs
        }
    return out


def run(
    source: Any,
    modes: Sequence[str],
    budgets: Sequence[int],
    *,
    limit_conversations: int | None = None,
    memory_options: dict[str, Any] | None = None,
    llm: LLM | None = None,
    progress: Callable[[str], None] | None = None,
    db: str | None = None,
    extractors: Sequence[str | None] = (None,),
) -> dict[str, Any]:
    """Load, ingest, assemble and report (offline); each mode once per extractor (None: no extraction).
    With `llm`, the same again with the LLM configured,
    reported under "llm_assisted" (its own figures, its own LLM call counts)."""
    budgets = sorted(set(budgets))
    if not budgets or budgets[0] < 1:
        raise ValueError("budgets must be positive")
    if not modes:
        raise ValueError("name at least one mode")
    for mode in modes:
        if mode not in MODES:
            raise ValueError(f"unknown mode {mode!r}; choose from {', '.join(MODES)}")
    conversations, stats = load(source, limit_conversations)

    def runs_with(model: LLM | None) -> list[ModeRun]:
        return [
            evaluate_mode(
                conversations,
                mode,
                budgets,
                memory_options=memory_options,
                llm=model,
                progress=progress,
                db=db,
                extractor=extractor,
            )
            for mode in modes
            for extractor in extractors
        ]

    out = report(runs_with(None), budgets, stats, len(conversations))
    out["setting"] = "offline"
    if llm is not None:
        assisted = report(runs_with(llm), budgets, stats, len(conversations))
        out["llm_assisted"] = {**assisted, "setting": "llm"}
    return out
