"""Evidence recall of the tiers strategy on LoCoMo (categories 1-4), through its observe() path.

    python scripts/tiers_locomo.py [--data FILE] [--budget 2000] [--embedder none|minilm] [--fill] [--limit N]

Each conversation goes into a fresh in-memory store: every turn is stored as a message record (the shared
conventions) and observed by Tiers; then each question's context(question, budget) is scored by the share
of its evidence dia_ids among context.source_ids. Nothing here looks at the questions before answering.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections import defaultdict
from datetime import timedelta

from memql.bench import locomo
from memql.bench.conversation import encode_message
from memql.bench.corpus import default_shared_dir
from memql.cognition.conversation.tiers import Tiers, TiersConfig
from memql.memory import Memory
from memql.ports.clock import FixedClock


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", default=str(default_shared_dir() / "data" / "locomo-dev.json"))
    parser.add_argument("--budget", type=int, default=2000)
    parser.add_argument("--embedder", default="none")
    parser.add_argument("--fill", action="store_true", help="TiersConfig(fill_budget=True)")
    parser.add_argument("--limit", type=int, default=None)
    args = parser.parse_args()
    conversations, _ = locomo.load(args.data, args.limit)
    config = TiersConfig(fill_budget=args.fill)
    by_cat: dict[int, list[float]] = defaultdict(list)
    tokens: list[int] = []
    ingest_s = 0.0
    turns = 0
    for conv in conversations:
        clock = FixedClock(conv.turns[0].time)
        with Memory(
            ":memory:", tenant="locomo", actor="bench", clock=clock, embedder=args.embedder
        ) as memory:
            tiers = Tiers(memory, conv.sample_id, config)
            began = time.perf_counter()
            for i, turn in enumerate(conv.turns):
                clock.set(turn.time)
                text = turn.text.strip() + (f" [shares a photo: {turn.caption}]" if turn.caption else "")
                message = encode_message(
                    memory, conv.sample_id, turn.speaker, text, turn.time, (turn.dia_id,), i
                )
                tiers.observe(message)
            ingest_s += time.perf_counter() - began
            turns += len(conv.turns)
            clock.set(conv.turns[-1].time + timedelta(days=1))
            for q in conv.questions:
                if q.category not in locomo.HEADLINE:
                    continue
                context = tiers.context(q.question, args.budget)
                recall = locomo.recall_at(q, context.source_ids, 10**9)
                if recall is not None:
                    by_cat[q.category].append(recall)
                    tokens.append(context.tokens)
                assert context.tokens <= args.budget
            print(f"{conv.sample_id}: {tiers.stats}", flush=True)
    headline = [r for c in locomo.HEADLINE for r in by_cat[c]]
    print(
        json.dumps(
            {
                "recall": round(statistics.mean(headline), 4),
                "by_category": {
                    locomo.CATEGORIES[c]: round(statistics.mean(v), 4) for c, v in sorted(by_cat.items())
                },
                "questions": len(headline),
                "context_tokens": round(statistics.mean(tokens), 1),
                "budget": args.budget,
                "embedder": args.embedder,
                "fill_budget": args.fill,
                "ingest_turns_per_s": round(turns / ingest_s, 1),
            }
        )
    )


if __name__ == "__main__":
    main()
