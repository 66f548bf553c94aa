"""The SQLite backend's postings index (memql.store.sqlite.lexical) against FTS5, the oracle: over generated
stores -- inserts, text changes, hard deletes, status and weight changes, several tenants, rolled-back
transactions, writes through a second connection and searches in between -- the index returns FTS5's
records in FTS5's order with FTS5's scores. Also: catching up on another process's writes, snapshots,
a refilled FTS5 table, the auto mode's threshold and the fallbacks to FTS5."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from budgets import examples
from lexical_plans import apply_plan, assert_same, oracle_of, ranked, record
from memql.ports.store import RecordQuery
from memql.services.tokenize import query_terms
from memql.store.sqlite import SQLiteStore, lexical, query

WORDS = ["river", "rivers", "garden", "invoice", "piano", "the", "running", "ran", "café", "naïve"]
WORDS += ["机器学习", "学习", "Москва", "mp3", "हिन्दी"]  # the last one is a phrase to FTS5 (3 tokens)
TENANTS = ["A", "A", "B"]
STATUSES = ["active", "active", "archived", "deleted"]
LEVELS = ["standard", "standard", "sensitive"]

words = st.lists(st.sampled_from(WORDS), max_size=8)
inserted = st.tuples(
    st.just("insert"),
    st.sampled_from(TENANTS),
    words,
    st.lists(st.sampled_from(WORDS), max_size=3),  # payload.context
    st.sampled_from(STATUSES),
    st.sampled_from(["x", "y"]),  # tag
    st.sampled_from(LEVELS),
    st.sampled_from([0.2, 0.5, 0.5, 0.8]),  # weight: equal scores are ordered by it
)
steps = st.lists(
    st.one_of(
        inserted,
        st.tuples(st.just("text"), st.integers(0, 99), words),
        st.tuples(st.just("tags"), st.integers(0, 99), st.lists(st.sampled_from(WORDS), max_size=2)),
        st.tuples(st.just("weight"), st.integers(0, 99), st.sampled_from([0.2, 0.5, 0.8])),
        st.tuples(st.just("status"), st.integers(0, 99), st.sampled_from(STATUSES)),
        st.tuples(st.just("hard_delete"), st.integers(0, 99)),
        st.tuples(st.just("rolled_back"), inserted, st.integers(0, 99), words),
        st.tuples(st.just("elsewhere"), inserted, st.integers(0, 99)),
        st.tuples(st.just("search"), st.lists(st.sampled_from(WORDS), min_size=1, max_size=3)),
    ),
    min_size=1,
    max_size=30,
)


@pytest.fixture(autouse=True)
def prepared_by_the_search(monkeypatch):
    """These tests check the index's answers: each search prepares it (the background preparation, with
    FTS5 answering meanwhile, is tested in test_sqlite_lexical_background.py)."""
    monkeypatch.setattr(lexical, "IN_BACKGROUND", False)


queries = st.lists(
    st.tuples(
        st.lists(st.sampled_from(WORDS), min_size=1, max_size=3),
        st.sampled_from(["A", "B"]),
        st.integers(1, 12),  # limit
        st.sampled_from([None, "x"]),  # tag filter
        st.booleans(),  # every status, or active only
        st.booleans(),  # the reader's clearance: standard only, or any
    ),
    min_size=1,
    max_size=4,
)


fts5 = oracle_of(query.build)  # the oracle: one FTS5 query over every match, conditions and order in SQL


def phrased(text: str) -> bool:
    """Whether FTS5 reads a query term of this text as a phrase of several tokens."""
    return any(len(p) != 1 for p in lexical.FTS5Tokenizer()(query_terms(text)))


def assert_index_answers_as_fts5(store: SQLiteStore, tenant: str, q: RecordQuery, *, may_fall_back=False):
    with store.transaction() as s:
        want = fts5(s, tenant, q)
        got = store.lexical.search(s.conn, tenant, q)
        if got is None:  # FTS5 answers: for a phrase, or a window past MAX_WINDOW
            assert may_fall_back or phrased(q.text_query)
        else:
            assert not phrased(q.text_query)
            assert_same([(r.id, score) for r, score in got], want)
        assert_same([(r.id, score) for r, score in s.find(tenant, q)], want)


def run(store: SQLiteStore, other: SQLiteStore, plan) -> list[tuple[str, str]]:
    """Apply the generated steps (lexical_plans.apply_plan): FTS5 answers inside a rolled-back transaction;
    a search between the steps checks the index against FTS5."""

    def search(text: str) -> None:
        q = ranked(text, statuses=None)
        assert_index_answers_as_fts5(store, "A", q, may_fall_back=lexical.MAX_WINDOW < 40)

    return apply_plan(store, other, plan, fts5, search)


@pytest.mark.parametrize("windows", [(200, 12_800), (1, 8)], ids=["default-windows", "tiny-windows"])
@settings(
    max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(plan=steps, checks=queries)
def test_the_index_answers_as_fts5_over_generated_stores(monkeypatch, windows, plan, checks):
    first, widest = windows
    monkeypatch.setattr(lexical, "FIRST_WINDOW", first)
    monkeypatch.setattr(lexical, "MAX_WINDOW", widest)
    with tempfile.TemporaryDirectory() as tmp:
        path = str(Path(tmp) / "s.db")
        store = SQLiteStore(path, lexical_index="postings")
        other = SQLiteStore(path, lexical_index="fts5")  # a second connection writing the same file
        try:
            run(store, other, plan)
            for text, tenant, limit, tag, any_status, cleared in checks:
                q = ranked(
                    " ".join(text),
                    limit,
                    statuses=None if any_status else ("active",),
                    has_tags=[tag] if tag else [],
                    sensitivities=None if cleared else ("standard",),
                )
                assert_index_answers_as_fts5(store, tenant, q, may_fall_back=widest < 4 * limit)
            with store.transaction() as s:  # every record of every tenant, as FTS5 counts them
                assert (
                    len(store.lexical.postings)
                    == s.conn.execute("SELECT count(*) FROM records_fts").fetchone()[0]
                )
        finally:
            other.close()
            store.close()


WRITER = """
import sys
from datetime import UTC, datetime
from memql.ports.record import Record
from memql.store.sqlite import SQLiteStore

