"""A remote embedder for any server that speaks the OpenAI ``/embeddings`` API (OpenAI, Ollama, vLLM,
llama.cpp server, LM Studio, text-embeddings-inference, …), built on the standard library only.

Example::

    emb = RemoteEmbedder("http://127.0.0.1:11434/v1", "nomic-embed-text")        # Ollama, no key
    emb = RemoteEmbedder("https://api.openai.com/v1", "text-embedding-3-small")  # key from the environment
    vectors = emb.embed(["hello", "world"])
"""

from __future__ import annotations

import base64
import email.utils
import http.client
import json
import math
import os
import random
import ssl
import sys
import threading
import time
import weakref
from collections.abc import Mapping, Sequence
from typing import Any
from urllib.parse import urlsplit

import numpy as np

from memql import __version__

API_KEY_ENV_VARS = ("MEMQL_EMBED_API_KEY", "OPENAI_API_KEY")
RETRYABLE_STATUS = frozenset({408, 429})  # plus every 5xx
MAX_BACKOFF = 20.0  # seconds: ceiling of one exponential-backoff wait
MAX_RETRY_AFTER = 60.0  # seconds: ceiling on a server's Retry-After
MAX_IDLE_CONNECTIONS = 8  # keep-alive connections kept open between requests
_PROBE_TEXT = "dimension probe"


class EmbedderError(RuntimeError):
    """A remote embedding request failed for good.

    ``status`` is the HTTP status of the last response (None when no response arrived: connection error,
    timeout), ``message`` the server's error message when it sent one, ``attempts`` how many requests were
    made before giving up.
    """

    def __init__(self, text: str, *, status: int | None = None, message: str = "", attempts: int = 1) -> None:
        super().__init__(text)
        self.status = status
        self.message = message
        self.attempts = attempts


