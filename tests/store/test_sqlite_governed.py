"""The SQLite store's governance copy (memql.store.sqlite.governed): a search's conditions checked from an
in-process copy must answer as the SQL does, and no change of the database -- by this connection, by
another one, by another process, by the visit flush -- nor the passing of an expiry may leave a read
seeing what it may not, or missing what it may."""

from __future__ import annotations

import random
import sqlite3
import subprocess
import sys
import threading
from datetime import timedelta

import numpy as np
import pytest

from memql.ports.store import Access, RecordQuery
from memql.store.sqlite import SQLiteStore, governed
from memql.testing.sample import MODEL, NOW, put, unit

BOB = RecordQuery(access=Access(actor="bob"), not_expired_at=NOW)  # what a Retrieve of bob's asks
VECTOR = unit(np.random.default_rng(0))


@pytest.fixture(params=["dense", "lexical"])
def side(request):
    return request.param


@pytest.fixture
def store(tmp_path, side):
    store = SQLiteStore(str(tmp_path / "g.db"), vector_index="exact", lexical_index="postings")
    rng = np.random.default_rng(1)
    with store.transaction() as s:
        for i in range(30):  # alice's, all readable by bob, all matching "piano", all near VECTOR
            put(s, "T", f"piano note {i}", VECTOR + 0.1 * unit(rng), owner="alice")
    store.lexical.wait()
    yield store
    store.close()


def seen(store: SQLiteStore, side: str, q: RecordQuery = BOB) -> dict[str, tuple[int, int | None]]:
    """What bob's search finds, with each record's heat (visits, last access)."""
    with store.read() as s:
        if side == "dense":
            found = s.dense_candidates("T", VECTOR, q, 50, MODEL)
        else:
            found = s.find_candidates(
                "T", RecordQuery(**{**q.__dict__, "text_query": "piano", "limit": 50, "order": "relevance"})
            )
    return {c.id: (c.visits, c.last_access_us) for c in found}


def warm(store: SQLiteStore, side: str, q: RecordQuery = BOB) -> dict[str, tuple[int, int | None]]:
    """Search until the copy holds the query's shape (it is loaded once the SQL checks have looked at as
    many candidates as the store has records), so that the next search would use it."""
    for _ in range(5):
        seen(store, side, q)
        store.lexical.wait()  # (the postings index is prepared by a thread: FTS5 answers meanwhile)
        if store.governed.shapes:
            return seen(store, side, q)
    raise AssertionError("the governance copy was never loaded")


def first_id(store: SQLiteStore) -> str:
    """(Read before warming the copy: execute_sql counts as a write of the store's connection.)"""
    return str(store.execute_sql("SELECT min(num) FROM records")[0][0])


def test_a_change_by_another_connection_is_seen_by_the_next_read(store, side, tmp_path):
    target = first_id(store)
    before = warm(store, side)
    assert target in before
    other = SQLiteStore(str(tmp_path / "g.db"), vector_index="exact", lexical_index="postings")
    with other.transaction() as s:
        s.update("T", target, {"read_perm_level": "private"})
    assert target not in seen(store, side)
    with other.transaction() as s:
        s.update("T", target, {"read_perm_level": None})
    assert seen(store, side) == before
    other.close()


def test_a_change_by_another_process_is_seen_by_the_next_read(store, side, tmp_path):
    target = first_id(store)
    warm(store, side)
    script = (
        "import sqlite3, sys; c = sqlite3.connect(sys.argv[1], isolation_level=None); "
        "c.execute('UPDATE records SET read_blacklist = \\'[\"bob\"]\\' WHERE num = ?', (int(sys.argv[2]),))"
    )
    subprocess.run([sys.executable, "-c", script, str(tmp_path / "g.db"), target], check=True)
    assert target not in seen(store, side)


