"""`memql bench locomo`: LoCoMo evidence recall@k, no LLM needed.

Each conversation gets a fresh store (in memory, or a new PostgreSQL schema with `db`). Every turn
becomes one Encode (type ``turn``) whose facets carry its ``dia_id``, speaker and session, whose time is
the session's date plus one second per turn (so turn order survives), and whose text ends with the shared
image's caption when there is one.
Then every question runs one Retrieve over its own conversation; a question's recall@k is the fraction
of its evidence turns among the top-k retrieved turns, averaged over questions per category and over
categories 1-4 together (the headline; 5, adversarial, is reported beside it).

The evidence lists of the public data contain malformed ids ("D8:6; D9:17", "D:11:26", a bare "D").
They are normalised (case, spaces, separators, several ids in one string, leading zeros, a missing
colon when only one split names a real turn). Items that still name no turn of their conversation stay
in the denominator as misses: no question is dropped. A question without any evidence has no defined
recall; it is counted (``no_evidence``) and left out of the means.
"""

from __future__ import annotations

import calendar
import json
import re
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from memql import Memory
from memql.bench.perf import percentile
from memql.bench.stores import fresh_postgres, is_postgres
from memql.ports.clock import FixedClock
from memql.ports.progress import Progress, silent
from memql.ports.store import Store
from memql.store import open_store

CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}
HEADLINE = (1, 2, 3, 4)  # the categories averaged together for the headline recall
DEFAULT_KS = (1, 5, 10, 20)
MODES = ("flat",)  # flat: one record per turn, one Retrieve per question
BATCH = 100  # Encodes per transaction (the workflow limit)
TENANT = "locomo"

_SESSION = re.compile(r"session_(\d+)")
_MONTHS = {name.lower(): number for number, name in enumerate(calendar.month_name) if name}
_DATE = re.compile(
    r"(\d{1,2})[:.](\d{2})\s*([ap])\.?\s*m\.?\s*(?:on\s+)?(\d{1,2})\s+([a-z]+)\.?,?\s*(\d{4})", re.I
)


@dataclass(frozen=True)
class Turn:
    dia_id: str
    speaker: str
    text: str
    session: int
    time: datetime
    caption: str | None = None


@dataclass(frozen=True)
class Question:
    question: str
    category: int
    evidence: tuple[str, ...]  # normalised dia_ids that name turns of this conversation
    unmappable: int = 0  # evidence items naming no turn: misses in the denominator


@dataclass
class Conversation:
    sample_id: str
    speakers: tuple[str, str]
    turns: list[Turn]
    questions: list[Question]


@dataclass
class EvidenceStats:
    items: int = 0  # raw evidence strings read
    fixed: int = 0  # raw strings that were not a dia_id as written but were normalised into real ones
    unmappable: int = 0  # evidence items that name no turn of their conversation after normalisation
    examples: dict[str, list[str]] = field(default_factory=dict)  # raw string -> what it became


@dataclass
class Result:
    """One question's outcome: the dia_ids retrieved in rank order and the query latency."""

    question: Question
    sample_id: str
    ranked: list[str]
    ms: float

    def recall(self, k: int) -> float | None:
        return recall_at(self.question, self.ranked, k)


def parse_session_date(text: str) -> datetime | None:
    """'1:56 pm on 8 May, 2023' -> 2023-05-08 13:56 UTC (the data gives no zone); None when unreadable."""
    match = _DATE.search(text or "")
    if match is None:
        return None
    hour, minute, half, day, month_name, year = match.groups()
    month = _MONTHS.get(month_name.lower()) or next(
        (n for name, n in _MONTHS.items() if len(month_name) >= 3 and name.startswith(month_name.lower())),
        None,
    )
    if month is None or not 1 <= int(hour) <= 12:
        return None
    hour24 = int(hour) % 12 + (12 if half.lower() == "p" else 0)
    try:
        return datetime(int(year), month, int(day), hour24, int(minute), tzinfo=UTC)
    except ValueError:
        return None


def canonical_dia_id(value: str) -> str:
    """'D1:3' for any spelling with two numbers after a D ('d01 : 3', 'D:1:3'); anything else stripped."""
    numbers = re.findall(r"\d+", value)
    if len(numbers) == 2 and value.strip()[:1] in ("D", "d"):
        return f"D{int(numbers[0])}:{int(numbers[1])}"
    return value.strip()


