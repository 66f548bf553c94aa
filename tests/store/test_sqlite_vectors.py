"""SQLite-specific search behaviour: the vector index's modes (auto switch, HNSW snapshots, the exact fallback
for selective filters) and the lexical window. What every backend must do is in memql.testing."""

from __future__ import annotations

import numpy as np
import pytest

from memql.ports.store import RecordQuery
from memql.store.sqlite import SQLiteStore, query
from memql.testing.sample import MODEL, put, unit  # the conformance suite's record and vector helpers
from memql.testing.store import fill

MODES = ["exact", "hnsw"]  # both index paths answer every test


@pytest.fixture(scope="module", params=MODES)
def corpus(tmp_path_factory, request):
    store = SQLiteStore(str(tmp_path_factory.mktemp("vec") / "v.db"), vector_index=request.param)
    return store, *fill(store)


def test_auto_switches_to_hnsw_at_the_threshold(tmp_path, monkeypatch):
    from memql.store.sqlite import vector_cache

    monkeypatch.setattr(vector_cache, "ANN_MIN_VECTORS", 40)
    rng = np.random.default_rng(12)
    store = SQLiteStore(str(tmp_path / "a.db"))  # "auto"
    with store.transaction() as s:
        ids = [put(s, "A", f"r{i}", unit(rng)) for i in range(39)]
    q = unit(rng)
    with store.transaction() as s:
        before = [r.id for r, _ in s.dense("A", q, RecordQuery(), 5, MODEL)]
    cache = store.vectors.caches[("A", MODEL)]
    assert cache.hnsw is None and len(cache) == 39
    with store.transaction() as s:
        ids.append(put(s, "A", "the fortieth", unit(rng)))
    store.vectors.wait()  # the graph is built in a thread of its own
    with store.transaction() as s:
        after = s.dense("A", q, RecordQuery(), 40, MODEL)
    assert cache.hnsw is not None and cache.frozen is None and len(cache.tail) == 0 and len(cache) == 40
    assert [r.id for r, _ in after][:5] == before or ids[-1] in [r.id for r, _ in after][:5]


def test_the_hnsw_graph_is_saved_and_reopened_without_a_rebuild(tmp_path):
    rng = np.random.default_rng(13)
    path = tmp_path / "p.db"
    store = SQLiteStore(str(path), vector_index="hnsw")
    vectors = {}
    with store.transaction() as s:
        for i in range(50):
            v = unit(rng)
            vectors[put(s, "A", f"r{i}", v)] = v
    q = unit(rng)
    with store.transaction() as s:
        first = [r.id for r, _ in s.dense("A", q, RecordQuery(), 5, MODEL)]
    store.vectors.wait()
    store.close()  # the graph was saved beside the file when built
    (snapshot,) = (tmp_path / "p.db.vectors").glob("*.usearch")
    reopened = SQLiteStore(str(path), vector_index="hnsw")
    with reopened.transaction() as s:
        late = put(s, "A", "written after the snapshot", q)
    with reopened.transaction() as s:
        hits = [r.id for r, _ in s.dense("A", q, RecordQuery(), 6, MODEL)]
    cache = reopened.vectors.caches[("A", MODEL)]
    assert cache.seq > int(snapshot.name.rsplit(".", 2)[-2])  # loaded, then caught up
    assert hits == [late, *first]
    reopened.close()


def test_a_snapshot_of_another_store_at_the_same_path_is_ignored(tmp_path):
    rng = np.random.default_rng(14)
    path = tmp_path / "x.db"
    old = SQLiteStore(str(path), vector_index="hnsw")
    with old.transaction() as s:
        for i in range(20):
            put(s, "A", f"old{i}", unit(rng))
    with old.transaction() as s:
        s.dense("A", unit(rng), RecordQuery(), 1, MODEL)
    old.close()
    for suffix in ("", "-wal", "-shm"):
        (tmp_path / f"x.db{suffix}").unlink(missing_ok=True)
    fresh = SQLiteStore(str(path), vector_index="hnsw")  # a new store where the old one was
    v = unit(rng)
    with fresh.transaction() as s:
        rid = put(s, "A", "new", v)
    with fresh.transaction() as s:
        assert [r.id for r, _ in s.dense("A", v, RecordQuery(), 5, MODEL)] == [rid]
    assert len(fresh.vectors.caches[("A", MODEL)]) == 1


