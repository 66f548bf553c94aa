"""The Store port's contract for lexical search: a backend's BM25 scores and rankings are SQLite's, the
reference (FTS5's scores, to 1e-6), over generated texts in many scripts, several tenants and statuses.

Tests of the conformance suite (see memql.testing): they run on the stores the `store_factory` fixture
opens. The store under test is shared by a test's generated examples, so each example writes tenants of
its own (BM25's statistics are per tenant) and records are compared by the order they were written in.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator, Sequence

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


@pytest.fixture
def store(store_factory: StoreFactory) -> Iterator[Store]:
    """A new, empty store of the backend under test."""
    s = store_factory()
    yield s
    s.close()


def fresh_tenants() -> dict[str, str]:
    """Tenant names no earlier example of the shared store used, for the generated "A" and "B"."""
    prefix = uuid.uuid4().hex[:12]
    return {"A": f"{prefix}-A", "B": f"{prefix}-B"}


def write(store: Store, generated: Sequence[Doc], tenants: dict[str, str], weighted: bool) -> dict[str, int]:
    """Insert the generated documents in order; each record's id -> its position in `generated`."""
    positions: dict[str, int] = {}
    with store.transaction() as s:
        for i, (words, context, tenant, status) in enumerate(generated):
            record = Record(
                tenant=tenants[tenant],
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


def ranked(store: Store, tenant: str, q: RecordQuery, positions: dict[str, int]) -> list[tuple[int, float]]:
    """(position, score) of what the search finds, in its order."""
    with store.dry_run() as s:
        return [(positions[r.id], score) for r, score in s.find(tenant, q)]  # type: ignore[misc]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(generated=docs, query=st.lists(st.sampled_from(WORDS), min_size=1, max_size=3))
def test_bm25_scores_equal_fts5_scores(store, generated, query):
    reference = SQLiteStore(":memory:")
    tenants = fresh_tenants()
    q = RecordQuery(statuses=None, text_query=" ".join(query), order="relevance")
    want = ranked(reference, tenants["A"], q, write(reference, generated, tenants, weighted=False))
    got = ranked(store, tenants["A"], q, write(store, generated, tenants, weighted=False))
    assert dict(got) == pytest.approx(dict(want), abs=1e-6)
    assert [i for i, _ in got] == [i for i, _ in want]
    reference.close()


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    generated=docs,
    query=st.lists(st.sampled_from(WORDS), min_size=1, max_size=3),
    limit=st.integers(1, 8),
    status=st.sampled_from([None, ("active",)]),
)
def test_ranked_lexical_search_agrees_on_both_backends(store, generated, query, limit, status):
    """A search's best `limit` matches are the reference's (SQLite: from its in-process postings index)."""
    reference = SQLiteStore(":memory:", lexical_index="postings")
    tenants = fresh_tenants()
    q = RecordQuery(statuses=status, text_query=" ".join(query), order="relevance", limit=limit)
    want = ranked(reference, tenants["A"], q, write(reference, generated, tenants, weighted=True))
    got = ranked(store, tenants["A"], q, write(store, generated, tenants, weighted=True))
    assert [i for i, _ in got] == [i for i, _ in want]
    assert [score for _, score in got] == pytest.approx([score for _, score in want], abs=1e-6)
    reference.close()


# what a backend's test module imports with `from memql.testing.lexical import *`
__all__ = [
    "store",
    "test_bm25_scores_equal_fts5_scores",
    "test_ranked_lexical_search_agrees_on_both_backends",
]
