"""A remote embedder for any server that speaks the OpenAI ``/embeddings`` API (OpenAI, Ollama, vLLM,
llama.cpp server, LM Studio, text-embeddings-inference, …), built on the standard library only.

Example::

    emb = RemoteEmbedder("http://127.0.0.1:11434/v1", "nomic-embed-text")        # Ollama, no key
    emb = RemoteEmbedder("https://api.openai.com/v1", "text-embedding-3-small")  # key from the environment
    vectors = emb.embed(["hello", "world"])
"""

from __future__ import annotations

import base64
import json
import os
import threading
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from memql.services.http_api import ApiEndpoint, RemoteServiceError

API_KEY_ENV_VARS = ("MEMQL_EMBED_API_KEY", "OPENAI_API_KEY")
_PROBE_TEXT = "dimension probe"


class EmbedderError(RemoteServiceError):
    """A remote embedding request failed for good.

    ``status`` is the HTTP status of the last response (None when no response arrived: connection error,
    timeout), ``message`` the server's error message when it sent one, ``attempts`` how many requests were
    made before giving up.
    """


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
        if not model:
            raise ValueError("model must be a non-empty model name")
        if batch_size < 1:
            raise ValueError(f"batch_size must be at least 1, got {batch_size}")
        if dimension is not None and dimension < 1:
            raise ValueError(f"dimension must be positive, got {dimension}")
        if api_key is None:
            api_key = next((os.environ[v] for v in API_KEY_ENV_VARS if os.environ.get(v)), None)
        self._endpoint = ApiEndpoint(
            base_url,
            "embeddings",
            api_key=api_key,
            headers=headers,
            timeout=timeout,
            max_retries=max_retries,
            backoff=backoff,
            error=EmbedderError,
        )
        self.model = model
        self.batch_size = int(batch_size)
        self.timeout = self._endpoint.timeout
        self.max_retries = self._endpoint.max_retries
        self.backoff = self._endpoint.backoff
        self.url = self._endpoint.url
        self.calls = 0
        self.tokens = 0
        self._dimension = int(dimension) if dimension is not None else None
        self._lock = threading.Lock()

    @property
    def retries(self) -> int:
        """Requests that were retried (after a transient failure)."""
        return self._endpoint.retries

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
        self._endpoint.close()

    def __enter__(self) -> RemoteEmbedder:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- one batch ---------------------------------------------------------------------------------------

    def _embed_batch(self, inputs: list[str]) -> np.ndarray:
        data = self._endpoint.post({"model": self.model, "input": inputs, "encoding_format": "float"})
        vectors, tokens = self._parse(data, len(inputs))
        with self._lock:
            self.calls += 1
            self.tokens += tokens
        return vectors

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


def _vector(value: Any) -> list[float] | np.ndarray:
    if isinstance(value, str):  # encoding_format "base64": little-endian float32
        return np.frombuffer(base64.b64decode(value), dtype="<f4")
    if not isinstance(value, list) or not all(
        isinstance(x, int | float) and not isinstance(x, bool) for x in value
    ):
        raise TypeError("not a list of numbers")
    return value