now = datetime(2026, 3, 4, tzinfo=UTC)
store = SQLiteStore(sys.argv[1], lexical_index="fts5")
with store.transaction() as s:
    for i in range(30):
        text = f"harbor lantern {i} " + "harbor " * (i % 4)
        s.insert(Record(tenant="A", text=text, created_at=now, updated_at=now))
    s.update("A", "1", {"text": "no longer a match"})
    s.hard_delete("A", ["2", "3"])
store.close()
"""


def test_another_processes_writes_are_caught_up(tmp_path):
    path = str(tmp_path / "p.db")
    store = SQLiteStore(path, lexical_index="postings")
    with store.transaction() as s:
        for i in range(5):
            s.insert(record("A", ["harbor", f"n{i}"], []))
    q = ranked("harbor lantern", limit=12)
    assert_index_answers_as_fts5(store, "A", q)  # builds the index
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    subprocess.run([sys.executable, "-c", WRITER, path], check=True, env=env, timeout=120)
    assert_index_answers_as_fts5(store, "A", q)
    with store.transaction() as s:
        ids = [r.id for r, _ in store.lexical.search(s.conn, "A", q)]
    assert "1" not in ids and "2" not in ids and "3" not in ids and len(ids) == 12
    assert store.lexical.seq == 5 + 30 + 1 + 2  # five inserts here, then 30 inserts, an update, two deletes
    store.close()


def fill(store: SQLiteStore, n: int, start: int = 0) -> None:
    with store.transaction() as s:
        for i in range(start, start + n):
            s.insert(
                record("A" if i % 3 else "B", [*["garden", "river"][: 1 + i % 2], f"w{i % 7}"], ["piano"])
            )


def test_a_snapshot_is_loaded_and_caught_up_instead_of_a_rebuild(tmp_path, monkeypatch):
    path = str(tmp_path / "snap.db")
    store = SQLiteStore(path, lexical_index="postings")
    fill(store, 40)
    assert_index_answers_as_fts5(store, "A", ranked("garden river"))
    store.close()  # saves the index beside the file
    (snapshot,) = (tmp_path / "snap.db.lexical").glob("*.postings")
    writer = SQLiteStore(path, lexical_index="fts5")
    fill(writer, 10, start=40)
    with writer.transaction() as s:
        s.update("A", "2", {"text": "piano only"})
        s.hard_delete("A", ["5"])
    writer.close()

    def no_rebuild(*_args):
        raise AssertionError("the index was rebuilt instead of loaded")

    monkeypatch.setattr(lexical.LexicalIndex, "_build", no_rebuild)
    reopened = SQLiteStore(path, lexical_index="postings")
    for text in ("garden river", "piano", "w3 garden"):
        for tenant in ("A", "B"):
            assert_index_answers_as_fts5(reopened, tenant, ranked(text, statuses=None))
    assert reopened.lexical.seq == 40 + 10 + 2
    reopened.close()
    assert [p.name for p in (tmp_path / "snap.db.lexical").glob("*.postings")] == [
        snapshot.name.replace(".40.postings", ".52.postings")
    ]


def test_a_snapshot_of_another_store_at_the_same_path_is_ignored(tmp_path):
    path = tmp_path / "same.db"
    first = SQLiteStore(str(path), lexical_index="postings")
    fill(first, 30)
    assert_index_answers_as_fts5(first, "A", ranked("garden"))
    first.close()
    path.unlink()  # a new store at the same path: another store id
    for extra in ("-wal", "-shm"):
        Path(f"{path}{extra}").unlink(missing_ok=True)
    second = SQLiteStore(str(path), lexical_index="postings")
    with second.transaction() as s:
        s.insert(record("A", ["garden"], []))
    assert_index_answers_as_fts5(second, "A", ranked("garden"))
    assert len(second.lexical.postings) == 1
    second.close()


def test_a_refilled_fts5_table_makes_every_index_start_over(tmp_path):
    path = str(tmp_path / "gen.db")
    store = SQLiteStore(path, lexical_index="postings")
    fill(store, 20)
    assert_index_answers_as_fts5(store, "A", ranked("garden"))
    built = store.lexical.postings
    with store.transaction() as s:  # as if another memql's analyzer wrote the index
        s.conn.execute("UPDATE counters SET value = 0 WHERE name = 'lexical_analyzer'")
        s.conn.execute("UPDATE records_fts SET body = 'stale' WHERE rowid = 1")
    SQLiteStore(path, lexical_index="fts5").close()  # opening refills the FTS5 table
    with store.transaction() as s:
        assert s.conn.execute("SELECT count(*) FROM lexical_changes").fetchone()[0] == 0
    assert_index_answers_as_fts5(store, "A", ranked("garden stale"))
    assert store.lexical.postings is not built
    store.close()


def test_auto_builds_the_index_from_the_threshold_on(tmp_path, monkeypatch):
    monkeypatch.setattr(lexical, "POSTINGS_MIN_RECORDS", 10)
    store = SQLiteStore(str(tmp_path / "auto.db"))  # "auto"
    fill(store, 9)
    with store.transaction() as s:
        assert store.lexical.search(s.conn, "A", ranked("garden")) is None  # FTS5 answers
    assert store.lexical.postings is None
    fill(store, 1, start=9)
    assert_index_answers_as_fts5(store, "A", ranked("garden"))
    assert store.lexical.postings is not None and len(store.lexical.postings) == 10
    fts_only = SQLiteStore(str(tmp_path / "auto.db"), lexical_index="fts5")
    with fts_only.transaction() as s:
        assert fts_only.lexical.search(s.conn, "A", ranked("garden")) is None
    fts_only.close()
    store.close()


def test_a_window_that_would_grow_too_wide_falls_back_to_fts5(tmp_path, monkeypatch):
    """The best matches fail the filter: past MAX_WINDOW the full FTS5 query answers, with every match."""
    monkeypatch.setattr(lexical, "MAX_WINDOW", 64)
    store = SQLiteStore(str(tmp_path / "wide.db"), lexical_index="postings")
    with store.transaction() as s:
        for _ in range(300):
            s.insert(record("A", ["harbor", "harbor", "harbor", "lantern"], [], tag="other"))
        mine = [
            s.insert(record("A", ["harbor", f"n{i}"] + ["x"] * (i % 5), [], tag="mine")) for i in range(8)
        ]
    q = ranked("harbor lantern", limit=5, has_tags=["mine"])
    with store.transaction() as s:
        assert store.lexical.search(s.conn, "A", q) is None
        found = [r.id for r, _ in s.find("A", q)]
    assert len(found) == 5 and set(found) <= set(mine)
    monkeypatch.setattr(lexical, "MAX_WINDOW", 12_800)
    assert_index_answers_as_fts5(store, "A", q)  # a wider window finds them in the index
    store.close()


def test_an_unknown_mode_is_refused():
    with pytest.raises(ValueError, match="lexical_index must be one of auto, fts5, postings"):
        SQLiteStore(":memory:", lexical_index="bm25")  # type: ignore[arg-type]


def test_query_texts_without_terms_and_limits_of_zero_find_nothing():
    store = SQLiteStore(":memory:", lexical_index="postings")
    fill(store, 5)
    with store.transaction() as s:
        assert store.lexical.search(s.conn, "A", ranked("the of and")) == []  # stop words only: kept
        assert store.lexical.search(s.conn, "A", ranked("!!! ???")) == []
        assert store.lexical.search(s.conn, "A", replace(ranked("garden"), limit=0)) == []
    store.close()


def test_an_unreadable_snapshot_is_rebuilt_from_the_fts5_table(tmp_path):
    path = str(tmp_path / "bad.db")
    store = SQLiteStore(path, lexical_index="postings")
    fill(store, 12)
    assert_index_answers_as_fts5(store, "A", ranked("garden"))
    store.close()
    (snapshot,) = (tmp_path / "bad.db.lexical").glob("*.postings")
    snapshot.write_bytes(snapshot.read_bytes()[:100])  # truncated
    reopened = SQLiteStore(path, lexical_index="postings")
    assert_index_answers_as_fts5(reopened, "A", ranked("garden river"))
    assert len(reopened.lexical.postings) == 12
    reopened.close()


def test_a_snapshot_of_another_history_of_the_file_is_ignored(tmp_path):
    """A backup restored over the file: its changes reach the snapshot's number again, but other ones."""
    path = tmp_path / "h.db"
    store = SQLiteStore(str(path), lexical_index="postings")
    fill(store, 20)
    store.close()
    backup = path.read_bytes()  # checkpointed at close: the whole store is in the file
    store = SQLiteStore(str(path), lexical_index="postings")
    with store.transaction() as s:
        for i in range(5):
            s.update("A", "2", {"text": f"garden edit {i}"})
    assert_index_answers_as_fts5(store, "A", ranked("garden"))
    store.close()  # a snapshot as of change 25, which changed record 2
    path.write_bytes(backup)
    restored = SQLiteStore(str(path), lexical_index="postings")
    fill(restored, 5, start=20)  # changes 21-25 again: new records, not edits of record 2
    assert_index_answers_as_fts5(restored, "A", ranked("garden edit", statuses=None))
    assert_index_answers_as_fts5(restored, "B", ranked("garden river w3", statuses=None))
    restored.close()