def test_a_filter_few_neighbours_pass_is_ranked_exactly(corpus, monkeypatch):
    """With the widening capped at the first window, the HNSW path falls back to exact ranking of the
    records that match: still every match, in the exact order."""
    from memql.store.sqlite import vectors as module

    store, vectors, tags = corpus
    monkeypatch.setattr(module, "ANN_MAX_WINDOW", module.FIRST_WINDOW)
    q = unit(np.random.default_rng(99))
    matching = [rid for rid in vectors if tags[rid] == "t4"]
    expected = [rid for rid in sorted(matching, key=lambda r: -float(vectors[r] @ q)) if vectors[rid] @ q > 0]
    with store.transaction() as s:
        hits = s.dense("A", q, RecordQuery(has_tags=["t4"]), 25, MODEL)
    assert [r.id for r, _ in hits] == expected[:25]


def test_lexical_search_widens_past_matches_the_query_excludes(tmp_path):
    """The index's best matches belong to another tenant or fail the filter: the window widens (or falls
    back to one query over every match) until the limit is met, in the same order as without a window."""
    store = SQLiteStore(str(tmp_path / "l.db"))
    with store.transaction() as s:
        for i in range(190):  # strong matches elsewhere: another tenant, or the wrong tag
            put(s, "B" if i % 2 else "A", "harbor harbor harbor lantern", None, tags=["other"])
        # only 10 of these fit in the first window of 200: it has to widen
        mine = [put(s, "A", f"harbor note {i} " + "x " * (i % 7), None, tags=["mine"]) for i in range(30)]
        for _ in range(20):  # exact ties: identical texts and weights
            put(s, "A", "beacon tied", None, tags=["tie"])
    with store.transaction() as s:
        q = RecordQuery(text_query="harbor lantern", has_tags=["mine"], order="relevance", limit=12)
        windowed = [(r.id, score) for r, score in s.find("A", q)]
        assert len(windowed) == 12 and {rid for rid, _ in windowed} <= set(mine)
        sql, params = query.build("A", q)  # one query over every match: the reference order
        assert windowed == [(str(row["num"]), row["score"]) for row in s.conn.execute(sql, params)]
        ties = RecordQuery(text_query="beacon tied", has_tags=["tie"], order="relevance", limit=5)
        sql, params = query.build("A", ties)
        expected = [str(row["num"]) for row in s.conn.execute(sql, params)]
        assert [r.id for r, _ in s.find("A", ties)] == expected


def test_the_graph_path_answers_as_if_every_candidate_of_its_window_were_checked(tmp_path, monkeypatch):
    """The first window's conditions are checked best first until k pass, and a large exact layer is
    scored on the side thread while the graph is searched: the answer (ids, scores, order) is the one
    checking all of the window on one thread gives, with and without filters."""
    from memql.store.sqlite import vector_cache
    from memql.store.sqlite import vectors as module

    rng = np.random.default_rng(21)
    store = SQLiteStore(str(tmp_path / "g.db"), vector_index="hnsw")
    with store.transaction() as s:
        for i in range(300):
            put(s, "A", f"a{i}", unit(rng), tags=[f"t{i % 5}"])
    with store.transaction() as s:
        s.dense("A", unit(rng), RecordQuery(), 1, MODEL)
    store.vectors.wait()  # a graph of the 300
    monkeypatch.setattr(vector_cache.VectorCache, "build_due", lambda self: False)  # kept apart
    with store.transaction() as s:  # and an exact layer beside it
        for i in range(120):
            put(s, "A", f"b{i}", unit(rng), tags=[f"t{i % 5}"], status="archived" if i % 7 == 0 else "active")
    queries = [unit(rng) for _ in range(12)]
    filters = [RecordQuery(statuses=("active",)), RecordQuery(has_tags=["t2"]), RecordQuery(has_tags=["t9"])]

    def answers() -> list[list[tuple[str, float]]]:
        out = []
        with store.read() as s:
            for q in queries:
                for f in filters:
                    for k in (3, 10, 40):
                        out.append([(r.id, score) for r, score in s.dense("A", q, f, k, MODEL)])
        return out

    def check_all(check, tenant, q, k, fresh):
        matched = check(tenant, q, [n for n, _ in fresh])
        return [(n, s, matched[n]) for n, s in fresh if n in matched]

    monkeypatch.setattr(module, "SIDE_THREAD_MIN_ROWS", 1)
    fast = answers()
    monkeypatch.setattr(module, "SIDE_THREAD_MIN_ROWS", 10**9)
    monkeypatch.setattr(module, "_best_passing", check_all)
    assert fast == answers()
    assert module.SEARCH_SIDE.cpu_s > 0  # the side thread did score the exact layer
    assert len(store.vectors.caches[("A", MODEL)].tail) == 120
    store.close()
