"""The SQLite vector index builds its HNSW graph off the query path (memql.store.sqlite.vector_cache):
searches answer exactly while a build runs, stay exact through the swap, never see a rolled-back vector,
see other connections' writes, and a close during a build leaves only snapshots that are true.

Builds are held at their start by a hook the test controls (an Event), never by timing."""

from __future__ import annotations

import os
import sys
import threading

import numpy as np
import pytest

from memql.ports.store import RecordQuery
from memql.store.sqlite import SQLiteStore, vector_cache
from memql.testing.sample import MODEL, put, unit

THRESHOLD = 300  # ANN_MIN_VECTORS for these tests


class Gate:
    """Holds every build at its start until opened; says when one is waiting."""

    def __init__(self) -> None:
        self.open, self.waiting = threading.Event(), threading.Event()
        self.niceness: int | None = None

    def __call__(self, cache: vector_cache.VectorCache) -> None:
        if sys.platform.startswith("linux"):
            self.niceness = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
        self.waiting.set()
        assert self.open.wait(120), "the test never let the build go"


@pytest.fixture
def gate(monkeypatch):
    held = Gate()
    monkeypatch.setattr(vector_cache, "BUILD_HOOK", held)
    monkeypatch.setattr(vector_cache, "ANN_MIN_VECTORS", THRESHOLD)
    monkeypatch.setattr(vector_cache, "EXACT_SNAPSHOT_MIN", 100)
    yield held
    held.open.set()  # a test that failed early leaves no thread waiting


def _load(store: SQLiteStore, rng: np.random.Generator, count: int, start: int = 0) -> list[str]:
    with store.transaction() as s:
        return [put(s, "A", f"r{start + i}", unit(rng)) for i in range(count)]


def _top(store: SQLiteStore, q: np.ndarray, k: int = 10, query: RecordQuery | None = None) -> list:
    with store.read() as s:
        return [(r.id, score) for r, score in s.dense("A", q, query or RecordQuery(), k, MODEL)]


def _same(found: list, expected: list) -> None:
    """The same records in the same order, with the same cosines (the graph computes them its own way)."""
    assert [rid for rid, _ in found] == [rid for rid, _ in expected]
    assert np.allclose([s for _, s in found], [s for _, s in expected], atol=1e-5)


def _agree(store: SQLiteStore, reference: SQLiteStore, queries: list[np.ndarray]) -> None:
    for q in queries:
        _same(_top(store, q), _top(reference, q))
        tagged = RecordQuery(has_tags=["even"])
        _same(_top(store, q, 7, tagged), _top(reference, q, 7, tagged))


def _cache(store: SQLiteStore) -> vector_cache.VectorCache:
    return store.vectors.caches[("A", MODEL)]


def test_the_first_search_past_the_threshold_answers_exactly_while_the_graph_is_built(tmp_path, gate):
    rng = np.random.default_rng(1)
    path = str(tmp_path / "v.db")
    store, exact = SQLiteStore(path), SQLiteStore(path, vector_index="exact")
    with store.transaction() as s:
        for i in range(THRESHOLD + 100):
            put(s, "A", f"r{i}", unit(rng), tags=["even"] if i % 2 == 0 else ["odd"])
    queries = [unit(rng) for _ in range(5)]
    with store.transaction() as s:  # another tenant's records, closest of all: never in tenant A's answers
        others = {put(s, "B", f"b{i}", q) for i, q in enumerate(queries)}
    assert gate.waiting.wait(60)  # the write's catch-up started a build, held at its start
    cache = _cache(store)
    assert cache.graph is None and cache.builder is not None and cache.builder.is_alive()
    if sys.platform.startswith("linux"):  # the build yields the cores to searches
        assert gate.niceness >= vector_cache.BUILD_NICENESS
    _agree(store, exact, queries)  # answered while the build waits: off the query path, exactly
    assert cache.graph is None and len(cache.frozen) == THRESHOLD + 100
    gate.open.set()
    store.vectors.wait()
    assert cache.graph is not None and cache.frozen is None and len(cache) == THRESHOLD + 100
    _agree(store, exact, queries)  # the graph answers the same (a small graph, searched broadly)
    assert not others & {rid for q in queries for rid, _ in _top(store, q)}
    store.close()
    exact.close()


def test_writes_replacements_and_clears_during_a_build_stay_exact_through_the_swap(tmp_path, gate):
    rng = np.random.default_rng(2)
    path = str(tmp_path / "v.db")
    store, exact = SQLiteStore(path), SQLiteStore(path, vector_index="exact")
    ids = _load(store, rng, THRESHOLD)
    assert gate.waiting.wait(60)
    queries = [unit(rng) for _ in range(5)]
    with store.transaction() as s:
        later = [put(s, "A", f"late{i}", unit(rng)) for i in range(40)]
        s.update("A", ids[0], {"embedding": queries[0].astype("<f4").tobytes()})  # now the best match
        s.update("A", ids[1], {"embedding": None, "embedding_status": "pending"})  # no longer searchable
    _top(store, queries[0])  # the search catches up: the changes go to the tail, over the frozen layer
    cache = _cache(store)
    assert cache.graph is None and len(cache.tail) >= 41 and cache.frozen is not None
    _agree(store, exact, queries)
    assert _top(store, queries[0], 1)[0][0] == ids[0]
    gate.open.set()
    store.vectors.wait()
    assert cache.graph is not None
    _agree(store, exact, queries)  # the graph holds the old vectors of ids[0] and ids[1]: the tail wins
    with store.read() as s:  # signed: every searchable vector, whichever way it points
        hits = {r.id for r, _ in s.dense("A", queries[1], RecordQuery(), 1000, MODEL, signed=True)}
    assert ids[1] not in hits and set(later) <= hits and len(hits) == THRESHOLD + 40 - 1
    store.close()
    exact.close()