def test_a_read_at_the_version_the_index_caught_up_at_reads_no_changes(tmp_path):
    """The index remembers the read version it last caught up at: another search at that version reads
    nothing from the change log; a commit by another connection is absorbed by the next read."""
    path = str(tmp_path / "v.db")
    store, writer = SQLiteStore(path, lexical_index="postings"), SQLiteStore(path, lexical_index="fts5")
    fill(store, 12)
    q = ranked("garden river", limit=30)
    statements: list[str] = []
    with store.read() as s:
        s.find_candidates("A", q)
    store.lexical.wait()  # (prepared by a thread: FTS5 answers meanwhile)
    with store.read() as s:
        first = s.find_candidates("A", q)  # the index, caught up at this read's version
        assert store.lexical.postings is not None
        store.conn.set_trace_callback(statements.append)
        assert [c.id for c in s.find_candidates("A", q)] == [c.id for c in first]
        store.conn.set_trace_callback(None)
    assert not any("lexical_changes" in sql for sql in statements)  # (nor any other: the copy checks)
    fill(writer, 3, start=12)  # matching, by another connection
    with store.read() as s:
        store.conn.set_trace_callback(statements.append)
        found = s.find_candidates("A", q)
        store.conn.set_trace_callback(None)
    assert any("lexical_changes" in sql for sql in statements)
    assert len(found) == len(first) + 2  # (one of the three is tenant B's)
    assert_index_answers_as_fts5(store, "A", q)
    writer.close()
    store.close()
