"""Reads are reads (issue 20, item 1): a read-only program runs in a read transaction that takes no write
lock; its visits (heat) and audit entry wait in the store's buffer and are written in batches — on close,
before the store's next write, past a size or an interval — with the process's own reads seeing them at
once. On every backend."""

from __future__ import annotations

import threading
import time
from datetime import UTC, datetime, timedelta

import pytest

from memql import Memory
from memql.ports.record import Record

T0 = datetime(2026, 3, 4, 10, 0, tzinfo=UTC)


def _stored(store, tenant: str, record_id: str) -> Record:
    """The record as committed, through a connection of its own (not the buffering one)."""
    with store.read() as session:
        return session.get(tenant, [record_id])[record_id]


@pytest.fixture
def quiet_store(store_factory):
    """A store whose buffer flushes only when told (on close, before a write): no timer in the test."""
    store = store_factory()
    store.visits.interval, store.visits.size = 3600.0, 10**6
    yield store
    store.close()


def test_n_reads_are_n_visits_after_close(store_factory, clock):
    store = store_factory()
    m = Memory(store, tenant="t", actor="alice", clock=clock, embedder=None)
    hot = m.encode("the harbour ferry leaves at nine").affected_ids[0]
    cold = m.encode("the harbour ferry is blue").affected_ids[0]
    n = 7
    for i in range(n):
        clock.advance(timedelta(minutes=1))
        ids = [hot] if i % 2 else [hot, cold]
        assert [r["id"] for r in m.retrieve(ids=ids, include=["id"]).data["rows"]] == ids
    last_read = clock.now()
    bob = Memory(store, tenant="t", actor="bob", clock=clock, embedder=None)
    private = m.encode("alice's locker code", read_perm_level="private").affected_ids[0]
    assert bob.retrieve(ids=[private]).data["rows"] == []  # governance as before: and no visit
    store.close()

    again = store_factory.reopen(store)
    try:
        assert _stored(again, "t", hot).visits == n
        assert _stored(again, "t", hot).last_access_at == last_read
        assert _stored(again, "t", cold).visits == (n + 1) // 2
        assert _stored(again, "t", private).visits == 0
        reader = Memory(again, tenant="t", actor="alice", clock=clock, embedder=None)
        explain = reader.retrieve("harbour ferry", include=["id", "explain"]).data["rows"]
        heat = {row["id"]: row["explain"]["visits"] for row in explain}
        assert heat == {hot: n, cold: (n + 1) // 2}
        with again.read() as session:
            ops = [op.op for op, _ in session.export_log(0, 100)]  # type: ignore[attr-defined]
        # every read is audited: alice's n and bob's one were written on close (the search above waits
        # in this connection's buffer)
        assert ops.count("Retrieve") == n + 1
    finally:
        again.close()


def test_a_read_sees_its_own_pending_visits_and_a_write_records_them(quiet_store, store_factory, clock):
    m = Memory(quiet_store, tenant="t", actor="alice", clock=clock, embedder=None)
    rid = m.encode("the lighthouse keeper's log").affected_ids[0]
    other = store_factory.reopen(quiet_store)  # another process's view: the committed state only
    try:
        for expected in range(3):
            clock.advance(timedelta(hours=1))
            (row,) = m.retrieve(ids=[rid], include=["id", "visits", "last_access_at"]).data["rows"]
            assert row["visits"] == expected  # the earlier reads of this process count at once
        assert row["last_access_at"] == clock.now() - timedelta(hours=1)
        assert _stored(other, "t", rid).visits == 0  # nothing written per read
        assert m.encode("a second note").success  # a write: the pending visits are written first
        assert _stored(other, "t", rid).visits == 3
        assert _stored(other, "t", rid).last_access_at == clock.now()
    finally:
        other.close()


def test_a_read_answers_while_another_connection_holds_a_write_transaction(store_factory, clock):
    store = store_factory()
    writer_store = store_factory.reopen(store)
    m = Memory(store, tenant="t", actor="alice", clock=clock, embedder=None)
    rid = m.encode("the tide table for March", weight=0.5).affected_ids[0]
    answered: list[list[dict]] = []
    try:
        with writer_store.transaction() as writer:
            # the writer holds the write lock (SQLite) or the tenant's lock and the row (PostgreSQL)
            writer.get("t", [rid])
            writer.update("t", rid, {"weight": 0.9})
            reader = threading.Thread(
                target=lambda: answered.append(m.retrieve(ids=[rid], include=["id", "weight"]).data["rows"])
            )
            reader.start()
            reader.join(
                timeout=120
            )  # a bound on a regression (a read queued behind the writer), not a timing
            assert not reader.is_alive(), "the read waited for the writer"
        assert answered == [[{"id": rid, "weight": 0.5}]]  # the committed state, not the writer's change
        assert m.retrieve(ids=[rid], include=["weight"]).data["rows"] == [{"weight": 0.9}]
    finally:
        writer_store.close()
        store.close()


def test_a_buffered_read_of_a_record_deleted_before_the_flush_keeps_no_content(
    quiet_store, store_factory, clock
):
    reader = Memory(quiet_store, tenant="t", actor="alice", clock=clock, embedder=None)
    rid = reader.encode("my passport number is X123").affected_ids[0]
    assert reader.retrieve("passport X123", include=["id"]).data["rows"] == [{"id": rid}]
    other = store_factory.reopen(quiet_store)  # another process deletes it before the read is written
    try:
        deleter = Memory(other, tenant="t", actor="alice", clock=clock, embedder=None)
        assert deleter.delete([rid], hard=True, confirm=True).success
        quiet_store.flush_visits()
        with other.read() as session:
            log = [op for op, _ in session.export_log(0, 100)]  # type: ignore[attr-defined]
    finally:
        other.close()
    (read,) = [op for op in log if op.op == "Retrieve"]
    assert read.affected_ids == [rid]
    assert "X123" not in str(read.ir) and "passport" not in str(read.ir)


def test_a_full_buffer_is_written_without_waiting_for_a_write(store_factory, clock):
    store = store_factory()
    store.visits.interval, store.visits.size = 3600.0, 3  # three pending entries make a flush due
    other = store_factory.reopen(store)
    try:
        m = Memory(store, tenant="t", actor="alice", clock=clock, embedder=None)
        rid = m.encode("the ferry to the island").affected_ids[0]
        m.retrieve(ids=[rid])  # one visit + one audit entry
        m.retrieve(ids=[rid])  # the same record: still one visit entry, two audit entries
        deadline = time.monotonic() + 60  # a bound for a slow machine, not a measurement
        while _stored(other, "t", rid).visits != 2 and time.monotonic() < deadline:
            time.sleep(0.02)
        assert _stored(other, "t", rid).visits == 2  # written by the buffer's own thread
        assert not store.visits.pending
    finally:
        other.close()
        store.close()
