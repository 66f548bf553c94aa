"""The PostgreSQL backend's in-process BM25 index (memql.store.postgres.lexical_index) against PostgreSQL's
own BM25 query, the exact path: over generated stores -- inserts, text changes, hard deletes, status and
weight changes, several tenants, rolled-back transactions, writes through a second store and searches in
between -- the index returns the SQL query's records in its order with its scores, under the query's
conditions (tenant, status, tags, clearance, expiry). Also: the same scores as SQLite's FTS5 on the same
records, a refilled index, the auto mode's threshold and the fallbacks to SQL."""

from __future__ import annotations

import threading

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from budgets import examples
from lexical_plans import NOW, apply_plan, assert_same, oracle_of, ranked, record
from memql.ports.store import RecordQuery
from memql.store.postgres import PostgresStore, lexical_index, query
from memql.store.sqlite import SQLiteStore
from pgtest import fresh_location

WORDS = ["river", "rivers", "garden", "invoice", "piano", "the", "running", "café", "naïve"]
WORDS += ["机器学习", "学习", "Москва", "mp3", "हिन्दी"]  # the last one is a phrase (3 tokens)
TENANTS = ["A", "A", "B"]
STATUSES = ["active", "active", "archived", "deleted"]

words = st.lists(st.sampled_from(WORDS), max_size=6)
inserted = st.tuples(
    st.just("insert"),
    st.sampled_from(TENANTS),
    words,
    st.lists(st.sampled_from(WORDS), max_size=2),  # payload.context
    st.sampled_from(STATUSES),
    st.sampled_from(["x", "y"]),  # tag
    st.sampled_from(["standard", "standard", "sensitive"]),
    st.sampled_from([0.2, 0.5, 0.5, 0.8]),  # weight: equal scores are ordered by it
    st.booleans(),  # expired an hour ago
)
steps = st.lists(
    st.one_of(
        inserted,
        st.tuples(st.just("text"), st.integers(0, 99), words),
        st.tuples(st.just("weight"), st.integers(0, 99), st.sampled_from([0.2, 0.5, 0.8])),
        st.tuples(st.just("status"), st.integers(0, 99), st.sampled_from(STATUSES)),
        st.tuples(st.just("hard_delete"), st.integers(0, 99)),
        st.tuples(st.just("rolled_back"), inserted, st.integers(0, 99), words),
        st.tuples(st.just("elsewhere"), inserted, st.integers(0, 99)),
        st.tuples(st.just("search"), st.lists(st.sampled_from(WORDS), min_size=1, max_size=3)),
    ),
    min_size=1,
    max_size=25,
)
queries = st.lists(
    st.tuples(
        st.lists(st.sampled_from(WORDS), min_size=1, max_size=3),
        st.sampled_from(["A", "B"]),
        st.integers(1, 12),  # limit
        st.sampled_from([None, "x"]),  # tag filter
        st.booleans(),  # every status, or active only
        st.booleans(),  # the reader's clearance: standard only, or any
        st.booleans(),  # expired records left out
    ),
    min_size=1,
    max_size=4,
)


exact = oracle_of(
    query.build
)  # the oracle: PostgreSQL's BM25 query over every match, conditions and order in SQL


def phrased(text: str) -> bool:
    return any(len(p) != 1 for p in lexical_index.BM25Postings().phrases(text.split()))


def ready(store: PostgresStore) -> None:
    """The index built (by the keeper) and every commit absorbed."""
    store.lexical.wake()
    store.lexical.wait()
    assert store.lexical.postings is not None


def assert_index_answers_as_sql(store: PostgresStore, tenant: str, q: RecordQuery, *, may_fall_back=False):
    with store.read() as s:
        want = exact(s, tenant, q)
        hits = store.lexical.hits(s.conn, tenant, q, "r.num, r.weight")
        if hits is None:  # SQL answers: for a phrase, or a window past MAX_WINDOW
            assert may_fall_back or phrased(q.text_query)
        else:
            assert_same([(str(n), score) for n, score, _ in hits], want)
        assert_same([(r.id, score) for r, score in s.find(tenant, q)], want)
        assert_same([(c.id, c.score) for c in s.find_candidates(tenant, q)], want)


