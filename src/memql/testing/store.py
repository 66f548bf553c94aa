"""The Store port's contract for records: dense search within filters (never losing matches to a top-k
cut), vectors following updates, clears, deletes and rollbacks, typed facts, links, one store's writes
seen by another connection, and a reader's clearance and permissions (Access, whose `admits` is the
reference) applied inside every query.

Tests of the conformance suite (see memql.testing): they run on the stores the `store_factory` fixture
opens.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from dataclasses import replace
from datetime import timedelta

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memql.engine.access import admits
from memql.ports.record import Link, Record
from memql.ports.store import Access, RecordQuery, Store
from memql.testing import StoreFactory
from memql.testing.sample import (
    MODEL,
    NOW,
    put,
    store,
    unit,
)


@pytest.fixture
def corpus(store_factory: StoreFactory) -> Iterator[tuple[Store, dict[str, np.ndarray], dict[str, str]]]:
    """A store holding `fill`'s records, with A's vectors and tags by id."""
    store = store_factory()
    yield store, *fill(store)
    store.close()


def fill(store: Store) -> tuple[dict[str, np.ndarray], dict[str, str]]:
    """300 records of tenant A with random unit vectors and tags t0..t4, plus tenant B's own records:
    (A's vectors by id, A's tags by id)."""
    rng = np.random.default_rng(7)
    vectors: dict[str, np.ndarray] = {}
    tags: dict[str, str] = {}
    with store.transaction() as s:
        for i in range(300):
            tag = f"t{i % 5}"
            v = unit(rng)
            record_id = put(s, "A", f"a{i}", v, tags=[tag])
            vectors[record_id], tags[record_id] = v, tag
        for _ in range(50):
            put(s, "B", "b", unit(rng), tags=["t0"])
    return vectors, tags


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10_000), k=st.integers(1, 40), tag=st.sampled_from([None, "t0", "t3"]))
def test_dense_top_k_is_the_best_k_within_the_filter(store_factory, corpus, seed, k, tag):
    store, vectors, tags = corpus
    q = unit(np.random.default_rng(seed))
    with store.dry_run() as s:
        hits = s.dense("A", q, RecordQuery(has_tags=[tag] if tag else ()), k, MODEL)
    ids = [r.id for r, _ in hits]
    allowed = [rid for rid in vectors if tag is None or tags[rid] == tag]
    expected = sorted(
        ((float(vectors[rid] @ q), rid) for rid in allowed if float(vectors[rid] @ q) > 0), reverse=True
    )
    assert len(ids) == min(k, len(expected))  # never fewer than k while more match
    assert all(tag is None or tags[rid] == tag for rid in ids)
    assert [round(s, 4) for _, s in hits] == sorted((round(s, 4) for _, s in hits), reverse=True)
    best = sum(s for s, _ in expected[: len(ids)])
    got = sum(score for _, score in hits)
    if getattr(store_factory, "approximate_dense", False):
        # an approximate index: the neighbours it finds may miss the very best (an HNSW graph built on
        # several threads differs from run to run); they must be nearly as good
        assert got >= 0.95 * best
    else:
        assert got == pytest.approx(best, abs=1e-3 * max(1, len(ids)))


def test_a_deep_search_returns_every_positive_match(store):
    rng = np.random.default_rng(2)
    q = unit(rng)
    positives = 0
    with store.transaction() as s:
        for _ in range(1500):
            v = unit(rng)
            put(s, "A", "x", v)
            positives += float(v @ q) > 0
    with store.dry_run() as s:
        assert len(s.dense("A", q, RecordQuery(), 2000, MODEL)) == positives


def test_a_selective_filter_never_loses_matches(store):
    rng = np.random.default_rng(1)
    q = unit(rng)
    rare: list[tuple[str, float]] = []
    with store.transaction() as s:
        for i in range(400):
            v = unit(rng)
            rid = put(s, "A", f"r{i}", v, tags=["rare" if i % 97 == 5 else "common"])
            if i % 97 == 5 and float(v @ q) > 0:
                rare.append((rid, float(v @ q)))
    with store.dry_run() as s:
        hits = s.dense("A", q, RecordQuery(has_tags=["rare"]), 10, MODEL)
    assert [r.id for r, _ in hits] == [rid for rid, _ in sorted(rare, key=lambda h: -h[1])]


def test_vectors_follow_updates_clears_deletes_expiry_and_status(store):
    rng = np.random.default_rng(3)
    a, b = unit(rng), unit(rng)
    with store.transaction() as s:
        one = put(s, "A", "one", a)
        two = put(s, "A", "two", b)
        assert [r.id for r, _ in s.dense("A", a, RecordQuery(), 1, MODEL)] == [one]
        s.update("A", one, {"embedding": b.astype("<f4").tobytes(), "embedding_model": MODEL})
        assert {r.id for r, _ in s.dense("A", b, RecordQuery(), 2, MODEL)} == {one, two}
        s.update("A", one, {"embedding": None, "embedding_status": "pending"})
        assert [r.id for r, _ in s.dense("A", b, RecordQuery(), 5, MODEL)] == [two]
        s.update("A", two, {"status": "deleted"})
        assert s.dense("A", b, RecordQuery(), 5, MODEL) == []
        assert [r.id for r, _ in s.dense("A", b, RecordQuery(statuses=None), 5, MODEL)] == [two]
        three = put(s, "A", "three", b, expire_at=NOW - timedelta(seconds=1))
        assert s.dense("A", b, RecordQuery(not_expired_at=NOW), 5, MODEL) == []
        assert [r.id for r, _ in s.dense("A", b, RecordQuery(), 5, MODEL)] == [three]
        s.hard_delete("A", [three])
        assert s.dense("A", b, RecordQuery(), 5, MODEL) == []
        put(s, "B", "other", b)
        assert s.dense("A", b, RecordQuery(), 5, MODEL) == []
        assert s.dense("A", b, RecordQuery(statuses=None), 5, "another-model") == []


def test_typed_facts_round_trip_and_are_found_by_subject_attribute_and_world_time(store):
    day = timedelta(days=1)
    rng = np.random.default_rng(11)
    v = unit(rng)
    with store.transaction() as s:

        def fact(tenant, attribute, value, start, end=None):
            evidence = [{"valid_from": start.isoformat(), "source": "e"}]
            fields = {"subject": "alice", "attribute": attribute, "value": value, "evidence": evidence}
            return put(s, tenant, f"alice {attribute}", v, valid_from=start, valid_to=end, **fields)

        paris = fact("A", "city", "Paris", NOW - 10 * day, NOW - 2 * day)
        lyon = fact("A", "city", {"name": "Lyon", "since": [2026]}, NOW - 2 * day)
        empty = fact("A", "pets", [], NOW - 5 * day)
        fact("B", "city", "Rome", NOW - 10 * day)  # another tenant's
        plain = put(s, "A", "alice likes Paris", v, facets={"subject": "alice"})
        got = s.get("A", [paris, lyon, empty])
        assert got[lyon].value == {"name": "Lyon", "since": [2026]} and got[empty].value == []
        assert got[paris].valid_to == NOW - 2 * day and got[lyon].valid_to is None
        assert got[paris].evidence == [{"valid_from": (NOW - 10 * day).isoformat(), "source": "e"}]

        def ids(**q):
            return sorted(r.id for r, _ in s.find("A", RecordQuery(**q)))

        assert ids(facts_only=True) == sorted([paris, lyon, empty])
        assert ids(subject="alice", attribute="city") == sorted([paris, lyon])
        assert ids(subject="alice", valid_at=NOW - 3 * day) == sorted([paris, empty])
        assert ids(attribute="city", valid_at=NOW - 2 * day) == [lyon]  # valid_to is exclusive
        assert ids(attribute="city", valid_at=NOW - 11 * day) == []
        assert ids(subject="bob") == []
        assert plain in ids() and plain not in ids(facts_only=True)
        dense = s.dense("A", v, RecordQuery(attribute="city", valid_at=NOW), 10, MODEL)
        assert [r.id for r, _ in dense] == [lyon]  # the same conditions inside the dense search


def test_duplicate_candidates_are_the_live_records_with_the_hash_oldest_first(store):
    """find_duplicate: active or pending, not expired at `now`, of the tenant, oldest first, bounded."""
    later, earlier = NOW + timedelta(days=1), NOW - timedelta(days=1)
    with store.transaction() as s:
        same = {"content_hash": "h1"}
        first = put(s, "A", "one", None, **same)
        pending = put(s, "A", "one", None, status="pending", **same)
        put(s, "A", "one", None, status="archived", **same)
        put(s, "A", "one", None, status="deleted", **same)
        put(s, "A", "one", None, expire_at=earlier, **same)  # lapsed, though still active
        lasting = put(s, "A", "one", None, expire_at=later, **same)
        put(s, "B", "one", None, **same)  # another tenant's
        put(s, "A", "two", None, content_hash="h2")
        assert s.find_duplicate("A", "h1", NOW, 20) == [first, pending, lasting]
        assert s.find_duplicate("A", "h1", NOW, 2) == [first, pending]
        assert s.find_duplicate("A", "h1", later, 20) == [first, pending]
        assert s.find_duplicate("A", "h3", NOW, 20) == []


def test_a_link_can_be_removed(store):
    with store.transaction() as s:
        one, two = put(s, "A", "one", None), put(s, "A", "two", None)
        s.add_link("A", Link(two, one, "supersedes", NOW))
        s.add_link("A", Link(two, one, "merged_into", NOW))
        s.remove_link("B", Link(two, one, "supersedes"))  # another tenant's: nothing happens
        assert len(s.links("A", [one])) == 2
        s.remove_link("A", Link(two, one, "supersedes"))
        s.remove_link("A", Link(two, one, "supersedes"))  # already gone: nothing happens
        assert [(lk.src, lk.dst, lk.relation) for lk in s.links("A", [one])] == [(two, one, "merged_into")]


def test_written_after_finds_only_the_records_written_since(store):
    """`RecordQuery.written_after`: what a write checks in its own transaction (memql.engine.preconditions)
    — the records written after the one named, of the tenant, with the query's other conditions."""
    with store.transaction() as s:
        first, second = put(s, "A", "first", None, tags=["k"]), put(s, "A", "second", None, tags=["j"])
        third = put(s, "A", "third", None, tags=["k"])
        put(s, "B", "another tenant's", None, tags=["k"])

        def after(rid: str, **q: object) -> list[str]:
            query = RecordQuery(written_after=rid, order="created_asc", **q)  # type: ignore[arg-type]
            return [r.id for r, _ in s.find("A", query)]  # type: ignore[misc]

        assert after(first) == [second, third]
        assert after(first, has_tags=["k"]) == [third]
        assert after(third) == [] and after(second, has_tags=["j"]) == []