def test_a_write_of_the_same_connection_is_seen_by_the_next_read(store, side):
    target = first_id(store)
    before = warm(store, side)
    with store.transaction() as s:
        s.update("T", target, {"status": "archived"})
    assert target not in seen(store, side)
    with store.transaction() as s:
        s.update("T", target, {"status": "active", "owner": "carol", "read_whitelist": ["dave"]})
    assert target not in seen(store, side)  # a whitelist without a level: custom
    with store.transaction() as s:
        s.update("T", target, {"read_perm_level": "team"})
    assert target in seen(store, side)
    with store.transaction() as s:
        s.update("T", target, {"read_whitelist": ["bob"]})
    assert target in seen(store, side)
    assert set(seen(store, side)) == set(before)


def test_plain_sql_on_the_store_connection_is_seen_by_the_next_read(store, side):
    target = first_id(store)
    cleared = RecordQuery(**{**BOB.__dict__, "sensitivities": ("standard",)})
    assert target in warm(store, side, cleared)
    store.conn.execute("UPDATE records SET sensitivity = 'restricted' WHERE num = ?", (int(target),))
    assert target not in seen(store, side, cleared)


def test_a_rolled_back_write_leaves_no_trace(store, side):
    target = first_id(store)
    before = warm(store, side)
    with pytest.raises(RuntimeError), store.transaction() as s:
        s.update("T", target, {"read_perm_level": "private"})
        assert target not in seen_in(s, side)  # the transaction sees its own change ...
        raise RuntimeError("rolled back")
    assert seen(store, side) == before  # ... and nobody else ever does
    with store.transaction() as s:
        s.update("T", target, {"read_perm_level": "private"})
        inside = seen_in(s, side)
    assert target not in inside and target not in seen(store, side)


def seen_in(session, side: str) -> set[str]:
    if side == "dense":
        return {c.id for c in session.dense_candidates("T", VECTOR, BOB, 50, MODEL)}
    q = RecordQuery(**{**BOB.__dict__, "text_query": "piano", "limit": 50, "order": "relevance"})
    return {c.id for c in session.find_candidates("T", q)}


def test_expiry_is_compared_at_the_instant_of_each_query(store, side):
    target = first_id(store)
    with store.transaction() as s:
        s.update("T", target, {"expire_at": NOW + timedelta(minutes=5)})
    assert target in warm(store, side)
    version = store.governed.version
    at = [NOW + timedelta(minutes=m) for m in (4, 5, 6)]
    found = [target in seen(store, side, RecordQuery(**{**BOB.__dict__, "not_expired_at": t})) for t in at]
    assert found == [True, False, False]  # expire_at > now: gone at the very instant
    assert store.governed.version == version and store.governed.shapes  # answered by the warm copy


def test_the_visit_flush_is_seen_by_the_next_read(store, side):
    target = first_id(store)
    warm(store, side)
    with store.read() as s:
        s.touch("T", [target], NOW)
    assert seen(store, side)[target][0] == 1  # the pending visit, from the buffer
    store.flush_visits()  # written by the flush's own connection
    assert seen(store, side)[target][0] == 1  # from the database now, not a copy from before


@pytest.mark.parametrize("seed", range(3))
def test_the_copy_answers_as_the_sql_does(tmp_path, seed):
    """Random governance (owners, agents, levels, lists, statuses, clearances, expiry) and random readers:
    the copy's answer equals the SQL's for every query."""
    rng = random.Random(seed)
    store = SQLiteStore(str(tmp_path / "r.db"), vector_index="exact")
    actors = ["alice", "bob", "carol", None]
    with store.transaction() as s:
        for i in range(120):
            put(s, "T", f"r{i}", None, **_random_fields(rng))
        put(s, "U", "another tenant's", None)
    nums = [int(r[0]) for r in store.execute_sql("SELECT num FROM records ORDER BY num")]
    queries = [
        RecordQuery(
            statuses=rng.choice([("active",), ("active", "archived"), None]),
            not_expired_at=rng.choice([None, NOW, NOW + timedelta(days=2)]),
            access=rng.choice(
                [None, *(Access(a, g, p) for a in actors for g in (False, True) for p in (False, True))]
            ),
            sensitivities=rng.choice([None, ("standard",), ("standard", "sensitive")]),
            has_tags=rng.choice([(), ("x",)]),
        )
        for _ in range(60)
    ]
    with store.read() as s:
        sql = governed.Checker(s.conn)
        for q in queries:
            copy = governed.Checker(s.conn, governed.GovernanceCopy(), s.check.version)
            copy("T", q, nums)  # loads the copy: as many candidates checked as there are records
            assert copy.copy is not None and len(copy.copy.shapes) == 1
            for _ in range(3):
                candidates = rng.sample(nums, 40)
                expected = {n: tuple(row) for n, row in sql("T", q, candidates).items()}
                got = copy("T", q, candidates)
                assert got == expected and list(got) == list(expected)  # in the same (number) order
    store.close()


