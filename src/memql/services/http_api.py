"""One POST endpoint of an OpenAI-compatible HTTP API (``/embeddings``, ``/chat/completions``), on the
standard library only: keep-alive connections from a small pool, bounded retries with exponential backoff
or the server's ``Retry-After``, and errors that carry the HTTP status and the server's own message.

The remote embedder and the LLM client both speak through it, so there is one retry loop and one reading
of error bodies for every remote model service.
"""

from __future__ import annotations

import email.utils
import http.client
import json
import math
import random
import ssl
import sys
import threading
import time
import weakref
from collections.abc import Mapping
from urllib.parse import urlsplit

from memql import __version__
from memql.errors import MemqlError

RETRYABLE_STATUS = frozenset({408, 429})  # plus every 5xx
MAX_BACKOFF = 20.0  # seconds: ceiling of one exponential-backoff wait
MAX_RETRY_AFTER = 60.0  # seconds: ceiling on a server's Retry-After
MAX_IDLE_CONNECTIONS = 8  # keep-alive connections kept open between requests


class RemoteServiceError(MemqlError, RuntimeError):
    """A request to a remote model service failed for good.

    ``status`` is the HTTP status of the last response (None when no response arrived: connection error,
    timeout), ``message`` the server's error message when it sent one, ``attempts`` how many requests were
    made before giving up.
    """

    def __init__(self, text: str, *, status: int | None = None, message: str = "", attempts: int = 1) -> None:
        super().__init__(text)
        self.status = status
        self.message = message
        self.attempts = attempts


class ApiEndpoint:
    """``POST {base_url}/{endpoint}`` with JSON bodies, retried on transient failures.

    - ``base_url`` is the API root (``http://127.0.0.1:11434/v1``); a trailing slash, an explicit endpoint
      path and a query string (Azure's ``?api-version=…``) are kept right.
    - Connection errors, timeouts, HTTP 408, 429 and 5xx are retried up to ``max_retries`` times with
      exponential backoff (``backoff`` · 2^attempt, with jitter) or, when the server sends one, after its
      ``Retry-After`` / ``retry-after-ms`` (capped at 60 s). Other 4xx fail at once. Failures raise
      ``error`` (a :class:`RemoteServiceError` subclass). ``timeout`` bounds each socket operation.
    - ``retries`` counts the requests that were retried. One instance is safe to share between threads.
    """

    def __init__(
        self,
        base_url: str,
        endpoint: str,
        *,
        api_key: str | None,
        headers: Mapping[str, str] | None = None,
        timeout: float = 30.0,
        max_retries: int = 4,
        backoff: float = 0.5,
        error: type[RemoteServiceError] = RemoteServiceError,
    ) -> None:
        parts = urlsplit(base_url.strip())
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"base_url must be an http:// or https:// URL, got {base_url!r}")
        if timeout <= 0:
            raise ValueError(f"timeout must be positive, got {timeout}")
        if max_retries < 0 or backoff < 0:
            raise ValueError("max_retries and backoff must not be negative")
        self.timeout = float(timeout)
        self.max_retries = int(max_retries)
        self.backoff = float(backoff)
        self.error = error
        self.retries = 0

        self._https = parts.scheme == "https"
        self.host = parts.hostname
        self._port = parts.port  # None: the scheme's default
        path = parts.path.rstrip("/")
        if not path.endswith("/" + endpoint):
            path += "/" + endpoint
        self._path = path + (f"?{parts.query}" if parts.query else "")
        self.url = f"{parts.scheme}://{parts.netloc}{self._path}"

        self._headers = {
            "Content-Type": "application/json",
            "Accept": "application/json",
            "User-Agent": f"memql/{__version__} python/{sys.version_info[0]}.{sys.version_info[1]}",
        }
        if api_key:
            self._headers["Authorization"] = f"Bearer {api_key}"
        self._headers.update(headers or {})

        self._lock = threading.Lock()
        self._idle: list[http.client.HTTPConnection] = []  # keep-alive connections not in use
        weakref.finalize(self, _close_all, self._idle)

    def close(self) -> None:
        """Closes the idle keep-alive connections (a later request reconnects)."""
        with self._lock:
            idle = self._idle[:]
            self._idle.clear()
        _close_all(idle)

    # -- one request, with retries -------------------------------------------------------------------------

    def post(self, payload: object) -> bytes:
        """POSTs ``payload`` as JSON and returns the body of the 2xx response; raises ``self.error``."""
        body = json.dumps(payload, ensure_ascii=False).encode("utf-8")
        last: RemoteServiceError | None = None
        attempts = self.max_retries + 1
        for attempt in range(attempts):
            try:
                status, headers, data = self._post(body)
            except ssl.SSLCertVerificationError as exc:  # retrying cannot fix a certificate
                raise self.error(f"POST {self.url}: TLS certificate check failed: {exc}") from exc
            except (OSError, http.client.HTTPException) as exc:
                reason = "timed out" if isinstance(exc, TimeoutError) else f"{type(exc).__name__}: {exc}"
                last = self.error(f"POST {self.url}: no response ({reason})", attempts=attempt + 1)
                last.__cause__ = exc
                delay = self._backoff_delay(attempt)
            else:
                if 200 <= status < 300:
                    return data
                message = error_message(data)
                hint = " (check base_url: it is the API root, usually ending in /v1)" if status == 404 else ""
                last = self.error(
                    f"POST {self.url} failed with HTTP {status}: {message or 'no error message'}{hint}",
                    status=status,
                    message=message,
                    attempts=attempt + 1,
                )
                if not (status in RETRYABLE_STATUS or status >= 500):
                    raise last
                delay = retry_after(headers)
                if delay is None:
                    delay = self._backoff_delay(attempt)
            if attempt + 1 < attempts:
                with self._lock:
                    self.retries += 1
                time.sleep(delay)
        assert last is not None
        if attempts == 1:
            raise last
        raise self.error(
            f"gave up after {attempts} attempts; last error: {last}",
            status=last.status,
            message=last.message,
            attempts=attempts,
        ) from last

    def _backoff_delay(self, attempt: int) -> float:
        return min(MAX_BACKOFF, self.backoff * 2**attempt) * (1.0 - 0.25 * random.random())

    # -- HTTP --------------------------------------------------------------------------------------------

    def _acquire(self) -> http.client.HTTPConnection:
        with self._lock:
            if self._idle:
                return self._idle.pop()
        if self._https:
            return http.client.HTTPSConnection(self.host, self._port, timeout=self.timeout)
        return http.client.HTTPConnection(self.host, self._port, timeout=self.timeout)

    def _release(self, conn: http.client.HTTPConnection) -> None:
        with self._lock:
            if len(self._idle) < MAX_IDLE_CONNECTIONS:
                self._idle.append(conn)
                return
        conn.close()

    def _post(self, body: bytes) -> tuple[int, http.client.HTTPMessage, bytes]:
        """One POST on a pooled keep-alive connection. A connection the server closed while idle fails on
        first use; that is retried at once on a fresh connection and not counted as an attempt."""
        for fresh in (False, True):
            conn = self._acquire()
            reused = conn.sock is not None
            try:
                conn.request("POST", self._path, body=body, headers=self._headers)
                response = conn.getresponse()
                data = response.read()
            except BaseException as exc:
                conn.close()
                if reused and not fresh and isinstance(exc, ConnectionError):
                    continue
                raise
            self._release(conn)
            return response.status, response.headers, data
        raise AssertionError("unreachable")  # pragma: no cover