def test_a_second_store_sees_what_the_first_wrote(store_factory):
    rng = np.random.default_rng(5)
    writer = store_factory()
    reader = store_factory.reopen(writer)
    try:
        v = unit(rng)
        with reader.transaction() as s:
            assert s.dense("A", v, RecordQuery(), 3, MODEL) == []
        with writer.transaction() as s:
            rid = put(s, "A", "written elsewhere", v)
        with reader.transaction() as s:
            assert [r.id for r, _ in s.dense("A", v, RecordQuery(), 3, MODEL)] == [rid]
            assert [r.id for r, _ in s.find("A", RecordQuery(text_query="elsewhere"))] == [rid]
    finally:
        writer.close()
        reader.close()


def test_a_rolled_back_transaction_leaves_nothing(store):
    rng = np.random.default_rng(9)
    a, b = unit(rng), unit(rng)
    with store.transaction() as s:
        base = put(s, "A", "committed", a)
    with store.dry_run() as s:
        ghost = put(s, "A", "never committed", b)
        s.update("A", base, {"embedding": b.astype("<f4").tobytes(), "embedding_model": MODEL})
        assert {r.id for r, _ in s.dense("A", b, RecordQuery(), 2, MODEL)} == {ghost, base}
    with store.transaction() as s:
        ((record, score),) = s.dense("A", a, RecordQuery(), 5, MODEL)
        assert record.id == base and score == pytest.approx(1.0, abs=1e-5)
        assert s.find("A", RecordQuery(text_query="never")) == []
    with store.transaction() as s:
        real = put(s, "A", "committed later", b)
    assert real == ghost  # the rolled-back insert took no id
    with store.transaction() as s:
        assert [r.id for r, _ in s.dense("A", b, RecordQuery(), 1, MODEL)] == [real]