def run(store: PostgresStore, other: PostgresStore, plan) -> list[tuple[str, str]]:
    """Apply the generated steps (lexical_plans.apply_plan): SQL answers inside a rolled-back transaction;
    a search between the steps waits for the index and checks it against SQL."""

    def search(text: str) -> None:
        ready(store)
        assert_index_answers_as_sql(store, "A", ranked(text, statuses=None))

    return apply_plan(store, other, plan, exact, search)


@settings(
    max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(plan=steps, checks=queries)
def test_the_index_answers_as_the_sql_query_over_generated_stores(monkeypatch, plan, checks):
    monkeypatch.setattr(lexical_index, "FIRST_WINDOW", 2)  # narrow windows: they widen, or fall back
    monkeypatch.setattr(lexical_index, "MAX_WINDOW", 16)
    url = fresh_location()
    store = PostgresStore(url, lexical_index="postings")
    other = PostgresStore(url, lexical_index="sql")  # another process writing the same store
    try:
        run(store, other, plan)
        ready(store)
        for text, tenant, limit, tag, any_status, cleared, unexpired in checks:
            q = ranked(
                " ".join(text),
                limit,
                statuses=None if any_status else ("active",),
                has_tags=[tag] if tag else [],
                sensitivities=None if cleared else ("standard",),
                not_expired_at=NOW if unexpired else None,
            )
            assert_index_answers_as_sql(store, tenant, q, may_fall_back=True)
            q = ranked(" ".join(text), 3, statuses=None)  # no filter: the first window answers
            assert_index_answers_as_sql(store, tenant, q, may_fall_back=phrased(q.text_query))
        with store.read() as s:  # every record of every tenant, as the statistics count them
            docs = s.conn.execute("SELECT count(*) AS n FROM lexical_docs").fetchone()["n"]
        assert len(store.lexical.postings) == docs
    finally:
        other.close()
        store.close()


def fill(store, n: int, start: int = 0) -> None:
    with store.transaction() as s:
        for i in range(start, start + n):
            s.insert(
                record("A" if i % 3 else "B", [*["garden", "river"][: 1 + i % 2], f"w{i % 7}"], ["piano"])
            )


def test_the_index_scores_as_sqlite_fts5_on_the_same_records():
    """The same records on both backends: PostgreSQL's index gives FTS5's records, order and scores."""
    pg = PostgresStore(fresh_location(), lexical_index="postings")
    lite = SQLiteStore(":memory:", lexical_index="fts5")
    try:
        for store in (pg, lite):
            fill(store, 60)
            with store.transaction() as s:
                s.insert(record("A", ["garden", "garden", "café", "naïve"], ["river"], weight=0.8))
                s.update("A", "5", {"text": "river river piano"})
                s.hard_delete("A", ["8"])
        ready(pg)
        for text in ("garden river", "piano w3", "café river garden", "river river", "nothing"):
            for tenant in ("A", "B"):
                q = ranked(text, 10, statuses=None)
                with pg.read() as s, lite.read() as t:
                    hits = pg.lexical.hits(s.conn, tenant, q, "r.num, r.weight")
                    assert hits is not None
                    assert_same(
                        [(str(n), score) for n, score, _ in hits], [(r.id, x) for r, x in t.find(tenant, q)]
                    )
    finally:
        pg.close()
        lite.close()


def test_a_refilled_index_makes_every_index_start_over():
    store = PostgresStore(fresh_location(), lexical_index="postings")
    fill(store, 20)
    ready(store)
    built = store.lexical.postings
    with store.pool.connection() as conn:  # as if another memql's analyzer wrote the index
        conn.execute("UPDATE counters SET value = 0 WHERE name = 'lexical_analyzer'")
    PostgresStore(store.url, lexical_index="sql").close()  # opening refills the postings
    with store.read() as s:
        assert s.conn.execute("SELECT count(*) AS n FROM lexical_changes").fetchone()["n"] == 0
        assert store.lexical.hits(s.conn, "A", ranked("garden"), "r.num, r.weight") is None  # rebuilding
    ready(store)
    assert store.lexical.postings is not built
    assert_index_answers_as_sql(store, "A", ranked("garden w3"))
    store.close()


def test_auto_builds_the_index_from_the_threshold_on(monkeypatch):
    monkeypatch.setattr(lexical_index, "POSTINGS_MIN_RECORDS", 10)
    store = PostgresStore(fresh_location())  # "auto"
    fill(store, 9)
    store.lexical.wait()
    assert store.lexical.keeper is None and store.lexical.postings is None  # small: no thread at all
    fill(store, 1, start=9)  # the commit that reaches the threshold starts the build
    store.lexical.wait()
    assert store.lexical.postings is not None and len(store.lexical.postings) == 10
    assert_index_answers_as_sql(store, "A", ranked("garden"))
    store.close()
    sql_only = PostgresStore(store.url, lexical_index="sql")
    with sql_only.read() as s:
        assert sql_only.lexical.hits(s.conn, "A", ranked("garden"), "r.num") is None
    sql_only.close()


def test_a_window_that_would_grow_too_wide_falls_back_to_sql(monkeypatch):
    """The best matches fail the filter: past MAX_WINDOW the SQL query answers, with every match."""
    monkeypatch.setattr(lexical_index, "MAX_WINDOW", 64)
    store = PostgresStore(fresh_location(), lexical_index="postings")
    with store.transaction() as s:
        for _ in range(150):
            s.insert(record("A", ["harbor", "harbor", "harbor", "lantern"], [], tag="other"))
        mine = [
            s.insert(record("A", ["harbor", f"n{i}"] + ["x"] * (i % 5), [], tag="mine")) for i in range(8)
        ]
    ready(store)
    q = ranked("harbor lantern", limit=5, has_tags=["mine"])
    with store.read() as s:
        assert store.lexical.hits(s.conn, "A", q, "r.num, r.weight") is None
        found = [r.id for r, _ in s.find("A", q)]
    assert len(found) == 5 and set(found) <= set(mine)
    monkeypatch.setattr(lexical_index, "MAX_WINDOW", 12_800)
    assert_index_answers_as_sql(store, "A", q)  # a wider window finds them in the index
    store.close()


def test_an_unknown_mode_is_refused():
    with pytest.raises(ValueError, match="lexical_index must be one of auto, sql, postings"):
        lexical_index.PostgresLexicalIndex(lambda: None, "bm25")  # type: ignore[arg-type]


def test_a_search_inside_a_writing_transaction_sees_its_own_rows():
    store = PostgresStore(fresh_location(), lexical_index="postings")
    fill(store, 5)
    ready(store)
    with store.transaction() as s:
        new = s.insert(record("A", ["harbor"], []))
        assert [r.id for r, _ in s.find("A", ranked("harbor"))] == [new]
    store.close()


foreign = st.lists(
    st.one_of(
        inserted,
        st.tuples(st.just("text"), st.integers(0, 99), words),
        st.tuples(st.just("hard_delete"), st.integers(0, 99)),
        st.tuples(st.just("search"), st.lists(st.sampled_from(WORDS), min_size=1, max_size=3)),
    ),
    min_size=1,
    max_size=20,
)


@settings(
    max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(plan=foreign)
def test_searches_catch_up_with_another_process_s_writes_themselves(plan):
    """Searches that do not wait for the keeper: each catches the index up with what another process
    committed (after the state, or -- once a search has found such changes -- before scoring, with the
    state), and answers as SQL does."""
    url = fresh_location()
    store = PostgresStore(url, lexical_index="postings")
    other = PostgresStore(url, lexical_index="sql")
    try:
        fill(store, 12)
        ready(store)
        made = [("A", str(n)) for n in range(1, 13) if n % 3 != 1]  # (fill's tenant A records)
        for step in plan:
            if step[0] == "search":
                before, q = store.lexical.seq, ranked(" ".join(step[1]), 5, statuses=None)
                with store.read() as s:  # one search alone: each one sets the next one's way
                    want = exact(s, "A", q)
                    hits = store.lexical.hits(s.conn, "A", q, "r.num, r.weight")
                if hits is None:
                    assert phrased(q.text_query)
                else:
                    assert_same([(str(n), score) for n, score, _ in hits], want)
                # changes found (after scoring, or before it): the next search reads the changes first
                assert store.lexical.others_write == (store.lexical.seq != before)
                continue
            with other.transaction() as s:
                if step[0] == "insert":
                    made.append((step[1], s.insert(record(*step[1:]))))
                elif made:
                    tenant, rid = made[step[1] % len(made)]
                    if step[0] == "hard_delete":
                        s.hard_delete(tenant, [rid])
                        made.remove((tenant, rid))
                    else:
                        s.update(tenant, rid, {"text": " ".join(step[2])})
    finally:
        other.close()
        store.close()


def test_once_a_search_found_another_process_s_changes_the_next_reads_them_first():
    url = fresh_location()
    store = PostgresStore(url, lexical_index="postings")
    other = PostgresStore(url, lexical_index="sql")

    def search(text: str) -> list[str]:
        q = ranked(text, 5, statuses=None)
        with store.read() as s:
            want = exact(s, "A", q)
            hits = store.lexical.hits(s.conn, "A", q, "r.num, r.weight")
        assert hits is not None
        assert_same([(str(n), score) for n, score, _ in hits], want)
        return [str(n) for n, _, _ in hits]

    try:
        fill(store, 12)
        ready(store)
        with other.transaction() as s:
            first = s.insert(record("A", ["violin", "river"], []))
        assert first in search("violin") and store.lexical.others_write  # found after scoring
        with other.transaction() as s:
            second = s.insert(record("A", ["violin", "violin"], []))
            s.update("A", first, {"text": "cello"})
        assert search("violin") == [second] and store.lexical.others_write  # read before scoring
        with other.transaction() as s:
            s.hard_delete("A", [second])
        assert search("violin cello") == [first]
        assert search("violin cello") == [first] and not store.lexical.others_write  # none: as before
    finally:
        other.close()
        store.close()


def test_searches_in_threads_beside_another_process_s_writes_answer_as_sql():
    """Threads of one process search (each catching the shared index up, by either way) while another
    store writes: every answer is PostgreSQL's own, in the search's snapshot."""
    url = fresh_location()
    store = PostgresStore(url, lexical_index="postings", max_connections=4)
    other = PostgresStore(url, lexical_index="sql")
    problems: list[str] = []
    answered: list[bool] = []  # by the index (else SQL: a snapshot older than what another thread absorbed)
    writing = threading.Event()

    def write() -> None:
        for i in range(40):
            with other.transaction() as s:
                s.insert(record("A", ["violin", f"w{i % 5}"], []))
        writing.set()

    def search(n: int) -> None:
        try:
            while not writing.is_set():
                q = ranked(f"violin w{n}", 5, statuses=None)
                with store.read() as s:
                    want = exact(s, "A", q)
                    hits = store.lexical.hits(s.conn, "A", q, "r.num, r.weight")
                answered.append(hits is not None)
                if hits is not None:
                    assert_same([(str(h), score) for h, score, _ in hits], want)
        except Exception as exc:  # reported below
            problems.append(repr(exc))

    try:
        fill(store, 12)
        ready(store)
        threads = [threading.Thread(target=search, args=(n,)) for n in range(3)]
        threads.append(threading.Thread(target=write))
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=120)
        assert problems == [] and any(answered)
        assert_index_answers_as_sql(store, "A", ranked("violin", 50, statuses=None))
    finally:
        other.close()
        store.close()
