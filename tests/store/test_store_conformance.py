"""The Store port's contract, checked on every backend and vector index path: dense search within filters
(never losing matches to a top-k cut), vectors following updates, clears, deletes and rollbacks, one
store's writes seen by another connection, a reader's clearance and permissions (Access, whose `admits` is
the reference), and lexical scores identical on both backends (PostgreSQL's BM25 is FTS5's, to 1e-6)."""

from __future__ import annotations

import sqlite3
import uuid
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memql.engine.access import admits
from memql.ports.keys import ApiKey
from memql.ports.record import Link, Record
from memql.ports.store import Access, RecordQuery
from memql.services.tokenize import index_text
from memql.store.postgres import PostgresStore
from memql.store.postgres.lexical import fts_tokens
from memql.store.sqlite import SQLiteStore
from pgtest import fresh_location

NOW = datetime(2026, 3, 4, 10, 0, tzinfo=UTC)
DIM = 16
MODEL = "test-vectors"
PATHS = ["sqlite-exact", "sqlite-hnsw", "postgres-exact", "postgres-hnsw"]


def open_store(path: str, tmp_path, name: str = "s.db", location: str | None = None):
    backend, mode = path.split("-")
    if backend == "sqlite":
        return SQLiteStore(location or str(tmp_path / name), vector_index=mode)
    store = PostgresStore(location or fresh_location())
    if mode == "hnsw":
        store.ensure_vector_index(DIM)
    return store


@pytest.fixture(params=PATHS)
def store(request, tmp_path):
    s = open_store(request.param, tmp_path)
    yield s
    s.close()


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


@pytest.fixture(scope="module", params=PATHS)
def corpus(tmp_path_factory, request):
    store = open_store(request.param, tmp_path_factory.mktemp("vec"))
    yield store, *fill(store)
    store.close()


def fill(store) -> tuple[dict[str, np.ndarray], dict[str, str]]:
    """300 records of tenant A with random unit vectors and tags t0..t4, plus tenant B's own records:
    (A's vectors by id, A's tags by id)."""
    rng = np.random.default_rng(7)
    vectors: dict[str, np.ndarray] = {}
    tags: dict[str, str] = {}
    with store.transaction() as s:
        for i in range(300):
            tag = f"t{i % 5}"
            v = unit(rng)
            vectors[put(s, "A", f"a{i}", v, tags=[tag])] = v
            tags[str(i + 1)] = tag
        for _ in range(50):
            put(s, "B", "b", unit(rng), tags=["t0"])
    return vectors, tags


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10_000), k=st.integers(1, 40), tag=st.sampled_from([None, "t0", "t3"]))
def test_dense_top_k_is_the_best_k_within_the_filter(corpus, seed, k, tag):
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
    if store.__class__.__name__ == "SQLiteStore" and store.vectors.mode == "hnsw":
        # an approximate index: the neighbours it finds may miss the very best (usearch builds its
        # graph on several threads, so which ones varies from run to run); they must be nearly as good
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


@pytest.mark.parametrize("path", PATHS)
def test_a_second_store_sees_what_the_first_wrote(path, tmp_path):
    rng = np.random.default_rng(5)
    writer = open_store(path, tmp_path, "shared.db")
    reader = open_store(path, tmp_path, "shared.db", location=getattr(writer, "url", None))
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


# --- lexical scores: the same on both backends ------------------------------------------------------

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


@pytest.fixture(scope="module")
def pg_store():
    store = PostgresStore(fresh_location())
    yield store
    store.close()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(generated=docs, query=st.lists(st.sampled_from(WORDS), min_size=1, max_size=3))
