"""Where a PostgreSQL store's pool takes its connections from, and how a connection is taken from it."""

from __future__ import annotations

import select
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import psycopg
from psycopg_pool import ConnectionPool


class Connector:
    """The pool's source of connections (its `connection_class`): first the connection the store checked
    and migrated its schema on, then new ones. A store that one connection serves (most of them: a CLI
    command, a script, a test) opens one connection, not two (each costs the server a process)."""

    def __init__(self, first: psycopg.Connection) -> None:
        self._first: psycopg.Connection | None = first
        self._lock = threading.Lock()

    def _take(self) -> psycopg.Connection | None:
        with self._lock:
            first, self._first = self._first, None
        return first

    def connect(self, conninfo: str, **kwargs: Any) -> psycopg.Connection:
        first = self._take()
        if first is not None and not first.closed:
            first.autocommit = False  # as the pool's own connections
            first.row_factory = kwargs.get("row_factory", first.row_factory)
            return first
        return psycopg.Connection.connect(conninfo, **kwargs)

    def discard(self) -> None:
        """Close the first connection if the pool never took it."""
        if (first := self._take()) is not None:
            first.close()


@contextmanager
def live_connection(pool: ConnectionPool) -> Iterator[psycopg.Connection]:
    """A connection of `pool` as `pool.connection()` gives one, but not one the server closed while it sat
    idle in the pool (a server restart or failover, an idle timeout of the server or of a proxy): each of
    those failed the one request that took it (`exec.internal`, "the connection is lost"), as many as the
    pool held. Such a connection is readable at once -- the server's goodbye, then the end of the stream --
    which a poll tells without a round trip; it is closed for the pool to replace, and the next is taken."""
    for _ in range(pool.max_size):
        with pool.connection() as conn:
            if not _closed_by_server(conn):
                yield conn
                return
            conn.close()  # (the pool discards it and opens another)
    with pool.connection() as conn:  # every one closed: a new one, or the error that says why
        yield conn


def _closed_by_server(conn: psycopg.Connection) -> bool:
    """Whether an idle connection has heard from its server: an idle session is sent nothing (memql listens
    to no channel), so anything to read is the server ending it."""
    if conn.closed or conn.broken:
        return True
    if not hasattr(select, "poll"):  # (Windows: no poll, and select there takes sockets only)
        return False
    poller = select.poll()  # (not select.select: it refuses descriptors past 1,023, a busy server's)
    try:
        poller.register(conn.fileno(), select.POLLIN)
        return bool(poller.poll(0))
    except (OSError, ValueError, psycopg.Error):
        return True