def _close_all(connections: list[http.client.HTTPConnection]) -> None:
    for conn in connections:
        conn.close()


def error_message(data: bytes) -> str:
    """The message of an OpenAI (``{"error": {"message": …}}``), vLLM (``{"message": …}``) or Ollama
    (``{"error": "…"}``) error body; otherwise the start of the body."""
    try:
        payload = json.loads(data)
    except ValueError:
        return data[:300].decode("utf-8", "replace").strip()
    if isinstance(payload, dict):
        err = payload.get("error", payload)
        if isinstance(err, str):
            return err
        if isinstance(err, dict):
            msg = err.get("message") or err.get("detail") or ""
            kind = err.get("type") or err.get("code")
            if isinstance(msg, str) and msg:
                return f"{msg} ({kind})" if isinstance(kind, str) and kind else msg
    return json.dumps(payload)[:300]


def retry_after(headers: http.client.HTTPMessage) -> float | None:
    """Seconds to wait from ``retry-after-ms`` (OpenAI) or ``Retry-After`` (seconds or an HTTP date)."""
    value = headers.get("retry-after-ms")
    if value is not None:
        try:
            seconds = float(value) / 1000.0
        except ValueError:
            seconds = math.nan
        if math.isfinite(seconds):
            return min(max(seconds, 0.0), MAX_RETRY_AFTER)
    value = headers.get("Retry-After")
    if value is None:
        return None
    try:
        seconds = float(value)
    except ValueError:
        try:
            seconds = email.utils.parsedate_to_datetime(value).timestamp() - time.time()
        except (TypeError, ValueError):
            return None
    if not math.isfinite(seconds):
        return None
    return min(max(seconds, 0.0), MAX_RETRY_AFTER)
