"""`memql bench perf`, first-query part: the first hybrid Retrieve after a store is loaded and reopened.

A user loads N records with embeddings, closes the store and opens it again: how long does the first
search take, and the next ones? Any index the store builds lazily (a vector graph, a lexical index)
shows here as a first query far slower than the rest. Per size, one store in its default configuration
(``SQLiteStore(path)``, or a fresh PostgreSQL schema):

* ``load_s``: the records written, ``batch`` Encodes per workflow, or with ``bulk_load`` by bulk writes
  of 10,000 Encodes (``Memory.encode_many``: the same records, validated, audited and embedded as
  Encodes, in far fewer round trips -- a million on PostgreSQL); embeddings are computed on write by
  the bench embedder (``WordMeanEmbedder`` with random word vectors, so that a large load takes minutes,
  not hours of MiniLM); ``index_s``: a bulk load into PostgreSQL drops the HNSW index before it and
  builds it after it (``PostgresStore.ensure_vector_index``), this long (None otherwise);
  ``close_s``: closing the loaded store (it may save its indexes).
* ``open_s``: opening the store again; ``first_ms`` / ``first_cpu_ms``: its first hybrid Retrieve
  (k = 10, query vector given: computed before the timed region), wall time and CPU time (the calling
  thread's and the side thread's, memql.store.sqlite.side_thread); ``first_thread_cpu_ms``: the calling
  thread's alone (what the wall time comes to on idle cores); then ``after_p50_ms`` / ``after_p95_ms``
  (and ``after_cpu_*``, ``after_thread_cpu_*``) over the next queries.
* ``building_after_first``: whether the store was still building an index (a vector graph, the lexical
  index) in the background when the first answer came (SQLite; the answer did not wait for it);
  ``rss_peak_mib``: this process's peak.
* ``settled_p50_ms`` / ``settled_p95_ms`` (and ``settled_cpu_*``): the same queries again once the store's
  background builds are done (``settle_s``, the wait): hybrid Retrieve as a store that has been serving
  for a while answers it.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from memql import Memory
from memql.bench.perf import (
    BULK_LOAD,
    NOW,
    TENANT,
    corpus,
    in_folder,
    machine,
    memql_bulk_load,
    memql_load,
    percentile,
    search_queries,
)
from memql.bench.perf_baseline import side_cpu_s
from memql.bench.perf_dense import K, PrecomputedQueries, WordMeanEmbedder, _rss_mib
from memql.bench.stores import fresh_postgres, is_postgres
from memql.ports.progress import Progress, silent


def run(
    sizes: Sequence[int] = (100_000,),
    *,
    queries: int = 50,
    seed: int = 7,
    directory: str | Path | None = None,
    backend: str | None = None,
    batch: int = 100,
    progress: Progress | None = None,
    bulk_load: bool = False,
) -> dict[str, Any]:
    """Load each size into a store of its own, reopen it and time its first queries. `backend`: a
    postgresql:// URL (a new schema per size, dropped afterwards); otherwise SQLite files in
    `directory` (kept) or a temporary directory (removed). `bulk_load`: load by bulk writes of
    BULK_LOAD Encodes rather than workflows of `batch`."""
    sizes = sorted(set(sizes))
    if not sizes or sizes[0] <= 0 or queries <= 1 or batch <= 0:
        raise ValueError("sizes and batch must be positive, and queries at least 2")
    if backend is not None and not is_postgres(backend):
        raise ValueError(f"backend must be a postgresql:// URL, not {backend!r}")
    say = progress or silent
    started = time.perf_counter()
    report = in_folder(
        directory,
        "memql-perf-first-",
        lambda f: _run(f, sizes, queries, seed, backend, batch, say, bulk_load),
    )
    report["elapsed_s"] = round(time.perf_counter() - started, 2)
    return report


def _run(
    folder: Path,
    sizes: list[int],
    queries: int,
    seed: int,
    backend: str | None,
    batch: int,
    say: Progress,
    bulk_load: bool = False,
) -> dict[str, Any]:
    embedder = WordMeanEmbedder("random")
    notes = corpus(sizes[-1], seed)
    texts = search_queries(queries, seed + 1)  # not the dense part's queries: nothing here is warm
    embedder.learn([n.text for n in notes] + texts)
    timed = PrecomputedQueries(embedder, texts)
    blocks: dict[str, Any] = {}
    for size in sizes:
        if backend is None:
            path = folder / f"first-{size}.db"
            if path.exists():
                raise FileExistsError(f"{path} exists; use an empty directory")
            target: Any = str(path)
        else:
            made = fresh_postgres(backend, "first")
            target = made.url  # type: ignore[attr-defined]
            made.close()
        step = BULK_LOAD if bulk_load else batch
        blocks[str(size)] = _one(target, notes[:size], texts, embedder, timed, step, say, bulk_load)
        if backend is not None:
            _drop(target, embedder)
    return {
        "first_query": blocks,
        "settings": {
            "seed": seed,
            "queries": queries,
            "batch": BULK_LOAD if bulk_load else batch,
            "load": "bulk" if bulk_load else "workflows",
            "k": K,
            "embedder": embedder.model,
        },
        "backend": "postgresql" if backend else "sqlite",
        "machine": machine(),
    }


def _open(target: str, embedder: Any) -> Memory:
    from memql.store import open_store

    return Memory(open_store(target), tenant=TENANT, actor=TENANT, clock=NOW, embedder=embedder)


def _one(
    target: str,
    notes: Sequence[Any],
    texts: list[str],
    embedder: WordMeanEmbedder,
    timed: PrecomputedQueries,
    batch: int,
    say: Progress,
    bulk_load: bool = False,
) -> dict[str, Any]:
    task = (
        f"first query: load {len(notes)} records with embeddings, {'bulk writes' if bulk_load else 'batches'}"
    )
    say(task, 0, len(notes))
    loader = _open(target, embedder)
    load = memql_bulk_load if bulk_load else memql_load
    # a bulk load into PostgreSQL builds the HNSW graph once, after it: pgvector inserting each vector
    # into the graph held such a load to ~140 records/s here at 20,000 records, one build is several
    # times faster
    deferred = bulk_load and hasattr(loader.store, "drop_vector_index")
    if deferred:
        loader.store.drop_vector_index(embedder.dimension)  # type: ignore[attr-defined]
    began = time.perf_counter()
    load(loader, notes, batch, lambda done: say(task, done, len(notes)))
    load_s = time.perf_counter() - began
    index_s = None
    if deferred:
        say(f"first query: build the HNSW index of {len(notes)} vectors")
        began = time.perf_counter()
        loader.store.ensure_vector_index(embedder.dimension)  # type: ignore[attr-defined]
        index_s = round(time.perf_counter() - began, 3)
    began = time.perf_counter()
    loader.store.close()
    close_s = time.perf_counter() - began
    del loader
    gc.collect()
    say(f"first query: reopen at {len(notes)} records, {len(texts)} hybrid Retrieves")
    began = time.perf_counter()
    m = _open(target, timed)
    open_s = time.perf_counter() - began
    try:
        wall, cpu, own = _timed_retrieve(m, texts[0])
        building = _building(m)
        after = [_timed_retrieve(m, q) for q in texts[1:]]
        began = time.perf_counter()
        _settle(m)
        settle_s = time.perf_counter() - began
        settled = [_timed_retrieve(m, q) for q in texts[1:]]
    finally:
        m.store.close()
    return {
        "records": len(notes),
        "load_s": round(load_s, 3),
        "index_s": index_s,
        "close_s": round(close_s, 3),
        "open_s": round(open_s, 4),
        "first_ms": round(wall, 3),
        "first_cpu_ms": round(cpu, 3),
        "first_thread_cpu_ms": round(own, 3),
        "building_after_first": building,
        "after_p50_ms": round(percentile([w for w, _, _ in after], 50), 3),
        "after_p95_ms": round(percentile([w for w, _, _ in after], 95), 3),
        "after_cpu_p50_ms": round(percentile([c for _, c, _ in after], 50), 3),
        "after_cpu_p95_ms": round(percentile([c for _, c, _ in after], 95), 3),
        "after_thread_cpu_p50_ms": round(percentile([t for _, _, t in after], 50), 3),
        "after_thread_cpu_p95_ms": round(percentile([t for _, _, t in after], 95), 3),
        "settle_s": round(settle_s, 3),
        "settled_p50_ms": round(percentile([w for w, _, _ in settled], 50), 3),
        "settled_p95_ms": round(percentile([w for w, _, _ in settled], 95), 3),
        "settled_cpu_p50_ms": round(percentile([c for _, c, _ in settled], 50), 3),
        "settled_cpu_p95_ms": round(percentile([c for _, c, _ in settled], 95), 3),
        "rss_peak_mib": _rss_mib(),
    }


def _timed_retrieve(m: Memory, query: str) -> tuple[float, float, float]:
    """Wall and CPU milliseconds -- the CPU of the calling thread and of the side thread, which scores a
    large exact vector layer while the caller searches the graph (memql.store.sqlite.side_thread) -- and
    the calling thread's CPU alone (on idle cores, what the wall time comes to)."""
    side = side_cpu_s()
    wall, cpu = time.perf_counter(), time.thread_time()
    rows = m.retrieve(query=query, k=K).data["rows"]
    wall, own = (time.perf_counter() - wall) * 1000, (time.thread_time() - cpu) * 1000
    if not rows:
        raise RuntimeError(f"the first-query bench found nothing for {query!r}")
    return wall, own + (side_cpu_s() - side) * 1000, own


def _building(m: Memory) -> bool:
    """Whether an index build of this store's is running: a vector graph, or the lexical index (a SQLite
    store of this memql)."""
    caches = getattr(getattr(m.store, "vectors", None), "caches", {})
    lexical = getattr(getattr(m.store, "lexical", None), "preparing", None)
    return lexical is not None or any(getattr(c, "builder", None) is not None for c in caches.values())


def _settle(m: Memory) -> None:
    """Until the store's background builds are done: its vector graph (SQLite) and lexical index."""
    for index in (getattr(m.store, "vectors", None), getattr(m.store, "lexical", None)):
        wait = getattr(index, "wait", None)
        if wait is not None:
            wait()


def _drop(target: str, embedder: Any) -> None:
    m = _open(target, embedder)
    m.store.drop()  # type: ignore[attr-defined]
    m.store.close()
