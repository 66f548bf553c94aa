"""The two busiest routes, /v1/retrieve and /v1/execute, answered without FastAPI's request machinery.

Under many clients a served Retrieve cost about twice its in-process CPU time, and most of the difference
was not HTTP but the framework around the route: route matching over every route (the dashboard's too),
the exception and exit-stack middlewares, the Request object, three security dependencies resolved per
request, the body read through them (docs/benchmarks.md, "Many agents over REST"). `HotRoutes` sits
inside the size limit and the access log (so both apply unchanged) and answers `POST /v1/retrieve` and
`POST /v1/execute` (no query string) itself: the key from the headers, the caller's Memory, the route's
own function (`retrieve_result`, `Memory.execute`) and `result_response`'s bytes, in one trip to a
thread pool of its own (nothing that reads the store runs on the event loop).

It answers only what it answers exactly as the routes do. Anything else goes to the app untouched, with
the body replayed, before anything has run: another path or method, a query string (`dry_run`), no key in
a header (a cookie, or none: the app's 401), a key that does not authenticate (the app's 401), a
Retrieve shorthand that does not validate (the app's 422). An error while the operation runs is logged
and becomes the app's own 500 body. `tests/interfaces/rest/test_rest_hot_routes.py` compares its answers
with the app's, byte for byte, on both backends.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from starlette.types import ASGIApp, Receive, Scope, Send

from memql.engine.result import ExecutionResult
from memql.interfaces.apikeys import authenticate
from memql.interfaces.rest.auth import Services, caller_state, memory_for
from memql.interfaces.rest.errors import RULES, Refusal, diagnostic, error_response, refused_response
from memql.interfaces.rest.middleware import STATE_KEY, replay
from memql.interfaces.rest.responses import result_response
from memql.interfaces.rest.retrieve_body import retrieve_result

log = logging.getLogger("memql.rest")
HOT_PATHS = frozenset({"/v1/retrieve", "/v1/execute"})
_FALL_BACK = None  # what the thread returns when the app should answer instead
# the routes' own threads: a plain executor costs a fraction of anyio's trip (its limiter, cancel scope and
# backend lookups). As many as the store runs transactions at once (`reads_at_once`: a SQLite store one, on
# its one connection; PostgreSQL its pool's size), else as many as FastAPI's pool has (anyio's default):
# more threads than that only wait for the store's lock, and the handovers cost CPU and latency
THREADS = 40


class HotRoutes:
    """ASGI middleware: `services()` gives the app's shared Services (app.state.memql)."""

    def __init__(self, app: ASGIApp, services: Any, threads: int = THREADS) -> None:
        self.app, self.services, self.threads = app, services, max(1, threads)
        self._pool: ThreadPoolExecutor | None = None
        self._pool_made = threading.Lock()

    def pool(self) -> ThreadPoolExecutor:
        """The threads this app's hot routes run in (made at the first request)."""
        with self._pool_made:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(self.threads, thread_name_prefix="memql-rest")
            return self._pool

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] != "http"
            or scope["method"] != "POST"
            or scope["path"] not in HOT_PATHS
            or scope.get("query_string")
        ):
            await self.app(scope, receive, send)
            return
        presented = presented_key(scope["headers"])
        if presented is None:
            await self.app(scope, receive, send)
            return
        body, ended = await _read_body(receive)
        if not ended:
            return  # the client went away before its body ended: nobody to answer
        loop = asyncio.get_running_loop()
        answer = await loop.run_in_executor(self.pool(), self._answer, scope, presented, body)
        if answer is _FALL_BACK:
            await self.app(scope, replay(body, receive), send)
            return
        status, content, headers = answer
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": content})

    def _answer(self, scope: Scope, presented: str, body: bytes) -> tuple[int, bytes, list[Any]] | None:
        """In a worker thread: the response, or None for the app to answer."""
        shared: Services = self.services()
        try:
            key = authenticate(shared.store, presented)
        except Refusal as refusal:  # the store could not check the key (busy, out of reach): as the app says
            response = refused_response(refusal)
            return response.status_code, response.body, response.raw_headers
        if key is None:
            return _FALL_BACK
        scope.setdefault("state", {})[STATE_KEY] = caller_state(key)
        memory = memory_for(key, shared)
        try:
            if scope["path"] == "/v1/retrieve":
                try:
                    result: ExecutionResult = retrieve_result(memory, body)
                except Refusal:
                    return _FALL_BACK  # a shorthand refused before anything ran: the app's 422
            else:
                result = memory.execute(body)
            response = result_response(result)
        except Exception as exc:  # what the app's handler does with an unexpected error
            log.error("unhandled error on %s %s", scope["method"], scope["path"], exc_info=exc)
            response = error_response(500, diagnostic("http.internal", RULES["http.internal"]))
        return response.status_code, response.body, response.raw_headers


def presented_key(headers: list[tuple[bytes, bytes]]) -> str | None:
    """The key a request presents in its headers, as the app's `caller` dependency reads it: a bearer
    token, else X-API-Key (each header's first occurrence); None when neither holds one."""
    authorization = api_key = None
    for name, value in headers:
        if name == b"authorization" and authorization is None:
            authorization = value.decode("latin-1")
        elif name == b"x-api-key" and api_key is None:
            api_key = value.decode("latin-1")
    bearer = None
    if authorization:
        scheme, _, credentials = authorization.partition(" ")
        credentials = credentials.strip()
        if scheme and credentials and scheme.lower() == "bearer":
            bearer = credentials
    presented = bearer or api_key
    return presented.strip() if presented else None


async def _read_body(receive: Receive) -> tuple[bytes, bool]:
    """The whole body (already within the size limit, replayed by BodyLimit), and whether it ended."""
    chunks = []
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return b"".join(chunks), False
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            return b"".join(chunks), True
