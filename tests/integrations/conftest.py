"""Fixtures of the integration tests: every store they open lives on the run's backend (tests/backends.py),
so each test runs once on SQLite and once on PostgreSQL."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import langgraph_stores
import pytest


@pytest.fixture(autouse=True)
def _stores_on_backend(new_location: Callable[..., str]) -> Iterator[None]:
    """Point langgraph_stores.open_store at this run's backend; close what the test opened."""
    langgraph_stores.NEW_LOCATION = new_location
    yield
    langgraph_stores.close_all()


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"