def test_a_rolled_back_transaction_during_a_build_never_reaches_the_index(tmp_path, gate):
    rng = np.random.default_rng(3)
    path = str(tmp_path / "v.db")
    store, exact = SQLiteStore(path), SQLiteStore(path, vector_index="exact")
    _load(store, rng, THRESHOLD)
    assert gate.waiting.wait(60)
    q = unit(rng)
    with pytest.raises(RuntimeError), store.transaction() as s:
        doomed = put(s, "A", "rolled back", q)
        assert _top_in(s, q)[0] == doomed  # its own transaction sees it (the overlay)
        raise RuntimeError("roll back")
    kept = _load(store, rng, 5, start=THRESHOLD)
    assert doomed in kept or _top(store, q)[0][0] != doomed  # a reused number holds another vector
    gate.open.set()
    store.vectors.wait()
    cache = _cache(store)
    keys, matrix = cache.lookup([int(doomed)])
    assert not len(keys) or not np.allclose(matrix[0], q)
    _agree(store, exact, [q, unit(rng)])
    store.close()
    exact.close()


def _top_in(session, q: np.ndarray) -> list[str]:
    return [r.id for r, _ in session.dense("A", q, RecordQuery(), 3, MODEL)]


def test_another_connections_writes_during_a_build_are_seen(tmp_path, gate):
    """A second store object on the file stands for another process: its own connection and caches."""
    rng = np.random.default_rng(4)
    path = str(tmp_path / "v.db")
    store, other, exact = SQLiteStore(path), SQLiteStore(path), SQLiteStore(path, vector_index="exact")
    _load(store, rng, THRESHOLD)
    assert gate.waiting.wait(60)
    _top(store, unit(rng))
    q = unit(rng)
    theirs = _load(other, rng, 30, start=THRESHOLD)
    with other.transaction() as s:
        s.update("A", theirs[0], {"embedding": q.astype("<f4").tobytes()})
    assert _top(store, q, 1)[0][0] == theirs[0]
    _agree(store, exact, [q, unit(rng)])
    gate.open.set()
    store.vectors.wait()
    assert _cache(store).graph is not None
    _agree(store, exact, [q, unit(rng)])
    for s in (store, other, exact):
        s.close()


def test_close_during_a_build_publishes_nothing_and_a_reopened_store_starts_from_true_snapshots(
    tmp_path, gate
):
    rng = np.random.default_rng(5)
    path = str(tmp_path / "v.db")
    store = SQLiteStore(path)
    _load(store, rng, THRESHOLD + 50)
    assert gate.waiting.wait(60)
    cache = _cache(store)
    builder = cache.builder
    store.close()  # the build is held: close does not wait for it
    gate.open.set()
    builder.join(120)
    assert not builder.is_alive() and cache.graph is None  # finished, and discarded
    files = sorted(p.name for p in (tmp_path / "v.db.vectors").iterdir())
    assert not [f for f in files if f.endswith(".usearch")]  # no graph was saved after close
    assert [f for f in files if f.endswith(".exact.npy")]  # the vectors were, for a quick reopen
    reopened, exact = SQLiteStore(path), SQLiteStore(path, vector_index="exact")
    with exact.transaction() as s:  # a change after the snapshot: the reopened store must see it
        changed = s.conn.execute("SELECT num FROM records ORDER BY num LIMIT 1").fetchone()[0]
        q = unit(rng)
        s.update("A", str(changed), {"embedding": q.astype("<f4").tobytes()})
    assert _top(reopened, q, 1)[0][0] == str(changed)
    again = _cache(reopened)
    assert again.frozen is not None and len(again.frozen) == THRESHOLD + 50  # from the snapshot
    _agree(reopened, exact, [q, unit(rng)])
    gate.open.set()
    reopened.vectors.wait()
    assert again.graph is not None
    _agree(reopened, exact, [q, unit(rng)])
    reopened.close()
    exact.close()


