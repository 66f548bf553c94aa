"""The Store port's conformance suite, for any backend: pytest tests a backend's own test module runs.

The suite is plain pytest test functions written against one fixture, `store_factory`, which the
backend's tests provide (a `StoreFactory`: calling it opens a new, empty store). A backend runs every
check by importing the suite into one of its test modules and defining that fixture:

    # tests/test_conformance.py of a package that implements memql's Store port
    import pytest
    from memql.testing.suite import *  # noqa: F403  (the suite's tests and fixtures, collected here)

    @pytest.fixture
    def store_factory(tmp_path):
        return MyStoreFactory(tmp_path)  # __call__() -> a new, empty store; reopen(store) -> a second one

Sections, importable one by one: memql.testing.store (records, facts, links, dense search within
filters, transactions, a reader's access), memql.testing.keys (API keys), memql.testing.lexical
(lexical scores equal SQLite's, the reference), memql.testing.candidates (a search's candidates are
find's and dense's answers) and memql.testing.vectors (path vectors, signed dense search). Importing
memql needs neither pytest nor hypothesis; importing the suite does (`pip install memql[testing]`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

import pytest

# the suite's failed assertions show their values, as a test module's do (before its sections load)
pytest.register_assert_rewrite(
    "memql.testing.store",
    "memql.testing.keys",
    "memql.testing.lexical",
    "memql.testing.keyed",
    "memql.testing.candidates",
    "memql.testing.vectors",
)

if TYPE_CHECKING:
    from memql.ports.store import Store


class StoreFactory(Protocol):
    """Opens stores of the backend under test. The suite closes every store it opens."""

    # True when the backend's dense search is approximate (an ANN index without an exact re-rank): the
    # suite then accepts neighbours nearly as good as the best instead of exactly the best
    approximate_dense: bool

    def __call__(self) -> Store:
        """A new, empty store."""
        ...

    def reopen(self, store: Store) -> Store:
        """A second, independent connection to the data of `store` (another client of the same store)."""
        ...


__all__ = ["StoreFactory"]
