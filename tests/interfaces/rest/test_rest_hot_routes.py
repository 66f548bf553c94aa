"""HotRoutes (memql.interfaces.rest.hot_routes) answers /v1/retrieve and /v1/execute as the app's own routes
do: two identical stores, one app with it and one without, the same requests in the same order, the same
status, headers and bytes, and the same access log lines -- and it answered the requests it should itself,
while the rest reached the app."""

from __future__ import annotations

import json
import logging
import re
from datetime import UTC, datetime

import pytest
from fastapi.testclient import TestClient

from memql.interfaces.apikeys import create_key
from memql.interfaces.rest import hot_routes
from memql.interfaces.rest.app import create_app
from memql.interfaces.rest.hot_routes import HotRoutes, presented_key
from memql.memory import Memory
from memql.ports.clock import FixedClock

NOW = datetime(2026, 3, 1, 12, tzinfo=UTC)
TEXTS = ["piano lesson on tuesday", "piano tuner visit", "dentist at nine", "buy oat milk", "piano recital"]


class Lines(logging.Handler):
    """The access log's lines, less the duration, the site's key id said as "the key"."""

    def __init__(self, key_id: str) -> None:
        super().__init__()
        self.key_id, self.lines = key_id, []

    def emit(self, record: logging.LogRecord) -> None:
        line = json.loads(record.getMessage())
        line.pop("duration_ms")
        if line["key_id"] == self.key_id:
            line["key_id"] = "the key"
        self.lines.append(line)


def _site(store, *, hot: bool):
    """The app over a store holding TEXTS, a user key and a reader key of tenant t (made the same way on
    both stores, so ids and instants match); its access log lines."""
    clock = FixedClock(NOW)
    with Memory(store, tenant="t", actor="mira", clock=clock, embedder=None) as m:
        for text in TEXTS:
            m.encode(text)
    made = create_key(store, tenant="t", actor="mira", role="user", now=NOW)
    keys = [made.secret]
    lines = Lines(made.key.id)
    logger = logging.getLogger(f"test.hot.{hot}.{id(store)}")
    logger.setLevel(logging.INFO)
    logger.propagate = False
    logger.addHandler(lines)
    app = create_app(store, embedder=None, clock=clock, access_log=logger)
    if not hot:  # (before the first request builds the middleware stack)
        app.user_middleware = [m for m in app.user_middleware if m.cls is not HotRoutes]
    return TestClient(app, raise_server_exceptions=False), keys, lines


def _requests(key: str, other: str) -> list[tuple[str, str, dict[str, str], bytes | str]]:
    """(method, path, headers, body): what HotRoutes answers, and what it leaves to the app."""
    bearer = {"Authorization": f"Bearer {key}", "Content-Type": "application/json"}
    program = {"op": "Retrieve", "target": {"search": {"intent": {"query": "piano"}}}, "args": {}}
    return [
        ("POST", "/v1/retrieve", bearer, json.dumps({"query": "piano", "k": 3})),
        ("POST", "/v1/retrieve", bearer, json.dumps(program)),
        ("POST", "/v1/retrieve", bearer, json.dumps({"workflow": [program, program]})),
        ("POST", "/v1/retrieve", bearer, json.dumps({"ids": ["1", "999"]})),
        ("POST", "/v1/retrieve", bearer, json.dumps({"ids": ["999"]})),  # 404
        ("POST", "/v1/retrieve", bearer, json.dumps({"query": "piano", "k": "three"})),  # 422 (the app's)
        ("POST", "/v1/retrieve", bearer, json.dumps({"op": "Encode", "args": {"payload": {"text": "x"}}})),
        ("POST", "/v1/retrieve", bearer, b'{"query": "piano", "query": "oat"}'),  # duplicate keys
        ("POST", "/v1/retrieve", bearer, b"{not json"),
        ("POST", "/v1/execute", bearer, json.dumps({"op": "Encode", "args": {"payload": {"text": "new"}}})),
        ("POST", "/v1/execute", bearer, json.dumps({"op": "Encode", "args": {}})),  # invalid
        ("POST", "/v1/execute", bearer, json.dumps({"op": "Frobnicate"})),
        ("POST", "/v1/execute?dry_run=true", bearer, json.dumps({"op": "Delete", "target": {"ids": ["1"]}})),
        ("POST", "/v1/execute", bearer, json.dumps({"op": "Lock", "target": {"ids": ["2"]}, "args": {}})),
        ("POST", "/v1/execute", bearer, json.dumps({"op": "Update", "target": {"ids": ["2"]}, "args": {}})),
        ("POST", "/v1/retrieve", {"X-API-Key": f"  {key} "}, json.dumps({"query": "tuner"})),
        ("POST", "/v1/retrieve", {"Authorization": f"bearer {key}"}, json.dumps({"query": "tuner"})),
        ("POST", "/v1/retrieve", {"Authorization": "Basic abc", "X-API-Key": key}, json.dumps({"k": 2})),
        ("POST", "/v1/retrieve", {"Authorization": f"Bearer {other}"}, json.dumps({"query": "piano"})),  # 401
        ("POST", "/v1/retrieve", {"Authorization": "Bearer "}, json.dumps({"query": "piano"})),  # 401
        ("POST", "/v1/retrieve", {}, json.dumps({"query": "piano"})),  # 401
        ("POST", "/v1/retrieve", {"Cookie": f"memql_key={key}"}, json.dumps({"query": "oat"})),
        ("POST", "/v1/retrieve", bearer, b"x" * (2 * 1024 * 1024)),  # 413, before either
        ("GET", "/v1/retrieve", bearer, b""),  # 405
        ("POST", "/v1/validate", bearer, json.dumps(program)),
        ("POST", "/v1/retrieve", bearer, json.dumps({"query": "piano", "k": 5})),  # heat from the reads above
    ]


