"""A worker process for the PostgreSQL concurrency test: merges under contention (lineage), in one of
two tenants, with labels on the tenant's shared record (a read-modify-write of the tag list)."""

from __future__ import annotations

import random
import traceback
from typing import Any


def lineage_worker(
    db: str, worker: int, n_ops: int, shared: dict[str, str], seed: int, barrier: Any, results: Any
) -> None:
    failures: list[str] = []
    status: dict[str, str] = {}  # own record id -> status the worker's ops imply
    merges: list[tuple[str, str]] = []  # (child, primary)
    labels: list[str] = []
    try:
        from memql import Memory

        rng = random.Random(seed * 1000 + worker)
        tenant = f"L{worker % 2}"
        m = Memory(db, tenant=tenant, actor=f"worker{worker}")
        barrier.wait(timeout=60)
        for i in range(n_ops):
            live = sorted((rid for rid, s in status.items() if s == "active"), key=int)
            kind = rng.choices(["encode", "merge", "label"], [5, 3, 2])[0]
            if kind == "merge" and len(live) < 2:
                kind = "encode"
            try:
                if kind == "encode":
                    r = m.encode(f"worker {worker} note {i} on {rng.choice(['tea', 'maps', 'bells'])}")
                    if r.success:
                        status[r.id] = "active"
                elif kind == "merge":
                    a, b = sorted(rng.sample(live, 2), key=int)
                    r = m.merge([a, b])  # equal weights: the older record is the primary
                    if r.success:
                        status[b] = "deleted"
                        merges.append((b, a))
                else:
                    label = f"w{worker}-{i}"
                    r = m.label(shared[tenant], [label], mode="add")
                    if r.success:
                        labels.append(label)
                if not r.success:
                    failures.append(f"worker {worker} op {i} {kind}: {r.diagnostics}")
            except Exception:
                failures.append(f"worker {worker} op {i} {kind}: {traceback.format_exc()}")
        m.close()
    except Exception:
        failures.append(f"worker {worker}: {traceback.format_exc()}")
    results.put(
        {"worker": worker, "failures": failures, "status": status, "merges": merges, "labels": labels}
    )