def normalize_evidence(raw: str, known: set[str]) -> tuple[list[str], int]:
    """The real dia_ids one evidence string names, and how many items in it name none.

    >>> normalize_evidence("d8:6; D9:17.", {"D8:6", "D9:17"})
    (['D8:6', 'D9:17'], 0)
    >>> normalize_evidence("D:11:26", {"D11:26"})
    (['D11:26'], 0)
    >>> normalize_evidence("D", {"D1:1"})
    ([], 1)
    """
    text = str(raw).upper()
    chunks = re.findall(r"D[^D]*", text) if "D" in text else [text]
    ids: list[str] = []
    missing = 0
    for chunk in chunks:
        numbers = re.findall(r"\d+", chunk)
        candidates: list[str] = []
        if len(numbers) == 2:
            candidates = [f"D{int(numbers[0])}:{int(numbers[1])}"]
        elif len(numbers) == 1 and len(numbers[0]) >= 2:  # "D13": a missing colon, resolved only if unique
            digits = numbers[0]
            candidates = [f"D{int(digits[:i])}:{int(digits[i:])}" for i in range(1, len(digits))]
            candidates = [c for c in candidates if c in known]
            if len(candidates) != 1:
                candidates = []
        hits = [c for c in candidates if c in known]
        if hits:
            ids.extend(hits)
        else:
            missing += 1
    return ids, missing


def load(
    source: str | Path | list[dict[str, Any]], limit: int | None = None
) -> tuple[list[Conversation], EvidenceStats]:
    """The first `limit` (default all) conversations, with parsed session dates and normalised evidence;
    `source` is a path or the parsed JSON. The evidence counts cover the conversations returned."""
    data = json.loads(Path(source).read_text(encoding="utf-8")) if isinstance(source, str | Path) else source
    stats = EvidenceStats()
    conversations = [_conversation(item, i, stats) for i, item in enumerate(data[:limit])]
    return conversations, stats


def _conversation(item: dict[str, Any], position: int, stats: EvidenceStats) -> Conversation:
    conv = item["conversation"]
    sessions = sorted(int(m.group(1)) for key in conv if (m := _SESSION.fullmatch(key)))
    turns: list[Turn] = []
    previous: datetime | None = None
    for number in sessions:
        start = parse_session_date(conv.get(f"session_{number}_date_time", ""))
        if start is None:  # unreadable: right after the previous session, else a fixed epoch
            start = previous + timedelta(hours=1) if previous else datetime(2000, 1, 1, tzinfo=UTC)
        for i, turn in enumerate(conv[f"session_{number}"] or []):
            caption = (turn.get("blip_caption") or "").strip() or None
            at = start + timedelta(seconds=i)
            turns.append(
                Turn(
                    dia_id=canonical_dia_id(str(turn["dia_id"])),
                    speaker=str(turn.get("speaker") or ""),
                    text=str(turn.get("text") or ""),
                    session=number,
                    time=at,
                    caption=caption,
                )
            )
            previous = at
    known = {t.dia_id for t in turns}
    questions = []
    for qa in item.get("qa", []):
        ids: list[str] = []
        missing = 0
        for raw in qa.get("evidence") or []:
            stats.items += 1
            found, lost = normalize_evidence(raw, known)
            if raw not in known and found and not lost:
                stats.fixed += 1
                stats.examples[str(raw)] = found
            elif lost:
                stats.examples[str(raw)] = [*found, *["?"] * lost]
            stats.unmappable += lost
            ids.extend(found)
            missing += lost
        questions.append(
            Question(
                str(qa.get("question", "")), int(qa.get("category", 0)), tuple(dict.fromkeys(ids)), missing
            )
        )
    speakers = (conv.get("speaker_a", ""), conv.get("speaker_b", ""))
    return Conversation(str(item.get("sample_id", f"conv-{position}")), speakers, turns, questions)


def turn_text(turns: Sequence[Turn], i: int) -> str:
    """What is encoded for turn i: its text, and the shared photo's caption when there is one."""
    turn = turns[i]
    text = turn.text.strip()
    if turn.caption:
        text = f"{text} [shares a photo: {turn.caption}]".strip()
    # a turn's memory says who spoke: questions name people, and "I" in a turn means its speaker
    return f"{turn.speaker}: {text or '(empty turn)'}" if turn.speaker else (text or "(empty turn)")


