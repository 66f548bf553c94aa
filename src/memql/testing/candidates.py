"""The Store port's contract for a search's candidates (find_candidates, dense_candidates): the same records,
scores and order as find and dense, with each record's weight, event time (else creation time), visits and
last access — the caller's pending visits included, in a read transaction as in a write transaction.

Tests of the conformance suite (see memql.testing): they run on the stores the `store_factory` fixture
opens.
"""

from __future__ import annotations

from datetime import timedelta

import numpy as np
import pytest

from memql.ports.record import Record
from memql.ports.store import Access, Candidate, RecordQuery, Store
from memql.testing.sample import MODEL, NOW, put, store, unit

__all__ = [
    "store",
    "test_candidates_are_what_find_and_dense_answer",
]

WORDS = ["river", "stone", "lantern", "harbor", "meadow", "copper"]


def _fill(store: Store) -> None:
    """80 records of tenant A (words, weights, event times or none, some private to bob, some archived)
    and 20 of tenant B, with vectors; a few visited in a committed write."""
    rng = np.random.default_rng(11)
    with store.transaction() as s:
        for i in range(80):
            text = " ".join(rng.choice(WORDS, size=int(rng.integers(2, 6))))
            fields = {
                "weight": round(float(rng.uniform(0.1, 0.9)), 2),
                "time": None if i % 3 == 0 else NOW - timedelta(days=int(rng.integers(0, 400))),
                "owner": "bob" if i % 7 == 0 else "alice",
                "read_perm_level": "private" if i % 7 == 0 else None,
                "status": "archived" if i % 11 == 0 else "active",
                "tags": [f"t{i % 4}"],
            }
            put(s, "A", text, unit(rng), **fields)
        for _ in range(20):
            put(s, "B", "river stone", unit(rng))
        s.touch("A", ["2", "3", "5"], NOW - timedelta(days=2))


def _as_candidates(found: list[tuple[Record, float | None]]) -> list[Candidate]:
    return [Candidate.of(record, score) for record, score in found]


QUERIES = [
    RecordQuery(),
    RecordQuery(has_tags=["t1"]),
    RecordQuery(statuses=None, access=Access("alice")),
    RecordQuery(not_expired_at=NOW, sensitivities=("standard",), access=Access("carol")),
]


@pytest.mark.parametrize("conditions", QUERIES, ids=["plain", "tagged", "any-status-alice", "carol"])
@pytest.mark.parametrize("limit", [3, 50])
def test_candidates_are_what_find_and_dense_answer(store_factory, conditions, limit):
    store = store_factory()
    store.visits.interval, store.visits.size = 3600.0, 10**6  # pending until the test's writes
    try:
        _fill(store)
        with store.read() as s:  # pending visits: candidates show them as records do
            s.touch("A", ["3", "4", "9"], NOW)
        vector = unit(np.random.default_rng(5))
        for opened in (store.read, store.dry_run):
            with opened() as s:
                for words in ("river", "stone lantern", "copper meadow harbor"):
                    q = RecordQuery(**{**conditions.__dict__, "text_query": words, "order": "relevance"})
                    q.limit = limit
                    expected = _as_candidates(s.find("A", q))
                    assert expected, words
                    assert s.find_candidates("A", q) == expected
                bare = RecordQuery(**{**conditions.__dict__, "limit": None})
                expected = _as_candidates(s.dense("A", vector, bare, limit, MODEL))
                assert expected
                assert s.dense_candidates("A", vector, bare, limit, MODEL) == expected
                every = RecordQuery(text_query=" ".join(WORDS), order="relevance", limit=100)
                visited = {c.id: c.visits for c in s.find_candidates("A", every)}
                assert (visited["3"], visited["4"], visited["5"], visited["6"]) == (2, 1, 1, 0)
    finally:
        store.close()
