"""Storage backends behind the Store port. Only a backend's own package speaks its SQL."""

from __future__ import annotations

import os
from pathlib import Path

from memql.ports.store import Store


def default_db_path() -> Path | str:
    """$MEMQL_DB, else memql.db in the per-user data directory ($XDG_DATA_HOME or ~/.local/share)/memql.
    A PostgreSQL URL in $MEMQL_DB is returned as it is (a Path would fold its "//")."""
    env = os.environ.get("MEMQL_DB")
    if env and is_postgres_url(env):
        return env
    if env:
        return Path(env)
    base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "memql" / "memql.db"


def is_postgres_url(location: str) -> bool:
    return location.startswith(("postgresql://", "postgres://"))


def open_store(location: str | os.PathLike[str]) -> Store:
    """Open the store at `location`: a SQLite file path or ':memory:', or a PostgreSQL URL
    (postgresql://user@host/db, optionally ?schema=name; see memql.store.postgres)."""
    text = os.fspath(location)
    if is_postgres_url(text):
        from memql.store.postgres import PostgresStore

        return PostgresStore(text)
    from memql.store.sqlite import SQLiteStore

    return SQLiteStore(text)
