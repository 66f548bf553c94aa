"""LoCoMo evidence recall of the xMemory ladder under token budgets (`python -m memql.bench.locomo_ladder`).

Each conversation gets a fresh in-memory store. Its turns are stored as conversation messages by the
shared conventions (tag `conv:<sample_id>`, facets conversation / level "message" / source_ids [dia_id]
/ role / position; type "turn"; the session's time), then the ladder observes them in order and closes its
last episode. Every question then asks for a context at each budget; its evidence recall is the share of
its evidence turns (normalised as in memql.bench.locomo) among the context's source ids. The headline is
the mean over categories 1-4; no question's text or answer is used on the write path.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from memql import Memory
from memql.bench.locomo import CATEGORIES, HEADLINE, Conversation, load, turn_text
from memql.cognition.conversation.base import Message
from memql.cognition.conversation.ladder import Ladder, LadderConfig
from memql.cognition.conversation.ladder.units import iso
from memql.ports.clock import FixedClock

BUDGETS = (500, 1000, 2000, 4000)
BATCH = 100


def ingest(memory: Memory, conv: Conversation, ladder: Ladder) -> None:
    conversation_id = conv.sample_id
    messages: list[Message] = []
    for at in range(0, len(conv.turns), BATCH):
        steps = []
        for i in range(at, min(at + BATCH, len(conv.turns))):
            turn = conv.turns[i]
            facets = {
                "conversation": conversation_id,
                "level": "message",
                "source_ids": [turn.dia_id],
                "role": turn.speaker,
                "position": i,
            }
            args = {
                "payload": {"text": turn_text(conv.turns, i)},
                "type": "turn",
                "tags": [f"conv:{conversation_id}"],
            }
            steps.append(
                {"op": "Encode", "args": {**args, "facets": facets, "time": iso(turn.time), "dedupe": False}}
            )
        result = memory.execute(steps)
        if not result.success:
            raise RuntimeError(f"{conversation_id}: ingest failed: {result.diagnostics}")
        for i, step in zip(range(at, at + len(steps)), result.steps or [], strict=True):
            turn = conv.turns[i]
            messages.append(
                Message(str(step.id), turn.speaker, turn_text(conv.turns, i), turn.time, (turn.dia_id,), i)
            )
    for message in messages:
        ladder.observe(message)
    ladder.flush()


def recall(evidence: Sequence[str], unmappable: int, sources: set[str]) -> float | None:
    total = len(evidence) + unmappable
    return sum(1 for e in evidence if e in sources) / total if total else None


def evaluate(
    path: str, budgets: Sequence[int], limit: int | None, config: LadderConfig, skip: int = 0
) -> dict[str, Any]:
    conversations, _ = load(path, None if limit is None else skip + limit)
    conversations = conversations[skip:]
    per: dict[int, dict[int, list[float]]] = {b: {} for b in budgets}
    tokens: dict[int, list[int]] = {b: [] for b in budgets}
    ingest_s = query_s = 0.0
    units: dict[str, int] = {"episodes": 0, "facts": 0, "themes": 0, "messages": 0}
    for conv in conversations:
        last = max(t.time for t in conv.turns)
        memory = Memory(
            ":memory:", tenant="locomo", actor="bench", clock=FixedClock(last + timedelta(days=1))
        )
        ladder = Ladder(memory, conv.sample_id, config)
        started = time.perf_counter()
        ingest(memory, conv, ladder)
        ingest_s += time.perf_counter() - started
        print(f"{conv.sample_id}: ingested in {time.perf_counter() - started:.0f}s", file=sys.stderr)
        units["episodes"] += len(ladder.state.episodes)
        units["facts"] += len(ladder.state.facts)
        units["themes"] += len(ladder.state.themes)
        units["messages"] += len(conv.turns)
        started = time.perf_counter()
        for q in conv.questions:
            for b in budgets:
                context = ladder.context(q.question, b)
                tokens[b].append(context.tokens)
                value = recall(q.evidence, q.unmappable, set(context.source_ids))
                if value is not None:
                    per[b].setdefault(q.category, []).append(value)
        query_s += time.perf_counter() - started
        print(f"{conv.sample_id}: done ({time.perf_counter() - started:.0f}s queries)", file=sys.stderr)
        memory.close()
    out: dict[str, Any] = {
        "budgets": {},
        "ingest_s": round(ingest_s, 1),
        "query_s": round(query_s, 1),
        **units,
    }
    for b in budgets:
        headline = [v for c in HEADLINE for v in per[b].get(c, [])]
        out["budgets"][str(b)] = {
            "recall": round(sum(headline) / len(headline), 4) if headline else 0.0,
            "by_category": {CATEGORIES[c]: round(sum(v) / len(v), 4) for c, v in sorted(per[b].items()) if v},
            "context_tokens": round(sum(tokens[b]) / len(tokens[b]), 1) if tokens[b] else 0.0,
            "max_tokens": max(tokens[b], default=0),
        }
    return out


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("path", nargs="?", default="../shared/data/locomo-dev.json")
    parser.add_argument(
        "--budget", type=int, action="append", help="token budgets (default 500 1000 2000 4000)"
    )
    parser.add_argument("--limit", type=int, default=None, help="the first N conversations only")
    parser.add_argument("--skip", type=int, default=0, help="skip the first N conversations")
    parser.add_argument("--set", action="append", default=[], help="LadderConfig field=value")
    args = parser.parse_args(argv)
    values = {}
    for item in args.set:
        key, _, raw = item.partition("=")
        values[key] = type(getattr(LadderConfig(), key))(raw)
    started = datetime.now(UTC)
    report = evaluate(args.path, args.budget or BUDGETS, args.limit, LadderConfig(**values), args.skip)
    report["wall_s"] = round((datetime.now(UTC) - started).total_seconds(), 1)
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
