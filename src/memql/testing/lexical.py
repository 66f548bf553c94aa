"""The Store port's contract for lexical search: a backend's BM25 scores and rankings are SQLite's, the
reference (FTS5's scores, to 1e-6), over generated texts in many scripts, several tenants and statuses.

Tests of the conformance suite (see memql.testing): they run on the stores the `store_factory` fixture
opens, a new one for every generated example (BM25's statistics count every tenant's documents), and
records are compared by the order they were written in.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memql.ports.record import Record
from memql.ports.store import RecordQuery, Store
from memql.store.sqlite import SQLiteStore
from memql.testing import StoreFactory
from memql.testing.sample import NOW

WORDS = ["river", "rivers", "garden", "invoice", "piano", "the", "of", "running", "ran", "café", "naïve"]
WORDS += ["机器学习", "学习", "東京", "Москва", "καλημέρα", "mp3", "2024"]
docs = st.lists(
    st.tuples(
        st.lists(st.sampled_from(WORDS), min_size=0, max_size=12),  # text
        st.lists(st.sampled_from(WORDS), max_size=4),  # payload.context
        st.sampled_from(["A", "A", "B"]),
        st.sampled_from(["active", "active", "deleted", "archived"]),
    ),
    min_size=1,
    max_size=25,
)
Doc = tuple[list[str], list[str], str, str]


def write(store: Store, generated: Sequence[Doc], weighted: bool) -> dict[str, int]:
    """Insert the generated documents in order; each record's id -> its position in `generated`."""
    positions: dict[str, int] = {}
    with store.transaction() as s:
        for i, (words, context, tenant, status) in enumerate(generated):
            record = Record(
                tenant=tenant,
                text=" ".join(words),
                payload_meta={"context": " ".join(context)} if context else {},
                status=status,
                created_at=NOW,
                updated_at=NOW,
            )
            if weighted:  # equal scores are ordered by weight, then newest
                record.weight = (0.3, 0.5, 0.7)[i % 3]
            positions[s.insert(record)] = i
    return positions


def ranked(store: Store, generated: Sequence[Doc], weighted: bool, q: RecordQuery) -> list[tuple[int, float]]:
    """Write `generated` into the empty `store`, then search tenant A: (position, score) of what is found, in
    order. The store is closed afterwards."""
    try:
        positions = write(store, generated, weighted)
        with store.dry_run() as s:
            return [(positions[r.id], score) for r, score in s.find("A", q)]  # type: ignore[misc]
    finally:
        store.close()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(generated=docs, query=st.lists(st.sampled_from(WORDS), min_size=1, max_size=3))
def test_bm25_scores_equal_fts5_scores(store_factory: StoreFactory, generated, query):
    q = RecordQuery(statuses=None, text_query=" ".join(query), order="relevance")
    want = ranked(SQLiteStore(":memory:"), generated, False, q)
    got = ranked(store_factory(), generated, False, q)
    assert dict(got) == pytest.approx(dict(want), abs=1e-6)
    assert [i for i, _ in got] == [i for i, _ in want]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    generated=docs,
    query=st.lists(st.sampled_from(WORDS), min_size=1, max_size=3),
    limit=st.integers(1, 8),
    status=st.sampled_from([None, ("active",)]),
)
def test_ranked_lexical_search_agrees_on_both_backends(
    store_factory: StoreFactory, generated, query, limit, status
):
    """A search's best `limit` matches are the reference's (SQLite: from its in-process postings index)."""
    q = RecordQuery(statuses=status, text_query=" ".join(query), order="relevance", limit=limit)
    want = ranked(SQLiteStore(":memory:", lexical_index="postings"), generated, True, q)
    got = ranked(store_factory(), generated, True, q)
    assert [i for i, _ in got] == [i for i, _ in want]
    assert [score for _, score in got] == pytest.approx([score for _, score in want], abs=1e-6)


# what a backend's test module imports with `from memql.testing.lexical import *`
__all__ = [
    "test_bm25_scores_equal_fts5_scores",
    "test_ranked_lexical_search_agrees_on_both_backends",
]
