"""What reads leave behind, kept in memory until one write transaction records it: visits (heat) and the
audit entries of reads. Shared by every backend; each applies a drained batch in its own SQL.

A read transaction never writes (memql.ports.store.Store.read): a Retrieve's visit (N_visit and the last
access time, MemoryOS's heat) and its audit entry are buffered here, per store instance, and flushed in
one write transaction when `size` entries are pending, `interval` seconds after the first one was
buffered (a timer thread), before any write transaction of the same store instance, and on close. A clean
close loses nothing; a crash loses at most the last `interval` seconds of visits and read audit entries.
The process's own reads see its pending visits (`overlay`), so heat ranks as if they were written.
"""

from __future__ import annotations

import atexit
import logging
import operator
import threading
import weakref
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from itertools import repeat
from typing import Any

from memql.errors import MemqlError
from memql.ports.record import Operation, Record
from memql.ports.store import Candidate, RecordQuery, epoch_us

# pending visits and audit entries that make a flush due at once: a cap on one flush's transaction, not its
# pace (the interval's). Every flush is a commit other processes' readers catch up with (SQLite drops
# their page cache): at 1,024 a steady stream of reads flushed about every hundred Retrieves
DEFAULT_FLUSH_SIZE = 16_384
DEFAULT_FLUSH_INTERVAL = 1.0  # seconds: the most a crash can lose


_ID = operator.itemgetter(0)  # a Candidate's id


@dataclass
class Visits:
    """One record's pending visits: how many, and the latest read's instant."""

    count: int
    last: datetime


@dataclass
class ReadEntry:
    """A read's audit entry, and its IR as the log must keep it if a record it read is hard-deleted
    before the entry is written (the delete's redaction could not reach an entry not yet in the log)."""

    operation: Operation
    redacted_ir: dict[str, Any]


@dataclass
class Batch:
    """What one flush writes: visits by (tenant, record id), then read audit entries in the order read."""

    visits: dict[tuple[str, str], Visits] = field(default_factory=dict)
    entries: list[ReadEntry] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.visits or self.entries)

    def __len__(self) -> int:
        return len(self.visits) + len(self.entries)


