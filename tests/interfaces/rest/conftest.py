"""End-to-end fixtures: `memql serve` started as a subprocess on 127.0.0.1 (a free port) over a real store
of each backend of tests/backends.py's registry, driven with httpx.

One server per backend for the session (starting one costs a second); each test works in a tenant of its
own, with keys it creates through memql.interfaces.apikeys on the same store (the server reads keys from
the store on every request, so a key made or revoked here counts at once).
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from rest_server import Server, start_server, stop_server

from backends import BACKENDS
from memql.store import open_store


@pytest.fixture(scope="session", params=list(BACKENDS))
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory, memql_shim: Path
) -> Iterator[Server]:
    backend = request.param
    root = tmp_path_factory.mktemp(f"rest-{backend}")
    location = BACKENDS[backend].location(root)  # session-scoped: the registry, not the `backend` fixture
    store = open_store(location)  # created (and migrated) before the server opens it
    process, base = start_server(memql_shim / "memql", location, root / "access.log", "--embedder", "none")
    s = Server(backend, base, location, root / "access.log", store)
    yield s
    for client in s.clients:
        client.close()
    stop_server(process)
    store.close()


@pytest.fixture
def tenant() -> str:
    """A tenant of the test's own on the shared server."""
    return f"t-{uuid.uuid4().hex[:10]}"


@pytest.fixture
def user(server: Server, tenant: str) -> httpx.Client:
    """A client acting as user mira of the test's tenant."""
    return server.client(server.key(tenant, "mira"))
