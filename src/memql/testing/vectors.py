"""The Store port's contract for path vectors and signed search: a record with path vectors
(Record.path_embeddings, one unit vector per text of a record with several index paths) is scored by its
best one, across connections and through updates, clears and hard deletes, and only within its tenant; a
signed dense search returns every vector's cosine, negative ones too, where the default returns only
positive ones.

Tests of the conformance suite (see memql.testing): they run on the stores the `store_factory` fixture
opens.
"""

from __future__ import annotations

import numpy as np

from memql.ports.store import RecordQuery
from memql.testing import StoreFactory
from memql.testing.sample import MODEL, put, unit

__all__ = [
    "test_a_record_scores_its_best_path_vector",
    "test_a_signed_search_returns_negative_cosines",
]


def _with_paths(session, tenant: str, text: str, main: np.ndarray, paths: list[np.ndarray]) -> str:
    record_id = put(session, tenant, text, main)
    session.update(tenant, record_id, {"path_embeddings": np.stack(paths).astype("<f4").tobytes()})
    return record_id


def _dense(
    store, q: np.ndarray, k: int = 10, signed: bool = False, tenant: str = "A"
) -> list[tuple[str, float]]:
    with store.transaction() as s:
        return [(r.id, round(score, 5)) for r, score in s.dense(tenant, q, RecordQuery(), k, MODEL, signed)]


def test_a_record_scores_its_best_path_vector(store_factory: StoreFactory) -> None:
    rng = np.random.default_rng(3)
    q, near, far = unit(rng), unit(rng), unit(rng)
    store = store_factory()
    with store.transaction() as s:
        plain = put(s, "A", "plain", (q + far) / np.linalg.norm(q + far))
        paths = _with_paths(s, "A", "paths", far, [far, q])  # its main vector is not searched
        put(s, "B", "another tenant's", q)
    hits = _dense(store, q)
    assert hits[0] == (paths, 1.0) and [rid for rid, _ in hits] == [paths, plain]
    other = store_factory.reopen(store)  # a second connection catches up on them
    assert _dense(other, q) == hits
    assert _dense(store, far)[0] == (paths, 1.0)
    with store.transaction() as s:  # cleared with the embedding, as the engine clears them
        s.update("A", paths, {"embedding": None, "path_embeddings": None, "embedding_status": "pending"})
    assert [rid for rid, _ in _dense(store, q)] == [plain]
    assert [rid for rid, _ in _dense(other, q)] == [plain]
    with store.transaction() as s:
        s.update(
            "A",
            paths,
            {
                "embedding": far.astype("<f4").tobytes(),
                "embedding_status": "ready",
                "path_embeddings": np.stack([near, q]).astype("<f4").tobytes(),
            },
        )
        assert s.dense("A", q, RecordQuery(), 1, MODEL)[0][0].id == paths  # its own write, in the transaction
    with store.transaction() as s:
        s.hard_delete("A", [paths])
    assert [rid for rid, _ in _dense(other, q)] == [plain]
    other.close()
    store.close()


def test_a_signed_search_returns_negative_cosines(store_factory: StoreFactory) -> None:
    rng = np.random.default_rng(4)
    q = unit(rng)
    store = store_factory()
    with store.transaction() as s:
        opposite = put(s, "A", "opposite", -q)
        mixed = _with_paths(s, "A", "mixed", -q, [-q, q])
        both_away = _with_paths(s, "A", "away", -q, [-q, -q])
        put(s, "A", "not embedded", None)
    assert _dense(store, -q) == [(opposite, 1.0), (mixed, 1.0), (both_away, 1.0)]
    assert _dense(store, q) == [(mixed, 1.0)]  # by default only positive cosines are matches
    assert _dense(store, q, signed=True) == [(mixed, 1.0), (opposite, -1.0), (both_away, -1.0)]
    store.close()