def turn_context(turns: Sequence[Turn], i: int) -> str | None:
    """The turn before turn i in the same session: what a reply answers (indexed as payload.context)."""
    if i == 0 or turns[i - 1].session != turns[i].session:
        return None
    return turn_text(turns, i - 1)


def encode_ir(turn: Turn, text: str, context: str | None = None) -> dict[str, Any]:
    payload: dict[str, Any] = {"text": text}
    if context:
        payload["context"] = context
    return {
        "op": "Encode",
        "args": {
            "payload": payload,
            "type": "turn",
            "time": turn.time.strftime("%Y-%m-%dT%H:%M:%SZ"),
            "facets": {"dia_id": turn.dia_id, "speaker": turn.speaker, "session": turn.session},
            "dedupe": False,
        },
    }


def retrieve_ir(query: str, k: int, overrides: dict[str, Any] | None = None) -> dict[str, Any]:
    return {
        "op": "Retrieve",
        "target": {"search": {"intent": {"query": query}, "overrides": {**(overrides or {}), "k": k}}},
        "args": {"include": ["id", "facets", "score"]},
    }


def recall_at(question: Question, ranked: Sequence[str], k: int) -> float | None:
    """Share of the question's evidence items among the first k dia_ids; None without evidence."""
    total = len(question.evidence) + question.unmappable
    if total == 0:
        return None
    top = set(ranked[:k])
    return sum(1 for e in question.evidence if e in top) / total


def evaluate(
    conversations: Iterable[Conversation],
    ks: Sequence[int] = DEFAULT_KS,
    *,
    overrides: dict[str, Any] | None = None,
    text_of: Callable[[Sequence[Turn], int], str] = turn_text,
    memory_options: dict[str, Any] | None = None,
    progress: Progress | None = None,
    db: str | None = None,
) -> tuple[list[Result], dict[str, float]]:
    """Ingest each conversation into a fresh store and run its questions: per-question results and timing.

    `overrides` go into every Retrieve's search overrides (e.g. ``{"alpha": 0.5}``); `text_of` decides the
    encoded text of a turn; `memory_options` are passed to ``Memory`` (e.g. an ``embedder``); `db`, a
    PostgreSQL URL, runs each conversation in a fresh schema there (dropped afterwards) instead of memory.
    """
    depth = max(ks)
    results: list[Result] = []
    ingest_s, records = 0.0, 0
    say = progress or silent
    for conv in conversations:
        # one task per conversation, counting turns ingested, then questions asked
        task, steps = f"{conv.sample_id}: {len(conv.turns)} turns, {len(conv.questions)} questions", 0
        work = len(conv.turns) + len(conv.questions)
        say(task, 0, work)
        with conversation_memory(conv, db, **(memory_options or {})) as memory:
            irs = [
                encode_ir(t, text_of(conv.turns, i), turn_context(conv.turns, i))
                for i, t in enumerate(conv.turns)
            ]
            started = time.perf_counter()
            for at in range(0, len(irs), BATCH):
                result = memory.execute(irs[at : at + BATCH])
                if not result.success:
                    raise RuntimeError(
                        f"{conv.sample_id}: ingest failed: {[d.message for d in result.diagnostics]}"
                    )
                steps += len(irs[at : at + BATCH])
                say(task, steps, work)
            ingest_s += time.perf_counter() - started
            records += len(irs)
            for q in conv.questions:
                results.append(_ask(memory, conv.sample_id, q, depth, overrides))
                steps += 1
                say(task, steps, work)
    return results, {"ingest_s": ingest_s, "records": records}


@contextmanager
def conversation_memory(
    conv: Conversation, db: str | None = None, *, actor: str = "bench", **options: Any
) -> Iterator[Memory]:
    """A Memory (tenant TENANT, acting as `actor`, `options` passed on) on a fresh store for one
    conversation, its clock a day after the conversation's last turn; closed, and on PostgreSQL dropped,
    afterwards."""
    last = max((t.time for t in conv.turns), default=datetime(2000, 1, 1, tzinfo=UTC))
    store = _fresh_store(db)
    memory = Memory(store, tenant=TENANT, actor=actor, clock=FixedClock(last + timedelta(days=1)), **options)
    try:
        yield memory
    finally:
        memory.close()
        if db is not None:
            store.drop()  # type: ignore[attr-defined]
        store.close()


