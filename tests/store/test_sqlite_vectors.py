"""The SQLite vector index: exact top-k within the query's conditions, kept consistent with the store."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memql.ports.store import Record, RecordQuery
from memql.store.sqlite import SQLiteStore, query

NOW = datetime(2026, 3, 4, 10, 0, tzinfo=UTC)
DIM = 16
MODEL = "test-vectors"


def unit(rng: np.random.Generator) -> np.ndarray:
    v = rng.normal(size=DIM).astype(np.float32)
    return v / np.linalg.norm(v)


def put(session, tenant: str, text: str, vector: np.ndarray | None, **fields) -> str:
    record_id = session.insert(Record(tenant=tenant, text=text, created_at=NOW, updated_at=NOW, **fields))
    if vector is not None:
        session.update(
            tenant,
            record_id,
            {
                "embedding": vector.astype("<f4").tobytes(),
                "embedding_model": MODEL,
                "embedding_dim": DIM,
                "embedding_status": "ready",
            },
        )
    return record_id


MODES = ["exact", "hnsw"]  # both index paths answer every test


@pytest.fixture(scope="module", params=MODES)
def corpus(tmp_path_factory, request):
    """300 records of tenant A with random unit vectors and tags t0..t4, plus tenant B's own records."""
    rng = np.random.default_rng(7)
    store = SQLiteStore(str(tmp_path_factory.mktemp("vec") / "v.db"), vector_index=request.param)
    vectors: dict[str, np.ndarray] = {}
    tags: dict[str, str] = {}
    with store.transaction() as s:
        for i in range(300):
            tag = f"t{i % 5}"
            v = unit(rng)
            vectors[put(s, "A", f"a{i}", v, tags=[tag])] = v
            tags[str(i + 1)] = tag
        for i in range(50):
            put(s, "B", f"b{i}", unit(rng), tags=["t0"])
    return store, vectors, tags


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10_000), k=st.integers(1, 40), tag=st.sampled_from([None, "t0", "t3"]))
def test_dense_top_k_equals_brute_force_within_the_filter(corpus, seed, k, tag):
    store, vectors, tags = corpus
    q = unit(np.random.default_rng(seed))
    matching = [rid for rid in vectors if tag is None or tags[rid] == tag]
    expected = sorted(matching, key=lambda rid: -float(vectors[rid] @ q))
    expected = [rid for rid in expected if float(vectors[rid] @ q) > 0][:k]
    with store.transaction() as s:
        hits = s.dense("A", q, RecordQuery(has_tags=[tag] if tag else ()), k, MODEL)
    if store.vectors.mode == "exact":
        assert [r.id for r, _ in hits] == expected
    else:  # approximate (a graph built on several threads differs run to run): as many hits, all within
        # the filter, at most one of the exact best missed beyond a tenth, none better than exact
        assert len(hits) == len(expected) and {r.id for r, _ in hits} <= set(matching)
        assert len({r.id for r, _ in hits} & set(expected)) >= 0.9 * len(expected) - 1
        exact_scores = [float(vectors[rid] @ q) for rid in expected]
        assert all(s <= e + 1e-5 for (_, s), e in zip(hits, exact_scores, strict=True))
    assert all(r.tenant == "A" for r, _ in hits)
    for record, score in hits:
        assert score == pytest.approx(float(vectors[record.id] @ q), abs=1e-5)


def test_a_selective_filter_never_loses_matches_to_the_cut(corpus):
    """A record only faintly like the query is still found by its rare tag, though ~150 others are closer."""
    store, _, _ = corpus
    rng = np.random.default_rng(11)
    q = unit(rng)
    noise = unit(rng)
    noise = noise - (noise @ q) * q  # orthogonal to the query
    faint = 0.05 * q + noise / np.linalg.norm(noise)
    faint = faint / np.linalg.norm(faint)
    with store.dry_run() as s:
        rare = put(s, "A", "rare", faint, tags=["rare"])
        closer = sum(1 for r, score in s.dense("A", q, RecordQuery(), 400, MODEL) if score > float(faint @ q))
        assert closer > 100
        assert [r.id for r, _ in s.dense("A", q, RecordQuery(has_tags=["rare"]), 5, MODEL)] == [rare]


@pytest.mark.parametrize("mode", MODES)
def test_index_follows_updates_clears_deletes_expiry_and_status(tmp_path, mode):
    rng = np.random.default_rng(3)
    store = SQLiteStore(str(tmp_path / "c.db"), vector_index=mode)
    a, b = unit(rng), unit(rng)
    with store.transaction() as s:
        one = put(s, "A", "one", a)
        two = put(s, "A", "two", b)
        assert [r.id for r, _ in s.dense("A", a, RecordQuery(), 1, MODEL)] == [one]
        # a new vector for record one: it now answers b's query first
        s.update("A", one, {"embedding": b.astype("<f4").tobytes(), "embedding_model": MODEL})
        assert {r.id for r, _ in s.dense("A", b, RecordQuery(), 2, MODEL)} == {one, two}
        assert next(r.id for r, _ in s.dense("A", a, RecordQuery(), 1, MODEL)) in {one, two}
        # cleared (re-embedding pending): it scores nothing
        s.update("A", one, {"embedding": None, "embedding_status": "pending"})
        assert [r.id for r, _ in s.dense("A", b, RecordQuery(), 5, MODEL)] == [two]
        # soft-deleted, expired, hard-deleted: out of default reads
        s.update("A", two, {"status": "deleted"})
        assert s.dense("A", b, RecordQuery(), 5, MODEL) == []
        assert [r.id for r, _ in s.dense("A", b, RecordQuery(statuses=None), 5, MODEL)] == [two]
        three = put(s, "A", "three", b, expire_at=NOW - timedelta(seconds=1))
        assert s.dense("A", b, RecordQuery(not_expired_at=NOW), 5, MODEL) == []
        assert [r.id for r, _ in s.dense("A", b, RecordQuery(), 5, MODEL)] == [three]
        s.hard_delete("A", [three])
        assert s.dense("A", b, RecordQuery(), 5, MODEL) == []
        # another tenant's identical vector is never returned
        put(s, "B", "other", b)
        assert s.dense("A", b, RecordQuery(), 5, MODEL) == []


