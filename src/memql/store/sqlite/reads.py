"""The SQLite backend's flush of what its read transactions buffered (memql.store.visits), its wait for the
write lock (`begin_write`), and the refusals a SQLite error can be: a wait for another connection's write
lock that ran out, a full disk, a failed file (`refusal_for`).

Where a flush writes. The buffer's timer flushes on the store's own connection when SQLite's write lock is
free at once: a commit by another connection -- the flush's own, too -- makes SQLite drop every page the
store's connection holds in its cache, so each flush through a second connection cost the reads after it
their warm cache (about a quarter of a Retrieve's CPU under a steady stream of reads, which flushes
every hundred or so). When another process holds the write lock, the flush goes through a connection of
its own, which waits for it while this process's reads go on. A thread already inside a transaction of
the store (a write's flush before it writes, close) flushes on the store's connection.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from memql.errors import Refusal
from memql.store.sqlite import codec
from memql.store.visits import Batch, VisitBuffer, by_tenant, entries_to_log


class VisitFlushes:
    """SQLiteStore's flush (a mixin: the store's connection, lock and buffer)."""

    path: str
    conn: sqlite3.Connection
    visits: VisitBuffer
    writes: int
    busy_timeout_ms: int
    _lock: threading.RLock
    _flushing: threading.Lock
    _closed: bool
    _flush_conn: sqlite3.Connection | None

    def _audit_log(self, conn: sqlite3.Connection) -> Any:
        raise NotImplementedError  # (the store's: its session's audit append on `conn`)

    def flush_visits(self) -> None:
        """Write the buffered visits and read audit entries in one write transaction (see
        memql.store.visits); given back to the buffer if the write fails, whose error is raised as its
        refusal when it is one (`refusal_for`: busy, a full disk, a failed file)."""
        # (a :memory: store has one connection; a thread inside a transaction of the store already holds it)
        must = self.path == ":memory:" or self._lock._is_owned()  # type: ignore[attr-defined]
        with self._lock, self._flushing, refusing(self.busy_timeout_ms):  # this order, always
            if self._flush(self.conn, wait=must):
                return
        # the write lock is another process's: wait for it on a connection of its own
        with self._flushing, refusing(self.busy_timeout_ms):
            self._flush(self._flush_connection(), wait=True)

    def _flush(self, conn: sqlite3.Connection, *, wait: bool) -> bool:
        """Flush on `conn`; False, with nothing done, when `wait` is False and the write lock is held."""
        if self._closed or not self.visits.pending:
            return True
        if not begin_write(conn, self.busy_timeout_ms, wait=wait):
            return False
        if conn is self.conn:
            self.writes += 1
        batch = self.visits.drain()
        try:
            write_batch(conn, batch, self._audit_log(conn))
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            self.visits.restore(batch)
            raise
        return True

    def _flush_connection(self) -> sqlite3.Connection:
        if self._flush_conn is None:
            self._flush_conn = sqlite3.connect(
                self.path, isolation_level=None, check_same_thread=False, timeout=self.busy_timeout_ms / 1000
            )
            self._flush_conn.execute(f"PRAGMA busy_timeout = {self.busy_timeout_ms}")
        return self._flush_conn


WRITE_LOCK_PAUSE_S = 0.002  # the longest pause between two tries for the write lock (`begin_write`)

# what the file or the machine said, not memql: SQLite rolls the transaction back (it is atomic)
_UNAVAILABLE = {
    sqlite3.SQLITE_IOERR: "an I/O error on the store's file",
    sqlite3.SQLITE_CANTOPEN: "the store's file (or its journal) can no longer be opened",
    sqlite3.SQLITE_READONLY: "the store's file can no longer be written (read-only)",
    sqlite3.SQLITE_NOMEM: "SQLite ran out of memory",
}


def refusal_for(exc: sqlite3.Error, busy_timeout_ms: int) -> Refusal | None:
    """The refusal a SQLite error is -- an ordinary state of a shared file or of the machine, not a defect:
    `store.busy` for a wait on another connection's lock that ran out (SQLITE_BUSY or SQLITE_LOCKED, any
    extended code), `store.full` for a full disk or size limit, `store.unavailable` for a file that failed.
    None for any other error (memql's own)."""
    code = getattr(exc, "sqlite_errorcode", 0) & 0xFF
    if code in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
        held = f"another connection held the store's write lock for over {busy_timeout_ms / 1000:g} s"
        return Refusal("store.busy", f"{held}: nothing was changed; try again")
    if code == sqlite3.SQLITE_FULL:
        return Refusal(
            "store.full", f"the disk (or the store's size limit) is full ({exc}): nothing was changed"
        )
    if code in _UNAVAILABLE:
        return Refusal("store.unavailable", f"{_UNAVAILABLE[code]} ({exc}): nothing was changed")
    return None


@contextmanager
def refusing(busy_timeout_ms: int) -> Iterator[None]:
    """Raise the SQLite errors that are refusals (`refusal_for`) as those refusals."""
    try:
        yield
    except sqlite3.Error as exc:
        refusal = refusal_for(exc, busy_timeout_ms)
        if refusal is None:
            raise
        raise refusal from exc


def begin_write(conn: sqlite3.Connection, busy_timeout_ms: int, *, wait: bool = True) -> bool:
    """BEGIN IMMEDIATE, waiting up to `busy_timeout_ms` for another connection's write lock (then the
    SQLite error `refusal_for` makes `store.busy`); without `wait`, False at once when it is held.

    The wait is memql's, not SQLite's busy handler: that one sleeps 1, 2, 5, 10 ... up to 100 ms between
    tries, so a lock freed during a sleep stays free while its waiters sleep on. Four processes writing at
    once spent two thirds of their time waiting for a lock that was mostly free (p99 of a write ~1 s).
    Here a waiter tries again after 0.1 ms, doubling to at most WRITE_LOCK_PAUSE_S."""
    conn.execute("PRAGMA busy_timeout = 0")
    try:
        pause, deadline = 0.0001, 0.0
        while True:
            try:
                conn.execute("BEGIN IMMEDIATE")
                return True
            except sqlite3.OperationalError as exc:
                if getattr(exc, "sqlite_errorcode", 0) & 0xFF not in (
                    sqlite3.SQLITE_BUSY,
                    sqlite3.SQLITE_LOCKED,
                ):
                    raise
                if not wait:
                    return False
                now = time.monotonic()
                deadline = deadline or now + busy_timeout_ms / 1000
                if now >= deadline:
                    raise
                time.sleep(min(pause, deadline - now))
                pause = min(2 * pause, WRITE_LOCK_PAUSE_S)
    finally:
        conn.execute(f"PRAGMA busy_timeout = {busy_timeout_ms}")


def write_batch(conn: sqlite3.Connection, batch: Batch, log: Any) -> None:
    """Record a drained batch inside the caller's write transaction: each record's visits added and its
    last access moved forward (never back: another process may have recorded a later one), then the read
    audit entries through `log` (the session's audit append)."""
    for tenant, visits in by_tenant(batch).items():
        conn.executemany(
            # `+tenant`: look records up by rowid (see SQLiteSession.touch)
            "UPDATE records SET visits = visits + ?, last_access_at = MAX(COALESCE(last_access_at, ?), ?) "
            "WHERE num = ? AND +tenant = ?",
            [
                (seen.count, codec.to_us(seen.last), codec.to_us(seen.last), int(record_id), tenant)
                for record_id, seen in visits
            ],
        )

    def present(tenant: str, ids: list[str]) -> set[str]:
        marks = ",".join("?" * len(ids))
        rows = conn.execute(
            f"SELECT num FROM records WHERE num IN ({marks}) AND +tenant = ?", [*map(int, ids), tenant]
        )
        return {str(row[0]) for row in rows}

    for operation in entries_to_log(batch, present):
        log(operation, [])