def test_a_store_too_large_or_a_shape_checked_rarely_keeps_to_sql(tmp_path, monkeypatch):
    store = SQLiteStore(str(tmp_path / "s.db"), vector_index="exact")
    with store.transaction() as s:
        for i in range(20):
            put(s, "T", f"r{i}", VECTOR)
    with store.read() as s:
        s.check("T", BOB, [1, 2, 3])  # 3 candidates checked of 20 records: not worth a copy yet
        assert not store.governed.shapes
    monkeypatch.setattr(governed, "MAX_RECORDS", 10)
    with store.read() as s:
        for _ in range(10):
            s.check("T", BOB, list(range(1, 21)))
        assert not store.governed.shapes
    monkeypatch.setattr(governed, "MAX_RECORDS", 100)
    with store.read() as s:
        for _ in range(2):
            s.check("T", BOB, list(range(1, 21)))
        assert store.governed.shapes
    with store.transaction() as s:  # a write transaction never reads the copy
        assert s.check.version is None
    store.close()


def test_instants_stored_otherwise_than_as_integers_keep_to_sql(tmp_path):
    store = SQLiteStore(str(tmp_path / "o.db"), vector_index="exact")
    with store.transaction() as s:
        for i in range(5):
            put(s, "T", f"r{i}", VECTOR)
    conn = sqlite3.connect(str(tmp_path / "o.db"), isolation_level=None)
    conn.execute("UPDATE records SET expire_at = 'later' WHERE num = 1")  # text: above any integer in SQL
    conn.close()
    with store.read() as s:
        for _ in range(3):
            got = s.check("T", BOB, [1, 2, 3, 4, 5])
        assert 1 in got and store.governed.shapes
        assert all(rows is governed._UNUSABLE for rows in store.governed.shapes.values())
        assert {n: tuple(r) for n, r in got.items()} == {
            n: tuple(r) for n, r in governed.Checker(s.conn)("T", BOB, [1, 2, 3, 4, 5]).items()
        }
    store.close()


def test_a_set_aside_record_stored_otherwise_makes_its_shape_keep_to_sql(tmp_path):
    """A record re-checked from the set-aside ones with an expiry SQL orders apart (text) makes the shape
    unusable: checks go to SQL, and what else was set aside is dropped with it (the shared marker of an
    unusable shape never takes rows)."""
    path = str(tmp_path / "u.db")
    store = SQLiteStore(path, vector_index="exact")
    with store.transaction() as s:
        for i in range(6):
            put(s, "T", f"r{i}", VECTOR)
    with store.read() as s:
        for _ in range(2):
            s.check("T", BOB, [1, 2, 3, 4, 5, 6])
    assert store.governed.shapes
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("UPDATE records SET expire_at = 'later' WHERE num = 1")
    conn.execute("UPDATE records SET tags = '[\"x\"]' WHERE num = 2")
    conn.close()
    for candidates in ([1, 3], [2, 4], [1, 2, 3, 4, 5, 6]):
        with store.read() as s:
            got = {n: tuple(r) for n, r in s.check("T", BOB, candidates).items()}
            assert got == {n: tuple(r) for n, r in governed.Checker(s.conn)("T", BOB, candidates).items()}
        assert all(rows is governed._UNUSABLE for rows in store.governed.shapes.values())
        assert governed._UNUSABLE == {} and not any(store.governed.aside.values())
    store.close()


def in_the_file(store: SQLiteStore) -> dict[str, tuple[int, int | None]]:
    """Every record's heat as the file holds it, read on a connection of its own."""
    conn = sqlite3.connect(store.path)
    try:
        return {str(n): (v, a) for n, v, a in conn.execute("SELECT num, visits, last_access_at FROM records")}
    finally:
        conn.close()