class VisitBuffer:
    """A store instance's pending visits and read audit entries (thread-safe). `flush` is the store's own
    function that drains the buffer and writes the batch in one write transaction."""

    def __init__(
        self,
        flush: Callable[[], None],
        *,
        size: int = DEFAULT_FLUSH_SIZE,
        interval: float = DEFAULT_FLUSH_INTERVAL,
    ) -> None:
        self.size, self.interval = size, interval
        # held weakly (the store holds this buffer): an unclosed, dropped store can still be collected
        self._flush_ref = weakref.WeakMethod(flush) if hasattr(flush, "__self__") else (lambda: flush)
        self._lock = threading.Lock()
        self._batch = Batch()
        self._timer: threading.Timer | None = None
        self._closed = False

        # a process that exits without closing its store (a one-shot CLI command) still writes its reads
        def at_exit() -> None:
            if not self._closed and self.pending:
                self._flush()

        self._at_exit = at_exit
        atexit.register(at_exit)

    # --- buffering (a read transaction) ------------------------------------------------------------

    def visit(self, tenant: str, ids: Sequence[str], now: datetime) -> None:
        with self._lock:
            for record_id in ids:
                seen = self._batch.visits.get((tenant, record_id))
                if seen is None:
                    self._batch.visits[(tenant, record_id)] = Visits(1, now)
                else:
                    seen.count += 1
                    seen.last = max(seen.last, now)
            self._arm()

    def audit(self, operation: Operation, redacted_ir: dict[str, Any]) -> None:
        with self._lock:
            self._batch.entries.append(ReadEntry(operation, redacted_ir))
            self._arm()

    def _arm(self) -> None:
        """Start the timer when the first entry arrives, or at once when `size` are pending (called under
        the lock): the flush runs in the timer's thread, so that no read waits for the write lock."""
        if self._closed or not self._batch:
            return
        full = len(self._batch) >= self.size
        if self._timer is not None and not (full and self._timer.interval > 0):
            return
        if self._timer is not None:
            self._timer.cancel()
        self._timer = threading.Timer(0 if full else self.interval, self._on_timer)
        self._timer.daemon = True
        self._timer.start()

    def _flush(self) -> None:
        flush = self._flush_ref()
        if flush is not None:
            flush()

    def _on_timer(self) -> None:
        with self._lock:
            self._timer = None
            if self._closed:
                return
        try:
            self._flush()
        except Exception as exc:  # the batch is back in the buffer (the store restores it): retried later
            logging.getLogger("memql").warning("recording buffered visits failed, will retry: %s", exc)

    @property
    def pending(self) -> bool:
        with self._lock:
            return bool(self._batch)

    # --- reading ---------------------------------------------------------------------------------

    def overlay(self, tenant: str, records: Iterable[Record]) -> None:
        """Add this process's pending visits to records read from the store (in place)."""
        with self._lock:
            if not self._batch.visits:
                return
            for record in records:
                seen = self._batch.visits.get((tenant, record.id))  # type: ignore[arg-type]
                if seen is not None:
                    record.visits += seen.count
                    if record.last_access_at is None or record.last_access_at < seen.last:
                        record.last_access_at = seen.last

    def overlay_candidates(self, tenant: str, candidates: list[Candidate]) -> list[Candidate]:
        """`overlay` for a search's candidates (immutable: the changed ones are copies, built directly:
        NamedTuple._replace cost more than the rest of the overlay). The pending visits are looked up by
        C-level calls: most candidates have none."""
        with self._lock:
            pending = self._batch.visits
            if not pending:
                return candidates
            seen_of = list(map(pending.get, zip(repeat(tenant), map(_ID, candidates))))
            if seen_of.count(None) == len(seen_of):
                return candidates
            out = list(candidates)
            instants: dict[datetime, int] = {}  # most pending visits share a few instants
            for i, seen in enumerate(seen_of):
                if seen is not None:
                    c = out[i]
                    seen_us = instants.get(seen.last)
                    if seen_us is None:
                        seen_us = instants[seen.last] = epoch_us(seen.last)  # type: ignore[assignment]
                    last = c.last_access_us
                    if last is None or last < seen_us:  # type: ignore[operator]
                        last = seen_us
                    out[i] = Candidate._make((c.id, c.score, c.weight, c.at_us, c.visits + seen.count, last))
            return out

    # --- flushing (the store's write transaction) ----------------------------------------------------

    def drain(self) -> Batch:
        """Take everything pending (the caller writes it, or gives it back with `restore`)."""
        with self._lock:
            batch, self._batch = self._batch, Batch()
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
            return batch

    def restore(self, batch: Batch) -> None:
        """Put back a batch whose write failed, before whatever was buffered since."""
        with self._lock:
            for key, seen in batch.visits.items():
                later = self._batch.visits.get(key)
                if later is not None:
                    seen.count += later.count
                    seen.last = max(seen.last, later.last)
            batch.visits.update({k: v for k, v in self._batch.visits.items() if k not in batch.visits})
            batch.entries.extend(self._batch.entries)
            self._batch = batch
            self._arm()

    def close(self) -> None:
        """Stop the timer: the store flushes once more and closes."""
        with self._lock:
            self._closed = True
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
        atexit.unregister(self._at_exit)


# the session methods that change the store: a read session refuses them before any SQL runs, so that a
# read transaction never takes the write lock (its `touch` is ReadMixin's: a visit into the buffer)
WRITE_METHODS = (
    "insert",
    "insert_many",
    "log_many",
    "update",
    "hard_delete",
    "redact",
    "add_link",
    "remove_link",
    "log",
    "import_records",
    "import_links",
    "import_log",
    "set_last_record_number",
    "add_api_key",
    "revoke_api_key",
)


class ReadOnlyTransaction(MemqlError, RuntimeError):
    """A write attempted in a read transaction (a defect of the caller: reads go to the buffer)."""


