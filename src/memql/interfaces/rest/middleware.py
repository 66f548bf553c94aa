"""Two ASGI middlewares: the request size limit (enforced before anything parses the body) and the
structured access log (one JSON line per request; never the key itself)."""

from __future__ import annotations

import json
import logging
import time
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from memql.interfaces.rest.errors import ErrorBody, diagnostic

DEFAULT_MAX_BODY = 1024 * 1024  # 1 MiB
STATE_KEY = "memql_caller"  # scope["state"][STATE_KEY]: the caller's key id, tenant and actor (auth sets it)


async def _send_error(send: Send, status: int, rule: str, message: str) -> None:
    body = ErrorBody(diagnostics=[diagnostic(rule, message)]).model_dump_json().encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())],
        }
    )
    await send({"type": "http.response.body", "body": body})


class BodyLimit:
    """Refuse a body over `max_bytes` with 413: at once when Content-Length says so, else as soon as the
    bytes received pass the limit (a chunked body). The accepted body is buffered and replayed, so no
    route ever parses more than the limit."""

    def __init__(self, app: ASGIApp, max_bytes: int = DEFAULT_MAX_BODY) -> None:
        self.app, self.max_bytes = app, max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        too_large = f"the request body is larger than {self.max_bytes} bytes"
        declared = [v for k, v in scope.get("headers", []) if k == b"content-length"]
        if declared:
            text = declared[0].decode("latin-1").strip()
            if not text.isdigit():
                await _send_error(send, 400, "http.bad_request", "Content-Length is not a number")
                return
            if int(text) > self.max_bytes:
                await _send_error(send, 413, "http.too_large", too_large)
                return
        chunks, size = [], 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                break  # the client went away: let the app see that
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_bytes:
                await _send_error(send, 413, "http.too_large", too_large)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        await self.app(scope, replay(b"".join(chunks), receive), send)


def replay(body: bytes, receive: Receive) -> Receive:
    """A `receive` that gives the whole body, already read, in one message, then what `receive` gives."""
    replayed = False

    async def replayed_receive() -> Message:
        nonlocal replayed
        if not replayed:
            replayed = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replayed_receive


class AccessLog:
    """One JSON line per request on `logger`: method, path, status, duration_ms, and — when the request
    carried a valid key — its tenant, actor and key id (never the key)."""

    def __init__(self, app: ASGIApp, logger: logging.Logger) -> None:
        self.app, self.logger = app, logger

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started, status = time.perf_counter(), 500
        state: dict[str, Any] = scope.setdefault("state", {})

        async def watch(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, watch)
        finally:
            if self.logger.isEnabledFor(logging.INFO):  # `--access-log off`: not even the line is built
                self._log(scope, state, status, started)

    def _log(self, scope: Scope, state: dict[str, Any], status: int, started: float) -> None:
        caller = state.get(STATE_KEY) or {}
        line = {
            "method": scope.get("method"),
            "path": scope.get("path"),
            "status": status,
            "duration_ms": round((time.perf_counter() - started) * 1000, 2),
            "tenant": caller.get("tenant"),
            "actor": caller.get("actor"),
            "key_id": caller.get("key_id"),
        }
        # ASCII-only: a path's U+2028, NEL or control characters can never split or forge a line
        self.logger.info(json.dumps(line, ensure_ascii=True))
