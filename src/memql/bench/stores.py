"""Throwaway stores for the benchmarks: a new PostgreSQL schema per store, dropped when done."""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

if TYPE_CHECKING:
    from memql.store.postgres import PostgresStore


def is_postgres(location: object) -> bool:
    return isinstance(location, str) and location.startswith(("postgresql://", "postgres://"))


def fresh_postgres(url: str, label: str) -> PostgresStore:
    """An empty store in a new schema (`memql_<label>_<random>`) of the database `url` names; drop it with
    its `drop()` when done."""
    if not is_postgres(url):
        raise ValueError(f"not a postgresql:// URL: {url!r}")
    from memql.store.postgres import PostgresStore

    parts = urlsplit(url)
    query = [(k, v) for k, v in parse_qsl(parts.query) if k != "schema"]
    query.append(("schema", f"memql_{label}_{uuid.uuid4().hex[:12]}"))
    return PostgresStore(urlunsplit(parts._replace(query=urlencode(query))))
