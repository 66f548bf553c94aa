"""The read buffer itself (memql.store.visits): counts, the latest access, what a failed flush gives back,
and what the process's reads see before anything is written."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from memql.ports.record import Operation, Record
from memql.store.visits import VisitBuffer, entries_to_log

T0 = datetime(2026, 3, 4, 10, 0, tzinfo=UTC)


def _buffer() -> VisitBuffer:
    flushed: list[int] = []
    return VisitBuffer(lambda: flushed.append(1), size=10**6, interval=3600.0)


def test_visits_add_up_and_keep_the_latest_instant():
    buffer = _buffer()
    buffer.visit("t", ["1", "2"], T0 + timedelta(hours=2))
    buffer.visit("t", ["1"], T0)  # an earlier clock reading does not move the last access back
    buffer.visit("u", ["1"], T0)  # another tenant's record 1 is another record
    records = [Record(id="1", tenant="t", visits=5, last_access_at=T0 - timedelta(days=1)), Record(id="3")]
    buffer.overlay("t", records)
    assert (records[0].visits, records[0].last_access_at) == (7, T0 + timedelta(hours=2))
    assert (records[1].visits, records[1].last_access_at) == (0, None)
    batch = buffer.drain()
    assert {key: (v.count, v.last) for key, v in batch.visits.items()} == {
        ("t", "1"): (2, T0 + timedelta(hours=2)),
        ("t", "2"): (1, T0 + timedelta(hours=2)),
        ("u", "1"): (1, T0),
    }
    assert not buffer.pending
    buffer.close()


def test_a_failed_flush_is_given_back_before_what_came_since():
    buffer = _buffer()
    first = Operation(time=T0, tenant="t", actor="a", op="Retrieve", ir={"q": 1}, affected_ids=["1"])
    later = Operation(time=T0, tenant="t", actor="a", op="Retrieve", ir={"q": 2}, affected_ids=["1"])
    buffer.visit("t", ["1"], T0)
    buffer.audit(first, {"q": "[redacted]"})
    batch = buffer.drain()
    buffer.visit("t", ["1", "2"], T0 + timedelta(minutes=1))  # read while the flush was failing
    buffer.audit(later, {"q": "[redacted]"})
    buffer.restore(batch)
    again = buffer.drain()
    assert {key: v.count for key, v in again.visits.items()} == {("t", "1"): 2, ("t", "2"): 1}
    assert again.visits[("t", "1")].last == T0 + timedelta(minutes=1)
    assert [e.operation.ir for e in again.entries] == [{"q": 1}, {"q": 2}]
    buffer.close()


def test_an_entry_that_read_a_record_gone_since_is_logged_redacted():
    buffer = _buffer()
    kept = Operation(time=T0, tenant="t", actor="a", op="Retrieve", ir={"s": "tea"}, affected_ids=["1"])
    gone = Operation(time=T0, tenant="t", actor="a", op="Retrieve", ir={"s": "pin"}, affected_ids=["1", "2"])
    buffer.audit(kept, {"s": "[redacted]"})
    buffer.audit(gone, {"s": "[redacted]"})
    logged = entries_to_log(buffer.drain(), lambda tenant, ids: {"1"})
    assert [op.ir for op in logged] == [{"s": "tea"}, {"s": "[redacted]"}]
    assert [op.affected_ids for op in logged] == [["1"], ["1", "2"]]
    buffer.close()
