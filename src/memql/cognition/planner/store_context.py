"""What a planner may know about the store: built through the engine with a read the store never
keeps (a dry run, so reading the context leaves no trace: no visits, no audit entry)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from memql.cognition.planner.base import PlanContext
from memql.engine.executor import Executor
from memql.lang import build

CONTEXT_RECORDS = 500  # the most recent records the context is drawn from
CONTEXT_TAGS = 200  # tags kept, most used first
CONTEXT_IDS = 20  # recent ids kept, newest first


def store_context(executor: Executor, *, records: int = CONTEXT_RECORDS) -> PlanContext:
    """The tenant's tags in use (most used first) and the combinations records carry, its recently
    written ids (newest first), its record kinds, and the session's clock."""
    now = executor.clock.now()
    result = executor.execute(
        build.retrieve(filter={"limit": records}, include=["id", "tags", "type", "created_at", "updated_at"]),
        dry_run=True,
    )
    rows: list[dict[str, Any]] = result.data.get("rows", []) if result.success else []
    tags: Counter[str] = Counter()
    first_seen: dict[str, int] = {}
    kinds: Counter[str] = Counter()
    for n, row in enumerate(rows):
        for tag in row.get("tags") or ():
            tags[tag] += 1
            first_seen.setdefault(tag, n)
        if row.get("type"):
            kinds[row["type"]] += 1
    combinations = [
        frozenset(row["tags"]) for row in rows if row.get("tags")
    ]  # one per record: counts matter
    recent = sorted(
        rows, key=lambda r: (r.get("updated_at") or r.get("created_at"), r.get("created_at")), reverse=True
    )
    return PlanContext(
        now=now,
        tags=tuple(sorted(tags, key=lambda t: (-tags[t], first_seen[t]))[:CONTEXT_TAGS]),
        recent_ids=tuple(str(r["id"]) for r in recent[:CONTEXT_IDS]),
        types=tuple(k for k, _ in kinds.most_common()),
        tag_sets=tuple(combinations[:CONTEXT_RECORDS]),
    )
