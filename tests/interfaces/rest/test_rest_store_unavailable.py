"""A PostgreSQL server out of reach while the REST server runs: every request that needs the store is 503
with `store.unavailable` -- the hot routes' key check too, which raised into the ASGI server (a 500 and a
dropped connection) -- and everything answers again once the server is back."""

from __future__ import annotations

import json
import time
from datetime import UTC, datetime

import pytest
from fastapi.testclient import TestClient

from memql.interfaces.apikeys import create_key
from memql.interfaces.rest.app import create_app
from memql.interfaces.rest.hot_routes import HotRoutes
from memql.memory import Memory
from memql.store.postgres import PostgresStore
from pgtest import back_in_reach, out_of_reach, own_database

REQUESTS = [
    ("POST", "/v1/retrieve", {"query": "ferry", "k": 3}),
    ("POST", "/v1/execute", {"op": "Encode", "args": {"payload": {"text": "the ferry leaves at ten"}}}),
    ("GET", "/v1/memories/1", None),
    ("GET", "/v1/memories/1/history", None),
]


@pytest.mark.parametrize("hot", [True, False], ids=["hot routes", "the app's routes"])
def test_a_server_out_of_reach_is_503_store_unavailable_and_answers_again(monkeypatch, hot):
    monkeypatch.setattr(PostgresStore, "pool_wait_s", 0.5)  # the wait for a pooled connection (30 s)
    with own_database() as (location, name):
        store = PostgresStore(location)
        try:
            with Memory(store, tenant="t", actor="mira", embedder=None) as m:
                m.encode("the ferry leaves at nine")
            secret = create_key(store, tenant="t", actor="mira", role="user", now=datetime.now(UTC)).secret
            app = create_app(store, embedder=None)
            if not hot:  # (before the first request builds the middleware stack)
                app.user_middleware = [w for w in app.user_middleware if w.cls is not HotRoutes]
            client = TestClient(app, raise_server_exceptions=False)
            headers = {"Authorization": f"Bearer {secret}"}

            def send(method: str, path: str, body: object) -> tuple[int, dict]:
                content = None if body is None else json.dumps(body)
                reply = client.request(method, path, headers=headers, content=content)
                return reply.status_code, reply.json()

            assert all(send(*r)[0] == 200 for r in REQUESTS)
            out_of_reach(name)
            for request in REQUESTS:
                status, body = send(*request)
                assert status == 503, (request, body)
                assert [d["rule"] for d in body["diagnostics"]] == ["store.unavailable"], request
            back_in_reach(name)
            deadline = time.monotonic() + 30  # the pool retries its connections with a growing pause
            while send(*REQUESTS[0])[0] != 200 and time.monotonic() < deadline:
                time.sleep(0.2)
            assert [send(*r)[0] for r in REQUESTS] == [200, 200, 200, 200]
        finally:
            back_in_reach(name)
            store.close()