def test_a_store_loaded_by_one_process_answers_the_next_ones_first_search_from_its_snapshot(tmp_path, gate):
    """The writer's background catch-up builds the graph while it loads, and saves it: a process
    opening the store afterwards reads no vector row and builds nothing before its first answer."""
    gate.open.set()
    rng = np.random.default_rng(6)
    path = str(tmp_path / "v.db")
    loader = SQLiteStore(path)
    for start in range(0, THRESHOLD + 200, 100):
        _load(loader, rng, 100, start=start)
    loader.vectors.wait()
    assert _cache(loader).graph is not None  # built though the loader never searched
    loader.close()
    reopened, exact = SQLiteStore(path), SQLiteStore(path, vector_index="exact")
    q = unit(rng)
    _same(_top(reopened, q), _top(exact, q))
    cache = _cache(reopened)
    # no row was read (rows read land in the tail): the graph and the exact part since it were opened
    assert cache.graph is not None and len(cache.tail) == 0 and len(cache) == THRESHOLD + 200
    reopened.close()
    exact.close()


def test_a_reopened_store_below_the_threshold_stays_exact_until_it_reaches_it(tmp_path, gate):
    """Mode "auto" wants no graph below ANN_MIN_VECTORS: the exact snapshot a store saved at close is
    searched as it is after a reopen, and merged into a graph only once the vectors reach the threshold."""
    gate.open.set()
    rng = np.random.default_rng(7)
    path = str(tmp_path / "v.db")
    loader = SQLiteStore(path)
    _load(loader, rng, THRESHOLD - 50)
    loader.vectors.wait()  # absorbed (a close stops the catch-up where it is)
    loader.close()
    assert [p for p in (tmp_path / "v.db.vectors").iterdir() if p.name.endswith(".exact.npy")]
    reopened, exact = SQLiteStore(path), SQLiteStore(path, vector_index="exact")
    q = unit(rng)
    _same(_top(reopened, q), _top(exact, q))
    reopened.vectors.wait()
    cache = _cache(reopened)
    assert cache.graph is None and cache.builder is None and len(cache.frozen) == THRESHOLD - 50
    _load(reopened, rng, 60, start=THRESHOLD)  # now past the threshold: the catch-up starts the merge
    reopened.vectors.wait()
    assert cache.graph is not None and len(cache) == THRESHOLD + 10
    _same(_top(reopened, q), _top(exact, q))
    reopened.close()
    exact.close()


def test_the_opener_maps_the_snapshots_and_a_due_merge_starts_once_the_first_read_has_answered(
    tmp_path, gate
):
    """SQLiteStore.prepare (Memory calls it) opens the graph and the exact layer and starts nothing; the
    first search finds the merge due and starts it when its read ends, so the answer never shares the
    cores with the merge's first steps."""
    gate.open.set()
    rng = np.random.default_rng(8)
    path = str(tmp_path / "v.db")
    loader = SQLiteStore(path)
    _load(loader, rng, THRESHOLD + 20)
    loader.vectors.wait()
    assert _cache(loader).graph is not None
    _load(loader, rng, 120, start=THRESHOLD + 20)  # fewer than MERGE_MIN: saved as an exact layer
    loader.vectors.wait()
    loader.close()
    gate.open.clear()  # hold the merge of the reopened store
    reopened, exact = SQLiteStore(path), SQLiteStore(path, vector_index="exact")
    reopened.prepare("A", MODEL)
    cache = _cache(reopened)
    assert cache.graph is not None and len(cache.frozen) == 120 and cache.builder is None
    q = unit(rng)
    with reopened.read() as s:
        found = [(r.id, score) for r, score in s.dense("A", q, RecordQuery(), 10, MODEL)]
        assert cache.builder is None  # due, not started: the read has not answered yet
    _same(found, _top(exact, q))
    assert gate.waiting.wait(60)  # started when the read ended
    gate.open.set()
    reopened.vectors.wait()
    assert cache.frozen is None and len(cache.graph) == THRESHOLD + 140
    reopened.close()
    exact.close()


def _waited(store: SQLiteStore) -> None:
    waiting = threading.Thread(target=store.vectors.wait, daemon=True)
    waiting.start()
    waiting.join(120)
    assert not waiting.is_alive(), "the builds never ended"


def test_snapshots_that_cannot_be_written_cost_a_warning_not_a_build_a_search_or_a_close(
    tmp_path, gate, caplog
):
    rng = np.random.default_rng(9)
    path = str(tmp_path / "v.db")
    (tmp_path / "v.db.vectors").write_text("a file in the way of the snapshots: none is written")
    store, exact = SQLiteStore(path), SQLiteStore(path, vector_index="exact")
    _load(store, rng, THRESHOLD + 50)
    gate.open.set()
    _waited(store)  # (a build whose failed save ended its thread was never done: `wait` spun for ever)
    cache = _cache(store)
    assert cache.graph is not None and cache.builder is None  # built and published; no snapshot saved
    _load(store, rng, THRESHOLD, start=THRESHOLD + 50)  # the next build is not held up by the first
    _top(store, unit(rng))
    _waited(store)
    assert cache.builder is None and len(cache) == 2 * THRESHOLD + 50
    queries = [unit(rng) for _ in range(3)]
    _agree(store, exact, queries)
    store.close()  # its exact layer cannot be saved either
    exact.close()
    said = [r.getMessage() for r in caplog.records if r.name == "memql"]
    assert any("could not write a vector graph's snapshot" in m for m in said), said
    assert (tmp_path / "v.db.vectors").is_file()
