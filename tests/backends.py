"""The storage backends every suite runs on: name -> how to make a new, empty store of it.

The root conftest turns this registry into the `backend`, `new_location` and `store_factory` fixtures, so
a test names no backend: adding one to memql means adding an entry here (its locations and how to open
it), and every folder's tests run on it. Session-scoped fixtures that cannot take the function-scoped
`backend` (the REST server) iterate BACKENDS themselves.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from memql.ports.store import Store

_numbers = itertools.count(1)


def _sqlite_location(directory: Path | None) -> str:
    # a file per store under the test's directory (a CLI or a second connection can reopen it), or a
    # private in-memory database when no directory is given
    return ":memory:" if directory is None else str(directory / f"store-{next(_numbers)}.db")


def _sqlite_open(location: str, vector_index: str | None, dim: int) -> Store:
    from memql.store.sqlite import SQLiteStore

    return SQLiteStore(location) if vector_index is None else SQLiteStore(location, vector_index=vector_index)


def _postgres_location(directory: Path | None) -> str:
    from pgtest import fresh_location  # one server per test session, a new schema per store

    return fresh_location()


def _postgres_open(location: str, vector_index: str | None, dim: int) -> Store:
    from memql.store.postgres import PostgresStore

    store = PostgresStore(location)
    if vector_index == "hnsw":
        store.ensure_vector_index(dim)  # pgvector's HNSW index is built per dimension
    return store


@dataclass(frozen=True)
class Backend:
    """One backend: `location(directory)` names a new, empty store (a file under `directory` when the
    backend keeps files and one is given); `open(location, vector_index, dim)` opens it (`vector_index`
    None: the backend's default; "exact" or "hnsw": that search path, for vectors of `dim` dimensions)."""

    name: str
    location: Callable[[Path | None], str]
    open: Callable[[str, str | None, int], Store]


BACKENDS: dict[str, Backend] = {
    "sqlite": Backend("sqlite", _sqlite_location, _sqlite_open),
    "postgres": Backend("postgres", _postgres_location, _postgres_open),
}


@dataclass
class StoreFactory:
    """New stores of one backend for one test (memql.testing's StoreFactory): `factory()` opens a new,
    empty store, `factory.reopen(store)` a second connection to the same data. Whoever opens a store
    closes it."""

    backend: Backend
    directory: Path
    vector_index: str | None = None
    dim: int = 16
    approximate_dense: bool = False  # an ANN index that may miss the very best neighbours
    _locations: dict[int, str] = field(default_factory=dict)

    def __call__(self) -> Store:
        location = self.backend.location(self.directory)
        store = self.backend.open(location, self.vector_index, self.dim)
        self._locations[id(store)] = location
        return store

    def reopen(self, store: Store) -> Store:
        return self.backend.open(self._locations[id(store)], self.vector_index, self.dim)