def copy_matches_the_file(store: SQLiteStore) -> None:
    """Each shape the copy holds is what loading it afresh gives (the heat the flushes applied included)."""
    conn = sqlite3.connect(store.path)
    try:
        for key, rows in store.governed.shapes.items():
            sql, params = key[0], [value for _, value in key[1:]]
            assert rows == governed._load(conn, sql, params)
    finally:
        conn.close()


def test_the_copy_outlives_the_process_s_own_visit_flushes(store, side):
    target = first_id(store)
    warm(store, side)
    shapes = dict(store.governed.shapes)
    for minutes in (1, 2, 3):
        with store.read() as s:
            s.touch("T", [target, str(int(target) + 1)], NOW + timedelta(minutes=minutes))
        store.flush_visits()  # as the buffer's timer does: on the store's connection, the lock being free
        found = seen(store, side)
        assert all(store.governed.shapes[key] is rows for key, rows in shapes.items())  # kept, not reloaded
        assert (
            found[target]
            == in_the_file(store)[target]
            == (minutes, int((NOW + timedelta(minutes=minutes)).timestamp() * 1e6))
        )
        copy_matches_the_file(store)
    with store.read() as s:  # an earlier instant moves no last access back, as the SQL's MAX
        s.touch("T", [target], NOW)
    store.flush_visits()
    assert seen(store, side)[target] == in_the_file(store)[target] and in_the_file(store)[target][0] == 4
    copy_matches_the_file(store)


def test_another_connection_s_visit_flush_or_heat_is_read_again(store, side, tmp_path):
    target = first_id(store)
    warm(store, side)
    other = SQLiteStore(str(tmp_path / "g.db"), vector_index="exact", lexical_index="postings")
    with other.read() as s:
        s.touch("T", [target], NOW)
    other.flush_visits()
    assert seen(store, side)[target] == in_the_file(store)[target] and in_the_file(store)[target][0] == 1
    other.close()
    warm(store, side)
    script = (
        "import sqlite3, sys; c = sqlite3.connect(sys.argv[1], isolation_level=None); "
        "c.execute('UPDATE records SET visits = 40 WHERE num = ?', (int(sys.argv[2]),))"
    )
    subprocess.run([sys.executable, "-c", script, str(tmp_path / "g.db"), target], check=True)
    assert seen(store, side)[target][0] == 40  # plain SQL on the heat alone: counted by the triggers


def test_a_flush_waits_for_another_s_write_lock_on_a_connection_of_its_own(store, side, tmp_path):
    target = first_id(store)
    warm(store, side)
    with store.read() as s:
        s.touch("T", [target], NOW)
    holder = sqlite3.connect(str(tmp_path / "g.db"), isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another process's write lock
    flushing = threading.Thread(target=store.flush_visits)
    flushing.start()
    flushing.join(0.3)
    assert flushing.is_alive()  # waiting for the lock, but not on the store's connection:
    assert seen(store, side)[target][0] == 1  # reads go on meanwhile (the visit, from the buffer)
    holder.execute("COMMIT")
    flushing.join(10)
    assert not flushing.is_alive() and not store.visits.pending
    assert in_the_file(store)[target][0] == 1 and seen(store, side)[target][0] == 1
    holder.close()


def test_every_change_of_a_record_is_logged_and_the_log_is_kept_short(tmp_path):
    store = SQLiteStore(str(tmp_path / "c.db"))
    logged = "SELECT num FROM record_changes ORDER BY seq"
    with store.transaction() as s:
        first, second = put(s, "T", "a note", None), put(s, "T", "another", None)
    with store.transaction() as s:
        s.update("T", first, {"tags": ["x"]})
        s.touch("T", [second], NOW)  # heat too
        s.hard_delete("T", [first])
    store.execute_sql("UPDATE records SET num = 77 WHERE num = ?", (int(second),))  # (plain SQL: both)
    changes = [str(row[0]) for row in store.execute_sql(logged)]
    assert changes[-5:] == [first, second, first, "77", second]  # (a new number: both)
    fill = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 120000) "
    store.execute_sql(fill + "INSERT INTO record_changes (num) SELECT 1 FROM c")
    low, high, count = store.execute_sql("SELECT min(seq), max(seq), count(*) FROM record_changes")[0]
    assert high > 120_000 and count <= 100_000 + 10_000 and low == high - count + 1
    store.close()


