"""`memql bench state`: does the context a conversation assembles say what is true now (or at `as_of`)?

Each item's sessions go through `Conversation.add_message` on a fresh store (one Memory per item, acting
as the item's user); each question gets ``context(q, budget_tokens=N, as_of=as_of)``. A question is right
when the context text holds one of its `answer` spellings and none of its `stale` ones outside a part
labelled as history (`score_context`). The same questions are answered in the same run by the flat
strategy without an extractor: `baseline_flat`. See docs/bench-state.md.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from memql.bench.state_data import ASSISTANT, StateItem, StateQuestion
from memql.memory import Memory, default_embedder
from memql.ports.clock import FixedClock

DEFAULT_BUDGET = 300
TENANT = "bench"
AGENT = "assistant"

# A history label opens a part that runs to the end of its line: "until <ISO date or instant>:" (what the
# conversation layer writes before a superseded value, "until 2026-03-20: July 15"), "history:" or
# "历史：". Only an ISO date counts after "until", so a message saying "until Friday: ..." is no label.
HISTORY_LABEL = re.compile(
    r"\buntil\s+\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?\s*[:：]"
    r"|\bhistory\s*[:：]|历史\s*[:：]",
    re.IGNORECASE,
)


def outside_history(text: str) -> str:
    """`text` without its history parts: each line is cut at its first history label."""
    kept = []
    for line in text.splitlines():
        label = HISTORY_LABEL.search(line)
        kept.append(line[: label.start()] if label else line)
    return "\n".join(kept)


def score_context(text: str, answer: Iterable[str], stale: Iterable[str]) -> bool:
    """Right when `text` contains an `answer` spelling (case-insensitive substring, anywhere) and no `stale`
    spelling outside the parts labelled as history."""
    folded = text.casefold()
    if not any(a.casefold() in folded for a in answer):
        return False
    current = outside_history(text).casefold()
    return not any(s.casefold() in current for s in stale)


@dataclass(frozen=True)
class QuestionResult:
    item_id: str
    lang: str
    split: str
    construct: str
    kind: str
    q: str
    right: bool
    tokens: int
    text: str


@dataclass
class RunConfig:
    strategy: str = "flat"
    extractor: Any = None  # None: no extraction; "rules" | "llm" | an Extractor, passed through as given
    budget: int = DEFAULT_BUDGET
    embedder: str = "none"
    llm: Any = None


@contextmanager
def item_memory(item: StateItem, embedder: Any, llm: Any = None) -> Iterator[Memory]:
    """A Memory on a fresh in-memory store for one item, acting as its user; the clock a day after the
    item's last session (reads happen after the conversation)."""
    clock = FixedClock(item.sessions[-1].time + timedelta(days=1))
    memory = Memory(":memory:", tenant=TENANT, actor=item.user, clock=clock, embedder=embedder, llm=llm)
    try:
        yield memory
    finally:
        memory.close()


def _role(item: StateItem, speaker: str) -> str:
    """The item's user speaks as "user", the assistant as "assistant"; anyone else by name."""
    if speaker.casefold() == ASSISTANT:
        return "assistant"
    return "user" if speaker == item.user else speaker


def run_item(item: StateItem, config: RunConfig, embedder: Any) -> list[QuestionResult]:
    """Ingest one item's sessions and answer its questions under `config`."""
    options: dict[str, Any] = {
        "user": item.user,
        "agent": AGENT,
        "id": item.id,
        "strategy": config.strategy,
        "extractor": config.extractor,  # None: the baseline, no extraction
    }
    results = []
    with item_memory(item, embedder, config.llm) as memory:
        conv = memory.conversation(**options)
        for s_index, session in enumerate(item.sessions):
            for t_index, turn in enumerate(session.turns):
                conv.add_message(
                    _role(item, turn.speaker),
                    turn.text,
                    time=session.time,
                    source_id=f"S{s_index + 1}:{t_index + 1}",
                )
        conv.flush()
        for question in item.questions:
            results.append(_ask(conv, item, question, config))
    return results


def _ask(conv: Any, item: StateItem, question: StateQuestion, config: RunConfig) -> QuestionResult:
    if config.extractor is None:
        # the baseline: today's flat context, which knows no as_of (every question is asked as is)
        context = conv.context(question.q, config.budget)
    else:
        context = conv.context(question.q, config.budget, as_of=question.as_of)
    text = context.text
    return QuestionResult(
        item.id,
        item.lang,
        item.split or "unsplit",
        item.construct_name or "unknown",
        question.kind,
        question.q,
        score_context(text, question.answer, question.stale),
        context.tokens,
        text,
    )


def run(
    items: Iterable[StateItem], config: RunConfig, *, progress: Callable[[str], None] | None = None
) -> list[QuestionResult]:
    embedder = default_embedder(config.embedder)
    results: list[QuestionResult] = []
    for item in items:
        if progress:
            progress(f"{config.strategy} {item.id}")
        results.extend(run_item(item, config, embedder))
    return results


def accuracy(results: Iterable[QuestionResult]) -> float:
    results = list(results)
    return round(sum(r.right for r in results) / len(results), 4) if results else 0.0


def _by(results: list[QuestionResult], key: Callable[[QuestionResult], str]) -> dict[str, float]:
    groups: dict[str, list[QuestionResult]] = defaultdict(list)
    for r in results:
        groups[key(r)].append(r)
    return {name: accuracy(group) for name, group in sorted(groups.items())}


def summary(results: list[QuestionResult]) -> dict[str, Any]:
    """Accuracy overall, by kind, language, split and construct, with the number of questions."""
    return {
        "accuracy": accuracy(results),
        "by_kind": _by(results, lambda r: r.kind),
        "by_lang": _by(results, lambda r: r.lang),
        "by_split": _by(results, lambda r: r.split),
        "by_construct": _by(results, lambda r: r.construct),
        # the acceptance compares each kind on the heldout half with the whole set
        "by_split_kind": {
            split: _by([r for r in results if r.split == split], lambda r: r.kind)
            for split in sorted({r.split for r in results})
        },
        "n": len(results),
    }


def evaluate(
    items: list[StateItem],
    *,
    extractor: Any = "rules",
    budget: int = DEFAULT_BUDGET,
    embedder: str = "none",
    llm: Any = None,
    progress: Callable[[str], None] | None = None,
    contexts: bool = False,
) -> dict[str, Any]:
    """The bench's report: the run with `extractor` (None: none) and, beside it, `baseline_flat` (the
    flat strategy without extraction, same questions, same budget) with its own breakdown; `wrong` lists
    the run's misses (with their context text when `contexts`)."""
    baseline = run(items, RunConfig("flat", None, budget, embedder), progress=progress)
    if extractor is None:
        main = baseline  # the same run: no need to ingest everything twice
    else:
        main = run(items, RunConfig("flat", extractor, budget, embedder, llm), progress=progress)
    report = summary(main)
    base = summary(baseline)
    report["baseline_flat"] = base["accuracy"]
    report["baseline"] = base
    named = isinstance(extractor, str) or extractor is None
    report["extractor"] = extractor if named else type(extractor).__name__
    report["budget"] = budget
    report["wrong"] = [_miss(r, contexts) for r in main if not r.right]
    return report


def _miss(result: QuestionResult, with_context: bool) -> dict[str, Any]:
    miss: dict[str, Any] = {"id": result.item_id, "q": result.q, "kind": result.kind}
    if with_context:
        miss["context"] = result.text
    return miss