class RemoteEmbedder:
    """memql's Embedder port over an OpenAI-compatible ``POST {base_url}/embeddings``.

    - ``base_url`` is the API root, e.g. ``http://127.0.0.1:11434/v1`` (Ollama), ``http://host:8000/v1``
      (vLLM) or ``https://api.openai.com/v1``; a trailing slash and a query string (Azure's
      ``?api-version=…``) are kept right.
    - ``api_key`` defaults to ``$MEMQL_EMBED_API_KEY``, then ``$OPENAI_API_KEY``, and is sent as
      ``Authorization: Bearer …``; pass ``api_key=""`` to send none. ``headers`` adds or overrides headers
      (e.g. Azure's ``api-key``).
    - Inputs are sent ``batch_size`` texts per request; results come back in input order whatever order the
      server lists them in (by each item's ``index``). Empty strings are sent as a single space, since
      OpenAI rejects empty inputs.
    - Connection errors, timeouts, HTTP 408, 429 and 5xx are retried up to ``max_retries`` times with
      exponential backoff (``backoff`` · 2^attempt, with jitter) or, when the server sends one, after its
      ``Retry-After`` (capped at 60 s). Other 4xx fail at once. Failures raise :class:`EmbedderError`.
      ``timeout`` bounds each socket operation (connect, send, each read), in seconds.
    - Vectors are L2-normalised before they are returned: memql compares embeddings by cosine similarity
      computed as a dot product, which is only right for unit vectors (many servers, e.g. Ollama's and
      vLLM's for some models, do not normalise).
    - ``dimension``: when given, every response is checked against it; when not, it is learned from the
      first response (reading ``dimension`` before any ``embed`` makes one small probe request) and later
      responses must match. A mismatch raises :class:`EmbedderError`.
    - ``calls`` counts successful requests, ``tokens`` the ``usage.prompt_tokens`` the server reported,
      ``retries`` the requests that were retried.

    One instance is safe to share between threads: requests draw keep-alive connections from a small pool
    (``close()`` or garbage collection closes them), and the counters and the learned dimension are updated
    under a lock. Only the standard library is used,
    so environment proxies (``HTTPS_PROXY``) are not applied.
    """

    def __init__(
        self,
        base_url: str,
        model: str,
        *,
        api_key: str | None = None,
        dimension: int | None = None,
        batch_size: int = 64,
        timeout: float = 30.0,
        max_retries: int = 4,
        backoff: float = 0.5,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        parts = urlsplit(base_url.strip())
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"base_url must be an http:// or https:// URL, got {base_url!r}")
        if not model:
            raise ValueError("model must be a non-empty model name")
        if batch_size < 1:
            raise ValueError(f"batch_size must be at least 1, got {batch_size}")
        if timeout <= 0:
            raise ValueError(f"timeout must be positive, got {timeout}")
        if max_retries < 0 or backoff < 0:
            raise ValueError("max_retries and backoff must not be negative")
        if dimension is not None and dimension < 1:
            raise ValueError(f"dimension must be positive, got {dimension}")

        self.model = model
        self.batch_size = int(batch_size)
        self.timeout = float(timeout)
        self.max_retries = int(max_retries)
        self.backoff = float(backoff)
        self.calls = 0
        self.tokens = 0
        self.retries = 0

        self._https = parts.scheme == "https"
        self._host = parts.hostname
        self._port = parts.port  # None: the scheme's default
        path = parts.path.rstrip("/")
        if not path.endswith("/embeddings"):
            path += "/embeddings"
        self._path = path + (f"?{parts.query}" if parts.query else "")
        self.url = f"{parts.scheme}://{parts.netloc}{self._path}"

        if api_key is None:
            api_key = next((os.environ[v] for v in API_KEY_ENV_VARS if os.environ.get(v)), None)
        self._headers = {
            "Content-Type": "application/json",
            "Accept": "application/json",
            "User-Agent": f"memql/{__version__} python/{sys.version_info[0]}.{sys.version_info[1]}",
        }
        if api_key:
            self._headers["Authorization"] = f"Bearer {api_key}"
        self._headers.update(headers or {})

        self._dimension = int(dimension) if dimension is not None else None
        self._lock = threading.Lock()
        self._idle: list[http.client.HTTPConnection] = []  # keep-alive connections not in use
        weakref.finalize(self, _close_all, self._idle)

    def __repr__(self) -> str:
        return f"RemoteEmbedder({self.url!r}, model={self.model!r}, dimension={self._dimension})"

    # -- the Embedder port -------------------------------------------------------------------------------

    @property
    def dimension(self) -> int:
        """The vector size; when not configured and not yet learned, one probe request learns it."""
        if self._dimension is None:
            self.embed_array([_PROBE_TEXT])
        assert self._dimension is not None
        return self._dimension

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """The Embedder port: one unit vector (list of floats) per text, in input order."""
        return self.embed_array(texts).tolist()

    def embed_array(self, texts: Sequence[str]) -> np.ndarray:
        """Embeds ``texts`` as a float32 array of shape (len(texts), dimension), rows unit length."""
        if isinstance(texts, str):
            raise TypeError("embed expects a sequence of strings, not a string")
        texts = [str(t) if t != "" else " " for t in texts]
        if not texts:
            return np.zeros((0, self._dimension or 0), dtype=np.float32)
        parts = [
            self._embed_batch(texts[i : i + self.batch_size]) for i in range(0, len(texts), self.batch_size)
        ]
        return parts[0] if len(parts) == 1 else np.concatenate(parts)

    def close(self) -> None:
        """Closes the idle keep-alive connections (a later call reconnects)."""
        with self._lock:
            idle = self._idle[:]
            self._idle.clear()
        _close_all(idle)

    def __enter__(self) -> RemoteEmbedder:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- one batch, with retries ---------------------------------------------------------------------------

    def _embed_batch(self, inputs: list[str]) -> np.ndarray:
        body = json.dumps(
            {"model": self.model, "input": inputs, "encoding_format": "float"}, ensure_ascii=False
        ).encode("utf-8")
        last: EmbedderError | None = None
        attempts = self.max_retries + 1
        for attempt in range(attempts):
            try:
                status, headers, data = self._post(body)
            except ssl.SSLCertVerificationError as exc:  # retrying cannot fix a certificate
                raise EmbedderError(f"POST {self.url}: TLS certificate check failed: {exc}") from exc
            except (OSError, http.client.HTTPException) as exc:
                reason = "timed out" if isinstance(exc, TimeoutError) else f"{type(exc).__name__}: {exc}"
                last = EmbedderError(f"POST {self.url}: no response ({reason})", attempts=attempt + 1)
                last.__cause__ = exc
                delay = self._backoff_delay(attempt)
            else:
                if 200 <= status < 300:
                    vectors, tokens = self._parse(data, len(inputs))
                    with self._lock:
                        self.calls += 1
                        self.tokens += tokens
                    return vectors
                message = _error_message(data)
                hint = " (check base_url: it is the API root, usually ending in /v1)" if status == 404 else ""
                last = EmbedderError(
                    f"POST {self.url} failed with HTTP {status}: {message or 'no error message'}{hint}",
                    status=status,
                    message=message,
                    attempts=attempt + 1,
                )
                if not (status in RETRYABLE_STATUS or status >= 500):
                    raise last
                delay = _retry_after(headers)
                if delay is None:
                    delay = self._backoff_delay(attempt)
            if attempt + 1 < attempts:
                with self._lock:
                    self.retries += 1
                time.sleep(delay)
        assert last is not None
        if attempts == 1:
            raise last
        raise EmbedderError(
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
            return http.client.HTTPSConnection(self._host, self._port, timeout=self.timeout)
        return http.client.HTTPConnection(self._host, self._port, timeout=self.timeout)

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

    # -- response ----------------------------------------------------------------------------------------

    def _parse(self, data: bytes, count: int) -> tuple[np.ndarray, int]:
        def bad(why: str) -> EmbedderError:
            return EmbedderError(f"POST {self.url}: unexpected response ({why}): {data[:200]!r}")

        try:
            payload = json.loads(data)
        except ValueError:
            raise bad("not JSON") from None
        items = payload.get("data") if isinstance(payload, dict) else None
        if not isinstance(items, list) or not all(isinstance(it, dict) for it in items):
            raise bad("no 'data' list")
        if len(items) != count:
            raise bad(f"{len(items)} embeddings for {count} inputs")
        if all("index" in it for it in items):
            indexes = [it["index"] for it in items]
            if not all(type(i) is int for i in indexes) or sorted(indexes) != list(range(count)):
                raise bad("'index' values are not 0..n-1")
            items = sorted(items, key=lambda it: it["index"])
        try:
            rows = [_vector(it.get("embedding")) for it in items]
        except (TypeError, ValueError) as exc:
            raise bad(f"bad embedding: {exc}") from None
        dims = {len(r) for r in rows}
        if len(dims) != 1 or 0 in dims:
            raise bad(f"embeddings of sizes {sorted(dims)}")
        (dim,) = dims
        with self._lock:
            if self._dimension is None:
                self._dimension = dim
            expected = self._dimension
        if dim != expected:
            raise EmbedderError(
                f"POST {self.url}: model {self.model!r} returned {dim}-dimensional vectors, expected "
                f"{expected} (the model behind this URL changed, or the configured dimension is wrong)"
            )
        matrix = np.asarray(rows, dtype=np.float64)
        if not np.isfinite(matrix).all():
            raise bad("non-finite values")
        norms = np.linalg.norm(matrix, axis=1, keepdims=True)
        matrix /= np.where(norms > 0, norms, 1.0)  # a zero vector stays zero
        usage = payload.get("usage")
        tokens = 0
        if isinstance(usage, dict):
            value = usage.get("prompt_tokens", usage.get("total_tokens"))
            tokens = value if isinstance(value, int) and value > 0 else 0
        return matrix.astype(np.float32), tokens


def _close_all(connections: list[http.client.HTTPConnection]) -> None:
    for conn in connections:
        conn.close()


def _vector(value: Any) -> list[float] | np.ndarray:
    if isinstance(value, str):  # encoding_format "base64": little-endian float32
        return np.frombuffer(base64.b64decode(value), dtype="<f4")
    if not isinstance(value, list) or not all(
        isinstance(x, int | float) and not isinstance(x, bool) for x in value
    ):
        raise TypeError("not a list of numbers")
    return value


def _error_message(data: bytes) -> str:
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


def _retry_after(headers: http.client.HTTPMessage) -> float | None:
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