def test_a_copy_further_behind_than_the_log_starts_over(store, side):
    target = first_id(store)
    warm(store, side)
    shapes = dict(store.governed.shapes)
    fill = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 110000) "
    store.conn.execute(fill + "INSERT INTO record_changes (num) SELECT 1 FROM c")
    store.conn.execute("UPDATE records SET read_blacklist = '[\"bob\"]' WHERE num = ?", (int(target),))
    assert target not in seen(store, side)
    assert not any(store.governed.shapes.get(key) is rows for key, rows in shapes.items())


def _random_fields(rng: random.Random) -> dict:
    """A record's governance, drawn at random (owners, agents, statuses, levels, lists, clearance, expiry)."""
    actors = ["alice", "bob", "carol", None]
    return {
        "owner": rng.choice(actors),
        "agent": rng.choice([None, None, "bot"]),
        "status": rng.choice(["active", "active", "archived", "pending", "rejected", "expired"]),
        "read_perm_level": rng.choice([None, "public", "team", "private", "custom", "odd"]),
        "read_whitelist": rng.choice([None, [], ["bob"], ["carol", "bot"]]),
        "read_blacklist": rng.choice([None, [], ["bob"], ["alice", "bot"]]),
        "sensitivity": rng.choice(["standard", "sensitive", "restricted"]),
        "expire_at": rng.choice([None, NOW - timedelta(days=1), NOW + timedelta(days=1)]),
        "tags": rng.sample(["x", "y", "z"], rng.randint(0, 2)),
        "weight": round(rng.random(), 2),
    }


@pytest.mark.parametrize(("seed", "recheck_at"), [(0, 256), (1, 4), (2, 1)])
def test_a_copy_caught_up_answers_as_the_sql_does(tmp_path, monkeypatch, seed, recheck_at):
    """Random changes -- governance, heat, inserts, hard deletes; by the store's connection, by another
    store on the file, by plain SQL -- between reads: each read's copy, caught up from the log of changed
    records, answers as the SQL does, and is not loaded afresh to do so. (With the changed records set aside
    until asked for, re-checked a few at a time, or each at its catch-up.)"""
    monkeypatch.setattr(governed, "RECHECK_AT", recheck_at)
    rng = random.Random(seed)
    path = str(tmp_path / "c.db")
    store = SQLiteStore(path, vector_index="exact")
    other = SQLiteStore(path, vector_index="exact")
    with store.transaction() as s:
        for i in range(80):
            put(s, "T", f"r{i}", None, **_random_fields(rng))
    actors = ["alice", "bob", None]
    queries = [
        RecordQuery(statuses=("active",), not_expired_at=NOW, access=Access("bob")),
        RecordQuery(statuses=("active", "archived"), access=Access(rng.choice(actors), True, False)),
        RecordQuery(statuses=None, sensitivities=("standard",), has_tags=("x",)),
    ]

    def nums() -> list[int]:
        return [int(r[0]) for r in other.execute_sql("SELECT num FROM records ORDER BY num")]

    with store.read() as s:  # load the copy of each shape: as many candidates checked as records
        for q in queries:
            for _ in range(2):
                s.check("T", q, nums())
    loaded = {key: id(rows) for key, rows in store.governed.shapes.items()}
    assert len(loaded) == len(queries)
    for step in range(40):
        writer = rng.choice([store, other])
        known = nums()
        kind = rng.choice(["update", "update", "heat", "insert", "delete", "sql"])
        if kind == "sql":
            target = rng.choice(known)
            store.conn.execute("UPDATE records SET status = 'archived' WHERE num = ?", (target,))
        else:
            with writer.transaction() as s:
                if kind == "update":
                    s.update("T", str(rng.choice(known)), _random_fields(rng))
                elif kind == "heat":
                    s.touch("T", [str(n) for n in rng.sample(known, 5)], NOW + timedelta(minutes=step))
                elif kind == "insert":
                    put(s, "T", f"new {step}", None, **_random_fields(rng))
                else:
                    s.hard_delete("T", [str(rng.choice(known))])
        candidates = [*nums(), 10_000]  # (and one that is no record)
        if step % 2:  # a few candidates: the records changed since may stay set aside, or be among them
            candidates = sorted(rng.sample(candidates, 6))
        with store.read() as s:
            for q in queries:
                expected = {n: tuple(row) for n, row in governed.Checker(s.conn)("T", q, candidates).items()}
                got = s.check("T", q, candidates)
                assert {n: tuple(row) for n, row in got.items()} == expected, (step, kind)
        assert {key: id(rows) for key, rows in store.governed.shapes.items()} == loaded  # caught up, kept
        for key, rows in store.governed.shapes.items():  # what waits to be re-checked is in no shape's rows
            assert not store.governed.aside[key] & rows.keys()
    other.close()
    store.close()