@pytest.mark.parametrize("mode", MODES)
def test_a_second_connection_sees_vectors_written_by_the_first(tmp_path, mode):
    rng = np.random.default_rng(5)
    path = str(tmp_path / "shared.db")
    writer, reader = SQLiteStore(path, vector_index=mode), SQLiteStore(path, vector_index=mode)
    v = unit(rng)
    with reader.transaction() as s:
        assert s.dense("A", v, RecordQuery(), 3, MODEL) == []  # builds the reader's cache (empty)
    with writer.transaction() as s:
        rid = put(s, "A", "written elsewhere", v)
    with reader.transaction() as s:
        assert [r.id for r, _ in s.dense("A", v, RecordQuery(), 3, MODEL)] == [rid]
    w = unit(rng)
    with writer.transaction() as s:
        s.update("A", rid, {"embedding": w.astype("<f4").tobytes(), "embedding_model": MODEL})
    with reader.transaction() as s:
        ((record, score),) = s.dense("A", w, RecordQuery(), 3, MODEL)
        assert record.id == rid and score == pytest.approx(1.0, abs=1e-5)


@pytest.mark.parametrize("mode", MODES)
def test_vectors_of_a_rolled_back_transaction_never_reach_the_shared_index(tmp_path, mode):
    """A search inside a transaction sees its own vectors; after the rollback, the next committed vectors
    (which reuse the same sequence values) are still found."""
    rng = np.random.default_rng(9)
    store = SQLiteStore(str(tmp_path / "r.db"), vector_index=mode)
    a, b = unit(rng), unit(rng)
    with store.transaction() as s:
        base = put(s, "A", "committed", a)
    with store.dry_run() as s:  # rolled back at the end
        ghost = put(s, "A", "never committed", b)
        s.update("A", base, {"embedding": b.astype("<f4").tobytes(), "embedding_model": MODEL})
        assert [r.id for r, _ in s.dense("A", b, RecordQuery(), 2, MODEL)][:1] in ([ghost], [base])
        assert {r.id for r, _ in s.dense("A", b, RecordQuery(), 2, MODEL)} == {ghost, base}
    with store.transaction() as s:
        ((record, score),) = s.dense("A", a, RecordQuery(), 5, MODEL)
        assert record.id == base and score == pytest.approx(1.0, abs=1e-5)  # its committed vector
    with store.transaction() as s:
        real = put(s, "A", "committed later", b)  # takes the sequence values the rollback gave back
    with store.transaction() as s:
        assert [r.id for r, _ in s.dense("A", b, RecordQuery(), 1, MODEL)] == [real]


def test_a_savepoint_rollback_inside_a_transaction_is_not_remembered(tmp_path):
    rng = np.random.default_rng(10)
    store = SQLiteStore(str(tmp_path / "s.db"), vector_index="hnsw")
    a = unit(rng)
    with store.transaction() as s:
        with s.scratch():
            put(s, "A", "previewed only", a)
            assert len(s.dense("A", a, RecordQuery(), 3, MODEL)) == 1
        assert s.dense("A", a, RecordQuery(), 3, MODEL) == []
        kept = put(s, "A", "kept", a)
        assert [r.id for r, _ in s.dense("A", a, RecordQuery(), 3, MODEL)] == [kept]


def test_auto_switches_to_hnsw_at_the_threshold(tmp_path, monkeypatch):
    from memql.store.sqlite import vectors

    monkeypatch.setattr(vectors, "ANN_MIN_VECTORS", 40)
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
    with store.transaction() as s:
        after = s.dense("A", q, RecordQuery(), 40, MODEL)
    assert cache.hnsw is not None and cache.exact is None and len(cache) == 40
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
    store.close()  # saves the graph beside the file
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


@pytest.mark.parametrize("mode", MODES)
def test_a_readers_clearance_applies_inside_both_searches(tmp_path, mode):
    rng = np.random.default_rng(15)
    store = SQLiteStore(str(tmp_path / "c.db"), vector_index=mode)
    v = unit(rng)
    with store.transaction() as s:
        levels = {
            put(s, "A", f"note {level}", v, sensitivity=level): level
            for level in ("standard", "sensitive", "restricted")
        }
    with store.transaction() as s:
        for allowed in (("standard",), ("standard", "sensitive"), ()):
            q = RecordQuery(sensitivities=allowed)
            dense = {levels[r.id] for r, _ in s.dense("A", v, q, 5, MODEL)}
            lexical = {levels[r.id] for r, _ in s.find("A", replace(q, text_query="note"))}
            assert dense == lexical == set(allowed)


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