def test_a_savepoint_rollback_is_undone(store):
    a = unit(np.random.default_rng(10))
    with store.transaction() as s:
        with s.scratch():
            put(s, "A", "previewed only", a)
            assert len(s.dense("A", a, RecordQuery(), 3, MODEL)) == 1
        assert s.dense("A", a, RecordQuery(), 3, MODEL) == []
        kept = put(s, "A", "kept", a)
        assert [r.id for r, _ in s.dense("A", a, RecordQuery(), 3, MODEL)] == [kept]


def test_a_readers_clearance_applies_inside_both_searches(store):
    v = unit(np.random.default_rng(15))
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


PEOPLE = ["alice", "bob", "bot1", "bot2"]
permissioned = st.fixed_dictionaries(
    {
        "owner": st.sampled_from([None, *PEOPLE]),
        "agent": st.sampled_from([None, "bot1", "bot2"]),
        "status": st.sampled_from(["active", "active", "pending", "rejected", "expired", "archived"]),
        "read_perm_level": st.sampled_from([None, "public", "team", "private", "custom", "unknown"]),
        "read_whitelist": st.one_of(st.none(), st.lists(st.sampled_from(PEOPLE), max_size=2, unique=True)),
        "read_blacklist": st.one_of(st.none(), st.lists(st.sampled_from(PEOPLE), max_size=2, unique=True)),
    }
)
readers = st.builds(
    Access, actor=st.sampled_from([None, *PEOPLE, "Bob"]), agent=st.booleans(), proposals_only=st.booleans()
)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(generated=st.lists(permissioned, min_size=1, max_size=25), reader=readers, k=st.integers(1, 6))
def test_a_readers_access_applies_inside_every_query(store, generated, reader, k):
    """Every path (find by filter, by ids, lexical search, dense search) returns exactly the records
    Access.admits, and a search with k returns min(k, admitted matches): nothing is cut before the check."""
    tenant = uuid.uuid4().hex  # one tenant per example: the store is shared by the examples
    v = unit(np.random.default_rng(len(generated)))
    with store.transaction() as s:
        made = {
            put(s, tenant, f"memo {i}", v, **fields): Record(**fields) for i, fields in enumerate(generated)
        }
    admitted = {rid for rid, record in made.items() if admits(reader, record)}
    q = RecordQuery(statuses=None, access=reader)
    with store.dry_run() as s:
        assert {r.id for r, _ in s.find(tenant, q)} == admitted
        assert {r.id for r, _ in s.find(tenant, replace(q, ids=list(made)))} == admitted
        assert {r.id for r, _ in s.find(tenant, replace(q, text_query="memo"))} == admitted
        assert {r.id for r, _ in s.dense(tenant, v, q, len(made), MODEL)} == admitted
        lexical = s.find(tenant, replace(q, text_query="memo", order="relevance", limit=k))
        dense = s.dense(tenant, v, q, k, MODEL)
        assert len(lexical) == len(dense) == min(k, len(admitted))
        assert {r.id for r, _ in lexical} <= admitted and {r.id for r, _ in dense} <= admitted