def test_records_changed_by_a_writer_are_re_checked_when_a_read_asks_for_them(tmp_path, monkeypatch):
    """A copy catching up sets the changed records aside instead of re-checking each commit's in SQL; a
    check re-checks those among its candidates, a search that reads the shape whole (FTS5's window) all of
    them, and a shape with RECHECK_AT of them waiting re-checks them at once. Every answer is the SQL's."""
    monkeypatch.setattr(governed, "RECHECK_AT", 6)
    path = str(tmp_path / "a.db")
    store, writer = SQLiteStore(path, vector_index="exact"), SQLiteStore(path, vector_index="exact")
    with store.transaction() as s:
        ids = [put(s, "T", f"note {i}", None, owner="alice") for i in range(40)]
    nums = [int(i) for i in ids]
    with store.read() as s:
        for _ in range(2):
            s.check("T", BOB, nums)  # loads the shape: as many candidates checked as records
    (key,) = store.governed.shapes
    rows = store.governed.shapes[key]
    hidden, changed = nums[0], nums[1:3]
    for num in (hidden, *changed):
        with writer.transaction() as s:  # each its own commit: the copy catches up at each read
            s.update("T", str(num), {"read_perm_level": "private"} if num == hidden else {"tags": ["x"]})
        with store.read() as s:
            got = s.check("T", BOB, nums[10:20])  # not among these: left aside, no SQL
            assert sorted(got) == nums[10:20]
    assert store.governed.aside[key] == {hidden, *changed}
    assert hidden not in rows and store.governed.shapes[key] is rows

    def sql(candidates):
        with store.read() as s:
            return {n: tuple(r) for n, r in governed.Checker(s.conn)("T", BOB, candidates).items()}

    with store.read() as s:  # one of them among the candidates: re-checked alone
        got = {n: tuple(r) for n, r in s.check("T", BOB, [changed[0], *nums[10:12]]).items()}
    assert got == sql([changed[0], *nums[10:12]]) and changed[0] in got
    assert store.governed.aside[key] == {hidden, changed[1]}
    with store.read() as s:
        got = {n: tuple(r) for n, r in s.check("T", BOB, nums[:5]).items()}
    assert got == sql(nums[:5]) and hidden not in got and set(changed) <= got.keys()
    assert store.governed.aside[key] == set() and store.governed.shapes[key] is rows  # re-checked, kept

    with writer.transaction() as s:  # one set aside, then a search that reads the shape whole
        s.update("T", str(nums[5]), {"read_perm_level": "private"})
    with store.read() as s:
        held = s.check.held("T", BOB, 10)
    assert held is not None and nums[5] not in held[0] and store.governed.aside[key] == set()

    with writer.transaction() as s:  # RECHECK_AT waiting: re-checked unasked, at the catch-up
        for num in nums[20:26]:
            s.update("T", str(num), {"read_perm_level": "private"})
    with store.read() as s:
        assert s.check("T", BOB, nums[30:32]).keys() == {nums[30], nums[31]}
    assert store.governed.aside[key] == set() and not set(nums[20:26]) & rows.keys()
    assert rows == {n: r for n, r in governed._load(store.conn, key[0], [v for _, v in key[1:]]).items()}
    writer.close()
    store.close()