def _send(client: TestClient, method: str, path: str, headers: dict[str, str], body: bytes | str):
    """Status, headers and body, less what differs from one run to the next: the time an operation took
    (and so the body's length, checked here) and a workflow's random id."""
    reply = client.request(method, path, headers=headers, content=body)
    sent = dict(reply.headers)
    assert int(sent.pop("content-length")) == len(reply.content)
    body = re.sub(rb'"elapsed_ms":[-+.eE0-9]+', b'"elapsed_ms":0', reply.content)
    return reply.status_code, sent, re.sub(rb'"workflow_id":"[0-9a-f]+"', b'"workflow_id":""', body)


def test_hot_routes_answer_as_the_app_does(store_factory, monkeypatch):
    answered: list[bool] = []
    real = HotRoutes._answer

    def watched(self, scope, presented, body):
        out = real(self, scope, presented, body)
        answered.append(out is not None)
        return out

    monkeypatch.setattr(HotRoutes, "_answer", watched)
    hot, hot_keys, hot_lines = _site(store_factory(), hot=True)
    plain, plain_keys, plain_lines = _site(store_factory(), hot=False)
    other = "mq_" + "0" * 40
    mine: list[bool] = []
    for (method, path, headers, body), (_, _, plain_headers, _) in zip(
        _requests(hot_keys[0], other), _requests(plain_keys[0], other), strict=True
    ):
        before = len(answered)
        got = _send(hot, method, path, headers, body)
        expected = _send(plain, method, path, plain_headers, body)
        assert got[0] == expected[0], (path, body)
        assert got[2] == expected[2].replace(plain_keys[0].encode(), hot_keys[0].encode()), (path, body)
        assert got[1] == expected[1]
        mine.append(len(answered) > before and answered[-1])
    assert hot_lines.lines == plain_lines.lines
    # answered itself: every well-formed Retrieve and Execute with a live key in a header (not the 422
    # of a shorthand, a query string, an unknown key, a cookie, the size limit, another method or path)
    assert mine == [True] * 5 + [False] + [True] * 6 + [False] + [True] * 5 + [False] * 7 + [True]
    hot.app.state.memql.store.close()
    plain.app.state.memql.store.close()


def test_an_error_while_running_is_the_apps_500(store_factory, monkeypatch):
    hot, keys, lines = _site(store_factory(), hot=True)
    plain, plain_keys, plain_lines = _site(store_factory(), hot=False)

    def broken(self, *args, **kwargs):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(Memory, "execute", broken)
    body = json.dumps({"query": "piano"})
    got = _send(hot, "POST", "/v1/retrieve", {"Authorization": f"Bearer {keys[0]}"}, body)
    expected = _send(plain, "POST", "/v1/retrieve", {"Authorization": f"Bearer {plain_keys[0]}"}, body)
    assert got[0] == expected[0] == 500
    assert got[2] == expected[2] and b"disk on fire" not in got[2]
    assert lines.lines == plain_lines.lines and lines.lines[-1]["status"] == 500
    hot.app.state.memql.store.close()
    plain.app.state.memql.store.close()


@pytest.mark.parametrize(
    ("headers", "key"),
    [
        ([(b"authorization", b"Bearer k1")], "k1"),
        ([(b"authorization", b"BEARER   k1  ")], "k1"),
        ([(b"authorization", b"Bearer"), (b"x-api-key", b"k2")], "k2"),
        ([(b"authorization", b"Basic k1"), (b"x-api-key", b" k2 ")], "k2"),
        ([(b"x-api-key", b"k2"), (b"authorization", b"Bearer k1")], "k1"),  # bearer first, wherever it is
        ([(b"authorization", b"Bearer k1"), (b"authorization", b"Bearer k3")], "k1"),
        ([(b"x-api-key", b"")], None),
        ([(b"cookie", b"memql_key=k1")], None),  # the app reads cookies
        ([], None),
    ],
)
def test_the_key_presented_is_read_as_the_app_reads_it(headers, key):
    assert presented_key(headers) == key


def test_the_routes_get_as_many_threads_as_the_store_runs_transactions_at_once(store_factory):
    store = store_factory()
    app = create_app(store, embedder=None)
    (hot,) = [m for m in app.user_middleware if m.cls is HotRoutes]
    expected = 1 if store_factory.backend.name == "sqlite" else store.pool.max_size
    assert hot.kwargs["threads"] == store.reads_at_once == expected
    assert HotRoutes(app, lambda: None).threads == hot_routes.THREADS  # a store that does not say
    store.close()