def test_bm25_scores_equal_fts5_scores(pg_store, generated, query):
    lite = SQLiteStore(":memory:")
    with pg_store.transaction() as s:  # start each example from an empty store
        s.conn.execute(
            "TRUNCATE records, lexical_postings, lexical_docs, lexical_df, lexical_stats, links, "
            "events, operations"
        )
        s.conn.execute("UPDATE counters SET value = 0 WHERE name = 'record_num'")
    for store in (lite, pg_store):
        with store.transaction() as s:
            for words, context, tenant, status in generated:
                record = Record(
                    tenant=tenant,
                    text=" ".join(words),
                    payload_meta={"context": " ".join(context)} if context else {},
                    status=status,
                    created_at=NOW,
                    updated_at=NOW,
                )
                s.insert(record)
    text = " ".join(query)
    q = RecordQuery(statuses=None, text_query=text, order="relevance")
    with lite.dry_run() as s:
        want = [(r.id, score) for r, score in s.find("A", q)]
    with pg_store.dry_run() as s:
        got = [(r.id, score) for r, score in s.find("A", q)]
    assert dict(got) == pytest.approx(dict(want), abs=1e-6)
    assert [i for i, _ in got] == [i for i, _ in want]
    lite.close()


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    generated=docs,
    query=st.lists(st.sampled_from(WORDS), min_size=1, max_size=3),
    limit=st.integers(1, 8),
    status=st.sampled_from([None, ("active",)]),
)
def test_ranked_lexical_search_agrees_on_both_backends(pg_store, generated, query, limit, status):
    """A search's best `limit` matches (SQLite: from its in-process postings index) are PostgreSQL's."""
    lite = SQLiteStore(":memory:", lexical_index="postings")
    with pg_store.transaction() as s:  # start each example from an empty store
        s.conn.execute(
            "TRUNCATE records, lexical_postings, lexical_docs, lexical_df, lexical_stats, links, "
            "events, operations"
        )
        s.conn.execute("UPDATE counters SET value = 0 WHERE name = 'record_num'")
    for store in (lite, pg_store):
        with store.transaction() as s:
            for i, (words, context, tenant, record_status) in enumerate(generated):
                record = Record(
                    tenant=tenant,
                    text=" ".join(words),
                    payload_meta={"context": " ".join(context)} if context else {},
                    status=record_status,
                    weight=(0.3, 0.5, 0.7)[i % 3],  # equal scores are ordered by weight, then newest
                    created_at=NOW,
                    updated_at=NOW,
                )
                s.insert(record)
    q = RecordQuery(statuses=status, text_query=" ".join(query), order="relevance", limit=limit)
    with lite.dry_run() as s:
        want = [(r.id, score) for r, score in s.find("A", q)]
    with pg_store.dry_run() as s:
        got = [(r.id, score) for r, score in s.find("A", q)]
    assert [i for i, _ in got] == [i for i, _ in want]
    assert [score for _, score in got] == pytest.approx([score for _, score in want], abs=1e-6)
    lite.close()


SAMPLES = [
    "hello world",
    "café2 łódź2 İstanbul",
    "Straße ǅemal",
    "机器学习 東京",
    "हिन्दी भाषा",
    "Москва 2024",
]


@pytest.mark.parametrize("text", SAMPLES)
def test_postgres_tokens_are_the_tokens_fts5_makes(text):
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE VIRTUAL TABLE f USING fts5(body, tokenize = 'unicode61 remove_diacritics 2')")
    conn.execute("CREATE VIRTUAL TABLE v USING fts5vocab(f, 'instance')")
    conn.execute("INSERT INTO f (body) VALUES (?)", (index_text(text),))
    want = [row[0] for row in conn.execute("SELECT term FROM v ORDER BY offset")]
    assert fts_tokens(index_text(text)) == want


# --- API keys (KeySession): store-wide, found by the secret's hash, revocation kept ---------------------


@pytest.fixture(params=["sqlite", "postgres"])
def key_store(request, tmp_path):
    s = open_store(f"{request.param}-exact", tmp_path, "keys.db")
    yield s
    s.close()


def api_key(key_id: str, tenant: str, **fields) -> ApiKey:
    return ApiKey(
        id=key_id,
        secret_hash=f"hash-of-{key_id}",
        tenant=tenant,
        actor=fields.pop("actor", "mira"),
        role=fields.pop("role", "user"),
        created_at=fields.pop("created_at", NOW),
        **fields,
    )


def test_api_keys_round_trip_and_are_found_by_hash_across_tenants(key_store):
    agent = api_key("k2", "B", actor="bot\x00", role="agent", consent="read", clearance="standard", name="n")
    with key_store.transaction() as s:
        s.add_api_key(api_key("k1", "A", created_at=NOW - timedelta(hours=1)))
        s.add_api_key(agent)
    with key_store.dry_run() as s:
        assert s.api_key_by_hash("hash-of-k2") == agent  # every field, NUL included, and the instant
        assert s.api_key_by_hash("hash-of-nothing") is None
        assert [k.id for k in s.api_keys()] == ["k1", "k2"]  # every tenant, oldest first
        assert s.api_keys()[0].created_at == NOW - timedelta(hours=1)


def test_a_revoked_key_keeps_its_first_revocation_and_an_unknown_one_is_none(key_store):
    with key_store.transaction() as s:
        s.add_api_key(api_key("k1", "A"))
    with key_store.transaction() as s:
        revoked = s.revoke_api_key("k1", NOW + timedelta(days=1))
        assert revoked is not None and revoked.revoked_at == NOW + timedelta(days=1)
        again = s.revoke_api_key("k1", NOW + timedelta(days=2))
        assert again is not None and again.revoked_at == NOW + timedelta(days=1)
        assert s.revoke_api_key("nope", NOW) is None
    with key_store.dry_run() as s:
        assert s.api_key_by_hash("hash-of-k1").revoked_at == NOW + timedelta(days=1)


def test_key_ids_and_hashes_are_unique_and_a_failed_insert_rolls_back(key_store):
    with key_store.transaction() as s:
        s.add_api_key(api_key("k1", "A"))
    for duplicate in (api_key("k1", "B"), replace(api_key("k9", "B"), secret_hash="hash-of-k1")):
        with pytest.raises(Exception), key_store.transaction() as s:  # noqa: B017 - each backend's own error
            s.add_api_key(api_key("k5", "C"))
            s.add_api_key(duplicate)
        with key_store.dry_run() as s:
            assert [k.id for k in s.api_keys()] == ["k1"]
