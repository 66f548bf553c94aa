"""A real HTTP server on 127.0.0.1 that speaks the OpenAI chat completions API, for the tests of the LLM
client and of the LLM planner.

It stands in for the model provider (OpenAI, Ollama, vLLM): each request is recorded (path, headers, JSON
body) and answered by the next scripted action — a reply text from ``replies`` (or the ``respond``
callable), a 429 with Retry-After, a 500/503, a dropped connection, a stall beyond the client's timeout, a
body that is not a chat completion, a refusal — and ``reject_formats`` makes it refuse response_format
types with HTTP 400 the way servers without structured output do. ``usage`` says whether it reports token
usage: word counts of the messages and of the reply, so tests can predict them exactly.
"""

from __future__ import annotations

import contextlib
import json
import socket
import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

SLOW_SECONDS = 2.0  # how long a "slow" request stalls (clients in the tests time out well before)


class ChatProvider:
    """State and script of the fake chat provider; one per test."""

    def __init__(self) -> None:
        self.script: list[str] = []  # one action per incoming request, then "ok"
        self.replies: list[str] = []  # reply texts for "ok" requests, in order
        self.respond: Callable[[dict[str, Any]], str] | None = None  # when replies run out
        self.reject_formats: set[str] = set()  # response_format types answered with HTTP 400
        self.usage = True  # report usage in the response
        self.api_key: str | None = None  # when set, requests must carry "Bearer <api_key>"
        self.retry_after = "0"
        self.requests: list[dict[str, Any]] = []
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.sockets: set[socket.socket] = set()
        self.url = ""

    def next_action(self) -> str:
        with self.lock:
            return self.script.pop(0) if self.script else "ok"

    def reply_for(self, body: dict[str, Any]) -> str:
        with self.lock:
            if self.replies:
                return self.replies.pop(0)
        if self.respond is not None:
            return self.respond(body)
        return "ok"

    def bodies(self) -> list[dict[str, Any]]:
        return [r["body"] for r in self.requests]


def words(text: str) -> int:
    return len(text.split())


class ProviderHandler(BaseHTTPRequestHandler):
    """What a test provider's handler shares: keep-alive connections the provider can end, JSON replies."""

    protocol_version = "HTTP/1.1"  # keep-alive, like real providers
    disable_nagle_algorithm = True  # headers and body are two writes: avoid the 40 ms delayed-ACK stall
    timeout = 5  # an idle keep-alive connection ends its handler thread after this
    server_error_message = "The server is overloaded or not ready yet."  # answers a scripted 500/503

    def setup(self) -> None:
        super().setup()
        with self.server.provider.lock:  # type: ignore[attr-defined]
            self.server.provider.sockets.add(self.connection)  # type: ignore[attr-defined]

    def log_message(self, *args: object) -> None:  # quiet
        pass

    def send_json(self, status: int, payload: object, headers: dict[str, str] | None = None) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(data)

    def send_error_body(
        self, status: int, message: str, kind: str, code: str | None = None, headers: dict | None = None
    ) -> None:
        """An OpenAI-style error body."""
        error = {"message": message, "type": kind, "param": None, "code": code}
        self.send_json(status, {"error": error}, headers)

    def do_POST(self) -> None:
        """Record the request with the next scripted action, then `answer` it."""
        p = self.server.provider  # type: ignore[attr-defined]
        raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        try:
            body = json.loads(raw)
        except ValueError:
            body = None
        action = p.next_action()
        with p.lock:
            p.requests.append(
                {
                    "path": self.path,
                    "headers": dict(self.headers.items()),
                    "body": body,
                    "port": self.client_address[1],  # which keep-alive connection carried it
                    "action": action,
                }
            )
        try:
            self.answer(p, body, action)
        except OSError:  # the client gave up (timeout) before we answered
            self.close_connection = True

    def answer(self, p: Any, body: Any, action: str) -> None:
        raise NotImplementedError

    def scripted_failure(self, p: Any, action: str) -> bool:
        """Play the transport-level actions every provider shares; True when the request is answered.
        drop: close without a response; slow: stall beyond the client's timeout (wakes when the test
        ends), then answer as usual; 500/503, 429 (with Retry-After), 400 (context length), html (a
        proxy's page instead of JSON)."""
        if action == "drop":
            self.close_connection = True
            return True
        if action == "slow":
            p.stop.wait(SLOW_SECONDS)
        if action in ("500", "503"):
            self.send_error_body(int(action), self.server_error_message, "server_error")
            return True
        if action == "429":
            self.send_error_body(
                429, "Rate limit reached", "requests", "rate_limit_exceeded", {"Retry-After": p.retry_after}
            )
            return True
        if action == "400":
            self.send_error_body(
                400, "This model's maximum context length is 8192 tokens.", "invalid_request_error"
            )
            return True
        if action == "html":
            data = b"<html>upstream proxy says hi</html>"
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
            return True
        return False


class ChatHandler(ProviderHandler):
    server_error_message = "The server had an error while processing your request."  # OpenAI's wording

    def answer(self, p: ChatProvider, body: Any, action: str) -> None:
        if self.scripted_failure(p, action):
            return
        if action == "no_choices":
            self.send_json(200, {"id": "x", "object": "chat.completion", "choices": []})
            return
        if self.path != "/v1/chat/completions":
            self.send_json(404, {"error": "404 page not found"})  # Ollama's shape
            return
        if p.api_key is not None and self.headers.get("Authorization") != f"Bearer {p.api_key}":
            self.send_error_body(401, "Incorrect API key provided.", "invalid_request_error")
            return
        if not isinstance(body, dict) or not isinstance(body.get("messages"), list) or not body.get("model"):
            self.send_error_body(400, "'messages' and 'model' are required", "invalid_request_error")
            return
        fmt = body.get("response_format")
        if isinstance(fmt, dict) and fmt.get("type") in p.reject_formats:
            self.send_error_body(
                400, f"response_format type {fmt.get('type')!r} is not supported", "invalid_request_error"
            )
            return
        message: dict[str, Any] = {"role": "assistant"}
        if action == "refusal":
            message.update(content=None, refusal="I can't help with that.")
            reply = ""
        else:
            reply = p.reply_for(body)
            message["content"] = reply
        payload: dict[str, Any] = {
            "id": "chatcmpl-test",
            "object": "chat.completion",
            "model": body["model"],
            "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
        }
        if p.usage:
            prompt = sum(words(str(m.get("content", ""))) for m in body["messages"])
            payload["usage"] = {
                "prompt_tokens": prompt,
                "completion_tokens": words(reply),
                "total_tokens": prompt + words(reply),
            }
        self.send_json(200, payload)


@contextlib.contextmanager
def serve() -> Iterator[ChatProvider]:
    """Runs a chat provider on an ephemeral 127.0.0.1 port; ``provider.url`` is its API root (…/v1)."""
    with serve_provider(ChatProvider(), ChatHandler) as provider:
        yield provider


@contextlib.contextmanager
def serve_provider(p: Any, handler: type[BaseHTTPRequestHandler]) -> Iterator[Any]:
    """Serve `handler` for provider `p` (which has url, stop, lock and sockets) on an ephemeral
    127.0.0.1 port, and tear everything down afterwards, keep-alive connections included."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.provider = p  # type: ignore[attr-defined]
    server.handle_error = lambda request, address: None  # type: ignore[method-assign]
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True)
    thread.start()
    p.url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    try:
        yield p
    finally:
        p.stop.set()
        server.shutdown()
        server.server_close()
        with p.lock:
            sockets = list(p.sockets)
        for s in sockets:  # end keep-alive handler threads
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)
        thread.join(timeout=5)
