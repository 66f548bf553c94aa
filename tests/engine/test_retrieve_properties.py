"""Retrieve's guarantees, checked over generated stores on both backends (SQLite, PostgreSQL) and both
vector index paths (exact and HNSW).

A search never returns a record of another tenant, a deleted (soft or hard) or expired record, one more
sensitive than the reader's clearance, nor one outside the filter; and it never returns fewer than k
records while more records match — filtering happens inside the search, not after a top-k cut. The
expected sets come from brute force over the generated store, with the same embedding and the same
analyzer.
"""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime, timedelta

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from backends import BACKENDS
from budgets import examples
from memql import Memory
from memql.ports.clock import FixedClock
from memql.services.tokenize import index_terms, query_terms

NOW = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)
VOCAB = ["river", "garden", "invoice", "piano", "rocket", "meadow", "ticket", "harbor", "lantern", "violet"]
TAGS = ["x", "y", "z"]
FATES = ["live", "live", "live", "soft_deleted", "hard_deleted", "expired"]
LEVELS = ["standard", "standard", "sensitive", "restricted"]


class HashedBagOfWords:
    """A deterministic text embedding without a model (feature hashing): each index term gets a fixed
    pseudo-random unit vector, a text the normalised sum of its terms' vectors. Cosine then measures
    shared words, which makes the brute-force expectation easy to compute exactly."""

    model = "test-hashed-bag-of-words"
    dimension = 24

    def embed(self, texts):
        return [self.vector(t).tolist() for t in texts]

    def vector(self, text: str) -> np.ndarray:
        total = np.zeros(self.dimension, dtype=np.float32)
        for term in index_terms(text):
            seed = int.from_bytes(hashlib.sha256(term.encode()).digest()[:8], "little")
            total += np.random.default_rng(seed).normal(size=self.dimension).astype(np.float32)
        norm = float(np.linalg.norm(total))
        return total / norm if norm else total


records = st.lists(
    st.tuples(
        st.lists(st.sampled_from(VOCAB), min_size=1, max_size=4),  # words
        st.sampled_from(TAGS),
        st.sampled_from(["A", "A", "B"]),  # tenant
        st.sampled_from(FATES),
        st.sampled_from(LEVELS),  # sensitivity
    ),
    min_size=1,
    max_size=40,
)


def open_store(path: str):
    """A fresh store on one backend and vector index path ("sqlite-exact", "postgres-hnsw", ...)."""
    name, mode = path.split("-")
    backend = BACKENDS[name]
    return backend.open(backend.location(None), mode, HashedBagOfWords.dimension)


@pytest.mark.parametrize("mode", ["sqlite-exact", "sqlite-hnsw", "postgres-exact", "postgres-hnsw"])
@settings(
    max_examples=examples(30), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    generated=records,
    query=st.lists(st.sampled_from(VOCAB), min_size=1, max_size=2),
    alpha=st.sampled_from([0.0, 0.5, 1.0]),
    k=st.integers(1, 12),
    tag=st.sampled_from([None, *TAGS]),
    clearance=st.sampled_from(["standard", "sensitive", "restricted"]),
)
def test_retrieve_returns_only_live_matching_records_and_never_too_few(
    mode, generated, query, alpha, k, tag, clearance
):
    embedder = HashedBagOfWords()
    clock = FixedClock(NOW)
    store = open_store(mode)
    memories = {t: Memory(store, tenant=t, actor=t, clock=clock, embedder=embedder) for t in ("A", "B")}
    reader = Memory(store, tenant="A", actor="reader", clock=clock, embedder=embedder, clearance=clearance)
    cleared = LEVELS[: LEVELS.index(clearance) + 1] if clearance != "restricted" else LEVELS
    live: dict[str, tuple[str, str]] = {}  # tenant A's live records: id -> (text, tag)
    for i, (words, record_tag, tenant, fate, level) in enumerate(generated):
        text = f"{' '.join(words)} n{i}"  # distinct texts: identical ones would be de-duplicated
        m = memories[tenant]
        result = m.encode(text, tags=[record_tag], sensitivity=level)
        assert result.success, result.diagnostics
        (rid,) = result.affected_ids
        if fate == "soft_deleted":
            assert m.delete(rid).success
        elif fate == "hard_deleted":
            assert m.delete(rid, hard=True, confirm=True).success
        elif fate == "expired":
            assert m.expire(rid, ttl="PT1H").success
        elif tenant == "A" and level in cleared:
            live[rid] = (text, record_tag)
    clock.advance(timedelta(hours=2))  # the expiring records have lapsed (no sweep: lazy expiry)

    text = " ".join(query)
    result = reader.retrieve(
        text, k=k, filter={"has_tags": [tag]} if tag else None, overrides={"alpha": alpha}
    )
    assert result.success, result.diagnostics
    got = [row["id"] for row in result.data["rows"]]

    matching = {rid for rid, (_, t) in live.items() if tag is None or t == tag}
    # never another tenant's, a deleted, an expired or a too sensitive record, nor one outside the filter
    assert set(got) <= matching
    assert len(got) == len(set(got))
    terms = set(query_terms(text))
    lexical = {rid for rid in matching if terms & set(index_terms(live[rid][0]))}
    q = embedder.vector(text)
    dense = {rid for rid in matching if float(embedder.vector(live[rid][0]) @ q) > 0.0}
    findable = lexical if alpha == 0.0 else dense if alpha == 1.0 else lexical | dense
    assert len(got) == min(k, len(findable))  # nothing that matches is lost to a cut before filtering
    if alpha == 0.0:
        assert set(got) <= lexical
    if alpha == 1.0 and mode.endswith(
        "exact"
    ):  # exact ranking: the k best cosines among the matching records
        best = sorted((float(embedder.vector(live[rid][0]) @ q) for rid in dense), reverse=True)[:k]
        scores = [float(embedder.vector(live[rid][0]) @ q) for rid in got]
        assert scores == pytest.approx(best, abs=1e-5)
    store.close()
