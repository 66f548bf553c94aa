"""The SQLite vector index: exact top-k within the query's conditions, kept consistent with the store."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memql.ports.store import Record, RecordQuery
from memql.store.sqlite import SQLiteStore

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


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    """300 records of tenant A with random unit vectors and tags t0..t4, plus tenant B's own records."""
    rng = np.random.default_rng(7)
    store = SQLiteStore(str(tmp_path_factory.mktemp("vec") / "v.db"))
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
    assert [r.id for r, _ in hits] == expected
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


def test_index_follows_updates_clears_deletes_expiry_and_status(tmp_path):
    rng = np.random.default_rng(3)
    store = SQLiteStore(str(tmp_path / "c.db"))
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


def test_a_second_connection_sees_vectors_written_by_the_first(tmp_path):
    rng = np.random.default_rng(5)
    path = str(tmp_path / "shared.db")
    writer, reader = SQLiteStore(path), SQLiteStore(path)
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