def _fresh_store(db: str | None) -> Store:
    """An empty store for one conversation: in memory, or a new schema of the PostgreSQL database `db`."""
    if db is None:
        return open_store(":memory:")
    if not is_postgres(db):
        raise ValueError("the LoCoMo bench takes a postgresql:// URL (SQLite runs in memory)")
    return fresh_postgres(db, "locomo")


def _ask(memory: Memory, sample_id: str, q: Question, depth: int, overrides: dict[str, Any] | None) -> Result:
    if not q.question.strip():
        return Result(q, sample_id, [], 0.0)
    started = time.perf_counter()
    result = memory.execute(retrieve_ir(q.question, depth, overrides))
    ms = (time.perf_counter() - started) * 1000
    if not result.success:
        raise RuntimeError(
            f"{sample_id}: Retrieve failed for {q.question!r}: {[d.message for d in result.diagnostics]}"
        )
    ranked = [row["facets"].get("dia_id") for row in result.data.get("rows", [])]
    return Result(q, sample_id, [d for d in ranked if d], ms)


def summarize(
    results: Sequence[Result], ks: Sequence[int], categories: Iterable[int] = HEADLINE
) -> dict[str, float]:
    """Mean recall@k over the results in `categories` that have evidence (k as a string key)."""
    chosen = set(categories)
    out: dict[str, float] = {}
    for k in ks:
        values = [v for r in results if r.question.category in chosen and (v := r.recall(k)) is not None]
        out[str(k)] = round(sum(values) / len(values), 4) if values else 0.0
    return out


def report(
    results: Sequence[Result],
    timing: dict[str, float],
    stats: EvidenceStats,
    ks: Sequence[int],
    mode: str = "flat",
    conversations: int = 0,
    overrides: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The JSON report: headline recall over categories 1-4, per category, evidence counts, speed."""
    by_category = {}
    for category in sorted({r.question.category for r in results}):
        members = [r for r in results if r.question.category == category]
        by_category[str(category)] = {
            "name": CATEGORIES.get(category, "other"),
            "n": len(members),
            "recall": summarize(members, ks, (category,)),
        }
    latencies = [r.ms for r in results if r.question.question.strip()]
    out: dict[str, Any] = {
        "recall": summarize(results, ks),
        "by_category": by_category,
        "questions": len(results),
        "headline_questions": sum(1 for r in results if r.question.category in HEADLINE),
        "no_evidence": sum(1 for r in results if r.recall(1) is None),
        "evidence_items": stats.items,
        "evidence_fixed": stats.fixed,
        "evidence_unmappable": stats.unmappable,
        "evidence_changes": stats.examples,  # raw string -> the dia_ids it became ("?": unmappable)
        "conversations": conversations,
        "records": int(timing.get("records", 0)),
        "ingest_records_per_s": round(timing["records"] / timing["ingest_s"], 1)
        if timing.get("ingest_s")
        else 0,
        "query_ms": {
            "p50": round(percentile(latencies, 50), 3) if latencies else 0.0,
            "p95": round(percentile(latencies, 95), 3) if latencies else 0.0,
        },
        "mode": mode,
        "query_latencies_ms": [round(ms, 3) for ms in latencies],  # per question, for the report's plot
    }
    if overrides:
        out["overrides"] = dict(overrides)
    return out


def run(
    source: str | Path | list[dict[str, Any]],
    ks: Sequence[int] = DEFAULT_KS,
    *,
    mode: str = "flat",
    limit_conversations: int | None = None,
    overrides: dict[str, Any] | None = None,
    memory_options: dict[str, Any] | None = None,
    progress: Progress | None = None,
    db: str | None = None,
) -> dict[str, Any]:
    """Load, ingest, ask and report (see `report`); `db` as in `evaluate`."""
    if mode not in MODES:
        raise ValueError(f"unknown mode {mode!r}; choose from {', '.join(MODES)}")
    ks = sorted(set(ks))
    if not ks or ks[0] < 1:
        raise ValueError("k must be positive")
    conversations, stats = load(source, limit_conversations)
    results, timing = evaluate(
        conversations, ks, overrides=overrides, memory_options=memory_options, progress=progress, db=db
    )
    return report(results, timing, stats, ks, mode, len(conversations), overrides)
