"""`memql bench perf`, hybrid part: memql's hybrid Retrieve beside the hybrid search an application would
write by hand with plain sqlite3 and numpy, on the same texts and the same vectors, in the same run.

The baseline (``memql.store.sqlite.baseline.RawHybrid``) holds the records in a second SQLite file with
the store's ``records`` / ``records_fts`` tables (the same rows and FTS body as perf's raw baseline) and
their vectors, computed by the bench embedder as memql's were, in one float32 matrix loaded before timing.
Per query: exact cosine by one matrix product and argpartition (top 10), FTS5's BM25 top 10 among the
tenant's live records, reciprocal-rank fusion, then the 10 chosen rows' text. Its MATCH expression and
query vector are prepared outside the timed region, as memql's query vector is (``PrecomputedQueries``).

memql's side is ``Memory.retrieve(query=q, k=10)`` on the store a default configuration would use at that
size (exact vectors below ``ANN_MIN_VECTORS``, HNSW from there on), so it also pays for what the baseline
does not do: validation, governance conditions, deeper candidate lists (50 per side, for fusion by
score), shaping by weight, recency and heat, explained scores, the visit and the audit entry. The two
alternate query by query; per size, under ``baseline``:

* ``memql_p50_ms`` / ``memql_p95_ms``, ``raw_p50_ms`` / ``raw_p95_ms``: wall time per query;
* ``*_cpu_p50_ms`` / ``*_cpu_p95_ms``: the calling thread's CPU time (``time.thread_time``), steadier on a
  shared machine (neither counts BLAS's helper threads, which both use for the matrix product);
* ``ratio_p50``, ``ratio_p95``, ``ratio_cpu_p50``: memql / baseline;
* ``overlap_at_10``: the share of memql's 10 records that the baseline also returned (the fusions differ:
  a sanity check that both search the same data, not a quality figure).

Sizes above ``BASELINE_MAX`` are not compared: the matrix alone would take 1.5 GB at a million records.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from memql.bench.perf import TENANT, Note, percentile, raw_rows
from memql.services.tokenize import fts_match_expression
from memql.store.sqlite.baseline import RawHybrid, RawSQLite
from memql.store.sqlite.vectors import SEARCH_SIDE

BASELINE_MAX = 100_000
K = 10
_BATCH = 1_000  # rows per transaction when loading the baseline's file (untimed)


def alternating(
    fns: tuple[Callable[[Any], Any], Callable[[Any], Any]],
    inputs: Sequence[Any],
    cpu: tuple[list[float], list[float]] | None = None,
) -> tuple[list[float], list[float], list[Any], list[Any]]:
    """Runs both functions on each input, first one first on even inputs and second first on odd ones, so
    that neither always follows the other (caches, background load); milliseconds and answers of each.
    `cpu` collects each call's CPU time in milliseconds: the calling thread's own and its search side
    thread's (`side_cpu_s`), without the time either waited for a core (nor other helper threads: BLAS's
    spin after a matrix product and would swell a process total; the one search that uses them, exact
    dense search, is undercounted)."""
    millis: tuple[list[float], list[float]] = ([], [])
    answers: tuple[list[Any], list[Any]] = ([], [])
    for i, item in enumerate(inputs):
        for side in (0, 1) if i % 2 == 0 else (1, 0):
            started, started_cpu = time.perf_counter(), time.thread_time() + side_cpu_s()
            answer = fns[side](item)
            millis[side].append((time.perf_counter() - started) * 1000)
            if cpu is not None:
                cpu[side].append((time.thread_time() + side_cpu_s() - started_cpu) * 1000)
            answers[side].append(answer)
    return millis[0], millis[1], answers[0], answers[1]


def side_cpu_s() -> float:
    """The CPU time the search side thread of this process's SQLite stores has taken so far
    (memql.store.sqlite.side_thread: work a search hands it, which the caller's thread time misses)."""
    return SEARCH_SIDE.cpu_s


class HybridBaseline:
    """The baseline's file and vectors, loaded alongside memql's store (untimed)."""

    def __init__(self, path: Path, embed: Callable[[list[str]], np.ndarray]) -> None:
        self.raw = RawSQLite(path)
        self.embed = embed
        self.blocks: list[np.ndarray] = []

    def load(self, notes: Sequence[Note]) -> None:
        """Insert the notes (the next ones in memql's order) and compute their vectors."""
        self.raw.insert(raw_rows(notes), _BATCH)
        self.blocks.append(np.asarray(self.embed([n.text for n in notes]), dtype=np.float32))

    def search(self) -> RawHybrid:
        """The hand-written hybrid search over what is loaded so far."""
        nums, matrix = self.raw.nums(), np.vstack(self.blocks)
        if len(nums) != len(matrix):
            raise RuntimeError(f"the baseline holds {len(nums)} rows but {len(matrix)} vectors")
        return RawHybrid(self.raw, nums, matrix)

    def close(self) -> None:
        self.raw.close()


def measure(
    memql_search: Callable[[str], list[str]],
    baseline: RawHybrid,
    queries: Sequence[str],
    vectors: Sequence[Sequence[float]],
) -> dict[str, float]:
    """memql's hybrid Retrieve (`memql_search`: a query's ids, best first) against the baseline, query by
    query alternating; inputs prepared before timing."""
    matches = [fts_match_expression(q) for q in queries]
    arrays = [np.asarray(v, dtype=np.float32) for v in vectors]

    def raw(i: int) -> list[str]:
        return [rid for rid, _ in baseline.search(TENANT, matches[i], arrays[i], K)]

    for i in range(min(3, len(queries))):  # warm-up: statement caches, the index's first catch-up
        memql_search(queries[i])
        raw(i)
    cpu: tuple[list[float], list[float]] = ([], [])
    memql_ms, raw_ms, memql_ids, raw_ids = alternating(
        (lambda i: memql_search(queries[i]), raw), range(len(queries)), cpu
    )
    out: dict[str, float] = {}
    for name, values in (("memql", memql_ms), ("raw", raw_ms), ("memql_cpu", cpu[0]), ("raw_cpu", cpu[1])):
        out[f"{name}_p50_ms"] = percentile(values, 50)
        out[f"{name}_p95_ms"] = percentile(values, 95)
    out["ratio_p50"] = out["memql_p50_ms"] / out["raw_p50_ms"]
    out["ratio_p95"] = out["memql_p95_ms"] / out["raw_p95_ms"]
    out["ratio_cpu_p50"] = out["memql_cpu_p50_ms"] / out["raw_cpu_p50_ms"]
    shared = [len(set(a) & set(b)) / max(1, len(a)) for a, b in zip(memql_ids, raw_ids, strict=True)]
    out["overlap_at_10"] = sum(shared) / len(shared)
    return {k: round(v, 4) for k, v in out.items()}
