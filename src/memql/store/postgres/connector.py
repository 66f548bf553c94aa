"""Where a PostgreSQL store's pool takes its connections from."""

from __future__ import annotations

import threading
from typing import Any

import psycopg


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
