"""The Store port's contract for read transactions (Store.read): one consistent state without the write
lock, every write refused, visits buffered — seen by the store's own reads at once, by another connection
after a flush, nothing lost on close — and a read that answers while another connection holds a write
transaction.

Tests of the conformance suite (see memql.testing): they run on the stores the `store_factory` fixture
opens.
"""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest

from memql.ports.record import Record
from memql.ports.store import RecordQuery
from memql.testing.sample import NOW, put, store

__all__ = [
    "store",
    "test_a_read_answers_while_another_connection_writes",
    "test_a_read_session_refuses_writes",
    "test_visits_of_read_sessions_are_written_in_a_batch_and_on_close",
]


def _visits(store, tenant: str, record_id: str) -> tuple[int, object]:
    with store.read() as s:
        record = s.get(tenant, [record_id])[record_id]
    return record.visits, record.last_access_at


def test_visits_of_read_sessions_are_written_in_a_batch_and_on_close(store_factory):
    first = store_factory()
    first.visits.interval, first.visits.size = 3600.0, 10**6  # flushed when told, not by the timer
    second = store_factory.reopen(first)
    try:
        with first.transaction() as s:
            rid = put(s, "A", "visited", None)
            other = put(s, "B", "another tenant's", None)
        for minutes in range(3):
            with first.read() as s:
                s.touch("A", [rid], NOW + timedelta(minutes=minutes))
        with first.read() as s:  # the store's own reads count its pending visits
            assert s.get("A", [rid])[rid].visits == 3
            assert [r.visits for r, _ in s.find("A", RecordQuery(ids=[rid]))] == [3]
            assert s.get("B", [other])[other].visits == 0  # tenant by tenant
        assert _visits(second, "A", rid) == (0, None)  # no write per read
        first.flush_visits()
        assert _visits(second, "A", rid) == (3, NOW + timedelta(minutes=2))
        with first.read() as s:
            s.touch("A", [rid], NOW)  # an earlier instant: the last access does not move back
        first.close()
        assert _visits(second, "A", rid) == (4, NOW + timedelta(minutes=2))  # written on close
    finally:
        first.close()
        second.close()


def test_a_read_session_refuses_writes(store):
    with store.transaction() as s:
        rid = put(s, "A", "kept", None)
    with store.read() as s:
        with pytest.raises(Exception):  # noqa: B017 - the backend's own error
            s.insert(Record(tenant="A", text="not kept", created_at=NOW, updated_at=NOW))
        with pytest.raises(Exception):  # noqa: B017
            s.update("A", rid, {"weight": 1.0})
        with pytest.raises(Exception):  # noqa: B017
            s.hard_delete("A", [rid])
    with store.read() as s:
        assert [(r.text, r.weight) for r, _ in s.find("A", RecordQuery(statuses=None))] == [("kept", 0.5)]


def test_a_read_answers_while_another_connection_writes(store_factory):
    store = store_factory()
    writer = store_factory.reopen(store)
    try:
        with store.transaction() as s:
            rid = put(s, "A", "tide table", None, weight=0.5)
        seen: list[float] = []

        def read() -> None:
            with store.read() as s:
                seen.append(s.get("A", [rid])[rid].weight)

        with writer.transaction() as w:
            w.get("A", [rid])  # the write lock (or the tenant's lock and the row) is held from here
            w.update("A", rid, {"weight": 0.9})
            reader = threading.Thread(target=read)
            reader.start()
            reader.join(timeout=120)  # a bound on a regression (a read queued behind the writer)
            assert not reader.is_alive(), "the read waited for the writer"
        assert seen == [0.5]  # the committed state
        with store.read() as s:
            assert s.get("A", [rid])[rid].weight == 0.9
    finally:
        writer.close()
        store.close()
