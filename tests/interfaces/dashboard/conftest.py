"""The dashboard under test, on every backend (the `memory` fixture of tests/memory_fixtures.py).

TEST WIRING, until the REST server lands: `site` builds the app as FastAPI() + dashboard_router with
`keyed_memory`, a small dependency that maps a key string to a Memory over the test store (the way the
server's `caller_memory` maps a stored API key: Authorization Bearer, X-API-Key, or the `memql_key`
cookie; 401 without a known key). Switching to `memql serve` with real keys only changes this fixture.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pytest
from fastapi import FastAPI, HTTPException, Request
from fastapi.testclient import TestClient

from memql import Memory
from memql.interfaces.dashboard import dashboard_router


@dataclass
class Site:
    """The app and who may use it: key -> that caller's Memory (mira a user, helper her agent, olga a
    user of another tenant), all on one store."""

    app: FastAPI
    keys: dict[str, Memory]

    @property
    def mira(self) -> Memory:
        return self.keys["key-mira"]

    @property
    def helper(self) -> Memory:
        return self.keys["key-helper"]

    @property
    def olga(self) -> Memory:
        return self.keys["key-olga"]


def keyed_memory(keys: dict[str, Memory]) -> Callable[[Request], Memory]:
    """Test wiring: the caller's Memory from the key in the request (header or cookie), else 401."""

    def caller(request: Request) -> Memory:
        bearer = request.headers.get("authorization", "")
        key = (
            (bearer[7:] if bearer.lower().startswith("bearer ") else None)
            or request.headers.get("x-api-key")
            or request.cookies.get("memql_key")
        )
        if key not in keys:
            raise HTTPException(401, "no valid API key")
        return keys[key]

    return caller


@pytest.fixture
def site(memory) -> Site:
    mira = memory(actor="mira")
    keys = {
        "key-mira": mira,
        "key-helper": memory(actor="helper", role="agent", share=mira),
        "key-olga": memory(tenant="other", actor="olga", share=mira),
    }
    app = FastAPI()
    app.include_router(dashboard_router(keyed_memory(keys)))
    return Site(app, keys)


def signed_in(site: Site, key: str = "key-mira") -> TestClient:
    client = TestClient(site.app)
    response = client.post("/login", data={"key": key}, follow_redirects=False)
    assert response.status_code == 303
    return client


@pytest.fixture
def client(site: Site) -> TestClient:
    """A browser-like HTTP client signed in as mira."""
    return signed_in(site)


@pytest.fixture
def sign_in(site: Site) -> Callable[[str], TestClient]:
    return lambda key: signed_in(site, key)