def refuse_writes(cls: type) -> type:
    """Make every write method a session class inherits raise ReadOnlyTransaction (the ones the class
    defines itself, such as a buffering `touch`, stay)."""

    def refused(name: str) -> Callable[..., Any]:
        def method(self: Any, *args: Any, **kwargs: Any) -> Any:
            raise ReadOnlyTransaction(f"{name}: a read transaction does not write")

        method.__name__ = name
        return method

    for name in WRITE_METHODS:
        if hasattr(cls, name) and name not in cls.__dict__:
            setattr(cls, name, refused(name))
    return cls


def by_tenant(batch: Batch) -> dict[str, list[tuple[str, Visits]]]:
    """The batch's visits grouped by tenant, each tenant's records in id order."""
    grouped: dict[str, list[tuple[str, Visits]]] = {}
    for (tenant, record_id), seen in sorted(batch.visits.items()):
        grouped.setdefault(tenant, []).append((record_id, seen))
    return grouped


def entries_to_log(batch: Batch, present: Callable[[str, list[str]], set[str]]) -> list[Operation]:
    """The read audit entries as the log keeps them: an entry that read a record which is gone by now
    (hard-deleted since, its content redacted from the log) is written with its redacted IR.
    `present(tenant, ids)` answers which of the ids still exist."""
    wanted: dict[str, set[str]] = {}
    for entry in batch.entries:
        wanted.setdefault(entry.operation.tenant, set()).update(entry.operation.affected_ids)
    existing = {tenant: present(tenant, sorted(ids)) for tenant, ids in wanted.items() if ids}
    out = []
    for entry in batch.entries:
        op = entry.operation
        gone = set(op.affected_ids) - existing.get(op.tenant, set())
        if gone:
            op = Operation(**{**op.__dict__, "ir": entry.redacted_ir})
        out.append(op)
    return out


_VISIT_FIELDS = frozenset({"visits", "last_access_at"})  # what the overlay of pending visits reads and sets


class ReadMixin:
    """What a read session does differently (mixed in before the backend's session class): visits and
    audit entries to the buffer, and this process's pending visits added to the records it reads."""

    buffer: VisitBuffer

    def find(self, tenant: str, q: RecordQuery) -> list[tuple[Record, float | None]]:
        found = super().find(tenant, q)  # type: ignore[misc]
        if q.as_of is None:  # a point-in-time read shows the past, not today's visits
            self.buffer.overlay(tenant, (record for record, _ in found))
        return found

    def get(self, tenant: str, ids: Sequence[str]) -> dict[str, Record]:
        found = super().get(tenant, ids)  # type: ignore[misc]
        self.buffer.overlay(tenant, found.values())
        return found

    def get_fields(self, tenant: str, ids: Sequence[str], fields: frozenset[str]) -> dict[str, Record]:
        narrow = getattr(super(), "get_fields", None)  # (a backend without narrow reads reads whole records)
        found = super().get(tenant, ids) if narrow is None else narrow(tenant, ids, fields | _VISIT_FIELDS)  # type: ignore[misc]
        self.buffer.overlay(tenant, found.values())
        return found

    def dense(
        self, tenant: str, vector: Sequence[float], q: RecordQuery, k: int, model: str, signed: bool = False
    ):
        found = super().dense(tenant, vector, q, k, model, signed)  # type: ignore[misc]
        self.buffer.overlay(tenant, (record for record, _ in found))
        return found

    def find_candidates(self, tenant: str, q: RecordQuery) -> list[Candidate]:
        found = super().find_candidates(tenant, q)  # type: ignore[misc]
        return found if q.as_of is not None else self.buffer.overlay_candidates(tenant, found)

    def dense_candidates(
        self, tenant: str, vector: Sequence[float], q: RecordQuery, k: int, model: str, signed: bool = False
    ) -> list[Candidate]:
        found = super().dense_candidates(tenant, vector, q, k, model, signed)  # type: ignore[misc]
        return self.buffer.overlay_candidates(tenant, found)

    def touch(self, tenant: str, ids: Sequence[str], now: datetime) -> None:
        self.buffer.visit(tenant, ids, now)

    def log_read(self, operation: Operation, redacted_ir: dict[str, Any]) -> None:
        self.buffer.audit(operation, redacted_ir)