def test_access_reads_names_exactly(store):
    """Names in owner, agent and the lists compare exactly: no case folding, no prefix or JSON matches."""
    v = unit(np.random.default_rng(16))
    with store.transaction() as s:
        private = put(s, "A", "note", v, owner="Bob", read_perm_level="private")
        custom = put(s, "A", "note", v, owner="x", read_whitelist=['bo"b', "bob2"])
        proposal = put(s, "A", "note", v, agent="bob ", status="pending")
    with store.dry_run() as s:
        for actor in ("bob", "bo", 'bo"b', "bob "):
            found = {
                r.id for r, _ in s.find("A", RecordQuery(access=Access(actor, agent=True), statuses=None))
            }
            expected = {custom} if actor == 'bo"b' else {proposal} if actor == "bob " else set()
            assert found == expected, actor
        users = {r.id for r, _ in s.find("A", RecordQuery(access=Access("Bob"), statuses=None))}
        assert users == {private, proposal}  # a user reviews every proposal


# what a backend's test module imports with `from memql.testing.store import *`
__all__ = [
    "corpus",
    "store",
    "test_a_deep_search_returns_every_positive_match",
    "test_a_link_can_be_removed",
    "test_a_readers_access_applies_inside_every_query",
    "test_a_readers_clearance_applies_inside_both_searches",
    "test_a_rolled_back_transaction_leaves_nothing",
    "test_a_savepoint_rollback_is_undone",
    "test_a_second_store_sees_what_the_first_wrote",
    "test_a_selective_filter_never_loses_matches",
    "test_access_reads_names_exactly",
    "test_dense_top_k_is_the_best_k_within_the_filter",
    "test_duplicate_candidates_are_the_live_records_with_the_hash_oldest_first",
    "test_typed_facts_round_trip_and_are_found_by_subject_attribute_and_world_time",
    "test_vectors_follow_updates_clears_deletes_expiry_and_status",
    "test_written_after_finds_only_the_records_written_since",
]
