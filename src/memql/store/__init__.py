"""Storage backends behind the Store port. Only a backend's own package speaks its SQL."""

from __future__ import annotations

import os
from pathlib import Path

from memql.ports.store import Store


def default_db_path() -> Path:
    """$MEMQL_DB, else memql.db in the per-user data directory ($XDG_DATA_HOME or ~/.local/share)/memql."""
    env = os.environ.get("MEMQL_DB")
    if env:
        return Path(env)
    base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "memql" / "memql.db"


def open_store(location: str | os.PathLike[str]) -> Store:
    """Open the store at `location`: a SQLite file path or ':memory:' (PostgreSQL URLs come later)."""
    text = os.fspath(location)
    if text.startswith(("postgresql://", "postgres://")):
        raise ValueError("the PostgreSQL backend is not available yet; use a SQLite path")
    from memql.store.sqlite import SQLiteStore

    return SQLiteStore(text)
