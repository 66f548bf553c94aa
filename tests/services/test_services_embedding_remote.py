"""RemoteEmbedder against a real local HTTP server that speaks the OpenAI /v1/embeddings API.

The server stands in for the remote model provider (OpenAI, Ollama, vLLM): it returns deterministic,
deliberately un-normalised vectors derived from a hash of each text, rejects empty inputs like OpenAI does,
and can be scripted per request to fail (503, 500, 429 + Retry-After, dropped connection, a delay beyond the
client's timeout, 401/400 with an OpenAI-style error body), to shuffle the ``index`` order, or to close a
keep-alive connection behind the client's back.
"""

from __future__ import annotations

import base64
import hashlib
import random
import socket
import threading
import time

import numpy as np
import pytest

from chat_server import SLOW_SECONDS, ProviderHandler, serve_provider
from memql.services.embedding.remote import EmbedderError, RemoteEmbedder


def raw_vector(text: str, dim: int) -> list[float]:
    """The provider's deterministic, un-normalised embedding of ``text``."""
    out: list[float] = []
    counter = 0
    while len(out) < dim:
        digest = hashlib.sha256(f"{counter}:{text}".encode()).digest()
        out.extend((b - 127.5) / 16.0 for b in digest)
        counter += 1
    return out[:dim]


def unit(vec: list[float]) -> np.ndarray:
    arr = np.asarray(vec, dtype=np.float64)
    return arr / np.linalg.norm(arr)


class Provider:
    """State and script of the fake embedding provider; one per test."""

    def __init__(self) -> None:
        self.dim = 8
        self.script: list[str] = []  # one action per incoming request, then "ok"
        self.shuffle = False
        self.api_key: str | None = None  # when set, requests must carry "Bearer <api_key>"
        self.retry_after = "0"
        self.requests: list[dict] = []
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.sockets: set[socket.socket] = set()
        self.url = ""

    def next_action(self) -> str:
        with self.lock:
            return self.script.pop(0) if self.script else "ok"

    def inputs(self) -> list[list[str]]:
        return [r["body"]["input"] for r in self.requests]


class Handler(ProviderHandler):
    def answer(self, p: Provider, body: object, action: str) -> None:
        if self.scripted_failure(p, action):
            return
        if self.path != "/v1/embeddings":
            self.send_json(404, {"error": "404 page not found"})  # Ollama's shape
            return
        if p.api_key is not None and self.headers.get("Authorization") != f"Bearer {p.api_key}":
            self.send_error_body(
                401, "Incorrect API key provided: sk-wrong.", "invalid_request_error", "invalid_api_key"
            )
            return
        if not isinstance(body, dict) or not isinstance(body.get("model"), str):
            self.send_error_body(400, "you must provide a model parameter", "invalid_request_error")
            return
        texts = body.get("input")
        if not isinstance(texts, list) or not texts or not all(isinstance(t, str) and t for t in texts):
            self.send_error_body(400, "'$.input' is invalid.", "invalid_request_error")  # OpenAI: no ""
            return
        data = []
        for i, text in enumerate(texts):
            vec = raw_vector(text, p.dim)
            if action == "base64":
                emb: object = base64.b64encode(np.asarray(vec, dtype="<f4").tobytes()).decode()
            else:
                emb = vec
            data.append({"object": "embedding", "index": i, "embedding": emb})
        if p.shuffle:
            random.Random(len(texts)).shuffle(data)
        tokens = sum(len(t.split()) for t in texts)
        self.send_json(
            200,
            {
                "object": "list",
                "data": data,
                "model": body["model"],
                "usage": {"prompt_tokens": tokens, "total_tokens": tokens},
            },
        )
        if action == "close":  # answer as keep-alive, then close: the client's connection goes stale
            self.close_connection = True


@pytest.fixture
def provider(monkeypatch):
    monkeypatch.delenv("MEMQL_EMBED_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with serve_provider(Provider(), Handler) as p:
        yield p


@pytest.fixture
def make(provider):
    made: list[RemoteEmbedder] = []

    def factory(**kwargs) -> RemoteEmbedder:
        kwargs.setdefault("timeout", 0.2)
        kwargs.setdefault("backoff", 0.01)
        emb = RemoteEmbedder(
            kwargs.pop("base_url", provider.url), kwargs.pop("model", "test-embed"), **kwargs
        )
        made.append(emb)
        return emb

    yield factory
    for emb in made:
        emb.close()


def expected(texts: list[str], dim: int = 8) -> np.ndarray:
    return np.stack([unit(raw_vector(t, dim)) for t in texts])


# -- the happy path --------------------------------------------------------------------------------------


def test_batches_and_keeps_input_order(provider, make):
    texts = [f"memory number {i}" for i in range(200)]
    emb = make(batch_size=64)
    vectors = emb.embed(texts)
    assert [len(batch) for batch in provider.inputs()] == [64, 64, 64, 8]
    assert [t for batch in provider.inputs() for t in batch] == texts
    assert len(vectors) == 200 and all(len(v) == 8 for v in vectors)
    np.testing.assert_allclose(np.asarray(vectors), expected(texts), atol=1e-6)
    assert emb.calls == 4
    assert emb.tokens == 3 * 200
    assert emb.retries == 0


def test_request_is_openai_shaped(provider, make):
    emb = make(base_url=provider.url + "/", model="text-embedding-3-small")  # trailing slash tolerated
    emb.embed(["hello world"])
    (req,) = provider.requests
    assert req["path"] == "/v1/embeddings"
    assert req["body"] == {
        "model": "text-embedding-3-small",
        "input": ["hello world"],
        "encoding_format": "float",
    }
    assert req["headers"]["Content-Type"] == "application/json"
    assert "Authorization" not in req["headers"]


def test_vectors_are_unit_length(provider, make):
    vectors = np.asarray(make().embed(["a", "b c", "d e f"]))
    assert abs(np.linalg.norm(raw_vector("a", 8)) - 1.0) > 0.5  # the server's vectors are not unit length
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-6)


def test_shuffled_index_order_is_put_back(provider, make):
    provider.shuffle = True
    texts = [f"text {i}" for i in range(10)]
    vectors = make().embed(texts)
    np.testing.assert_allclose(np.asarray(vectors), expected(texts), atol=1e-6)


def test_base64_embeddings_are_decoded(provider, make):
    provider.script = ["base64"]
    vectors = make().embed(["x", "y"])
    np.testing.assert_allclose(np.asarray(vectors), expected(["x", "y"]), atol=1e-6)


def test_empty_strings_are_sent_as_a_space(provider, make):
    vectors = make().embed(["", "a", ""])
    assert provider.inputs() == [[" ", "a", " "]]
    np.testing.assert_allclose(np.asarray(vectors), expected([" ", "a", " "]), atol=1e-6)


def test_no_input_makes_no_request(provider, make):
    emb = make()
    assert emb.embed([]) == []
    assert provider.requests == []
    with pytest.raises(TypeError):
        emb.embed("a string is not a list of texts")


def test_keep_alive_connection_is_reused(provider, make):
    emb = make(batch_size=2)
    emb.embed(["a", "b", "c", "d", "e"])
    emb.embed(["f"])
    assert len(provider.requests) == 4
    assert len({r["port"] for r in provider.requests}) == 1
    emb.close()  # closes the idle connection; the next call opens a new one
    emb.embed(["g"])
    assert len({r["port"] for r in provider.requests}) == 2


def test_stale_keep_alive_connection_is_replaced_without_backoff(provider, make):
    provider.script = ["close"]
    emb = make(backoff=5.0)
    emb.embed(["first"])
    start = time.monotonic()
    np.testing.assert_allclose(np.asarray(emb.embed(["second"])), expected(["second"]), atol=1e-6)
    assert time.monotonic() - start < 1.0
    assert emb.retries == 0 and emb.calls == 2


# -- retries ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("failure", ["503", "500", "429", "drop", "slow"])
def test_transient_failures_are_retried(provider, make, failure):
    provider.script = [failure, failure]
    emb = make(max_retries=4)
    vectors = emb.embed(["persist", "me"])
    np.testing.assert_allclose(np.asarray(vectors), expected(["persist", "me"]), atol=1e-6)
    assert [r["action"] for r in provider.requests] == [failure, failure, "ok"]
    assert emb.retries == 2 and emb.calls == 1


@pytest.mark.parametrize("failure", ["503", "429", "drop"])
def test_gives_up_after_max_retries(provider, make, failure):
    provider.script = [failure] * 10
    emb = make(max_retries=2)
    with pytest.raises(EmbedderError) as info:
        emb.embed(["doomed"])
    assert len(provider.requests) == 3
    assert info.value.attempts == 3
    assert "gave up after 3 attempts" in str(info.value)
    if failure == "drop":
        assert info.value.status is None
    else:
        assert info.value.status == int(failure)
        assert info.value.message  # the server's message is carried
    assert emb.calls == 0


def test_no_retries_when_max_retries_is_zero(provider, make):
    provider.script = ["503"]
    emb = make(max_retries=0)
    with pytest.raises(EmbedderError, match="HTTP 503: The server is overloaded") as info:
        emb.embed(["x"])
    assert info.value.attempts == 1 and len(provider.requests) == 1 and emb.retries == 0


def test_timeout_gives_up_with_a_clear_error(provider, make):
    provider.script = ["slow", "slow"]
    emb = make(timeout=0.2, max_retries=1)
    start = time.monotonic()
    with pytest.raises(EmbedderError, match="timed out") as info:
        emb.embed(["too slow"])
    assert time.monotonic() - start < SLOW_SECONDS  # the client did not wait for the server
    assert info.value.status is None and len(provider.requests) == 2


def test_retry_after_is_honoured_over_backoff(provider, make):
    provider.script = ["429"]
    emb = make(backoff=5.0)  # Retry-After: 0 wins over a 5 s backoff
    start = time.monotonic()
    emb.embed(["quick"])
    assert time.monotonic() - start < 1.0

    provider.script = ["429"]
    provider.retry_after = "0.3"
    emb = make(backoff=0.0)
    start = time.monotonic()
    emb.embed(["patient"])
    assert time.monotonic() - start >= 0.28


def test_backoff_grows_between_attempts(provider, make):
    provider.script = ["503", "503", "503"]
    start = time.monotonic()
    make(backoff=0.05, max_retries=3).embed(["x"])
    # waits of 0.05, 0.1, 0.2 s, each shortened by at most 25 % jitter
    assert 0.26 <= time.monotonic() - start < 2.0


@pytest.mark.parametrize(
    ("status", "message"),
    [(401, "Incorrect API key provided"), (400, "maximum context length")],
)
def test_other_client_errors_are_not_retried(provider, make, status, message):
    if status == 401:
        provider.api_key = "sk-right"
        emb = make(api_key="sk-wrong")
    else:
        provider.script = ["400"]
        emb = make()
    with pytest.raises(EmbedderError, match=message) as info:
        emb.embed(["x"])
    assert info.value.status == status
    assert message in info.value.message
    assert f"HTTP {status}" in str(info.value)
    assert len(provider.requests) == 1 and emb.retries == 0


def test_wrong_base_url_hints_at_v1(provider, make):
    emb = make(base_url=provider.url.removesuffix("/v1"))
    with pytest.raises(EmbedderError, match="ending in /v1") as info:
        emb.embed(["x"])
    assert info.value.status == 404 and len(provider.requests) == 1


def test_malformed_success_response_raises(provider, make):
    provider.script = ["html"]
    with pytest.raises(EmbedderError, match="not JSON"):
        make().embed(["x"])


# -- dimension -------------------------------------------------------------------------------------------


def test_dimension_is_learned_and_then_enforced(provider, make):
    emb = make()
    emb.embed(["a"])
    assert emb.dimension == 8
    assert len(provider.requests) == 1
    provider.dim = 12  # the model behind the URL changed
    with pytest.raises(EmbedderError, match="12-dimensional vectors, expected 8"):
        emb.embed(["b"])
    assert len(provider.requests) == 2  # not retried


def test_dimension_probe_when_read_first(provider, make):
    provider.dim = 16
    emb = make()
    assert emb.dimension == 16
    assert len(provider.requests) == 1
    assert emb.dimension == 16 and len(provider.requests) == 1


def test_configured_dimension_is_checked(provider, make):
    assert make(dimension=8).embed(["fine"])
    emb = make(dimension=384)
    assert emb.dimension == 384 and provider.requests[1:] == []  # known: no probe
    with pytest.raises(EmbedderError, match="expected 384"):
        emb.embed(["x"])


# -- authentication and headers --------------------------------------------------------------------------


def test_api_key_is_sent_as_bearer_token(provider, make):
    provider.api_key = "sk-test-123"
    emb = make(api_key="sk-test-123", headers={"OpenAI-Organization": "org-1"})
    emb.embed(["secret"])
    headers = provider.requests[0]["headers"]
    assert headers["Authorization"] == "Bearer sk-test-123"
    assert headers["OpenAI-Organization"] == "org-1"
    assert "sk-test-123" not in repr(emb)


def test_api_key_from_environment(provider, make, monkeypatch):
    provider.api_key = "sk-openai"
    monkeypatch.setenv("OPENAI_API_KEY", "sk-openai")
    make().embed(["a"])
    monkeypatch.setenv("MEMQL_EMBED_API_KEY", "sk-memql")  # takes precedence
    provider.api_key = "sk-memql"
    make().embed(["b"])
    with pytest.raises(EmbedderError) as info:
        make(api_key="").embed(["c"])  # "" opts out of sending a key
    assert info.value.status == 401
    assert [r["headers"].get("Authorization") for r in provider.requests] == [
        "Bearer sk-openai",
        "Bearer sk-memql",
        None,
    ]


# -- concurrency -----------------------------------------------------------------------------------------


def test_one_instance_serves_many_threads(provider, make):
    emb = make(batch_size=4)
    results: dict[int, list[list[float]]] = {}
    errors: list[BaseException] = []

    def work(n: int) -> None:
        try:
            results[n] = emb.embed([f"thread {n} text {i}" for i in range(10)])
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=10)
    assert not errors and len(results) == 8
    for n, vectors in results.items():
        texts = [f"thread {n} text {i}" for i in range(10)]
        np.testing.assert_allclose(np.asarray(vectors), expected(texts), atol=1e-6)
    assert emb.calls == 8 * 3 and len(provider.requests) == 24
    assert emb.tokens == 8 * 10 * 4


# -- configuration ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs",
    [
        {"base_url": "ftp://example.com/v1"},
        {"base_url": "not a url"},
        {"batch_size": 0},
        {"timeout": 0},
        {"max_retries": -1},
        {"dimension": 0},
    ],
)
def test_bad_configuration_is_rejected(kwargs):
    args = {"base_url": "http://127.0.0.1:1/v1", **kwargs}
    with pytest.raises(ValueError):
        RemoteEmbedder(args.pop("base_url"), "m", **args)


def test_url_keeps_query_and_explicit_embeddings_path():
    assert RemoteEmbedder("https://x.example/v1/", "m").url == "https://x.example/v1/embeddings"
    assert RemoteEmbedder("http://h:8000/v1/embeddings", "m").url == "http://h:8000/v1/embeddings"
    azure = RemoteEmbedder("https://r.example/openai/deployments/d?api-version=2024-02-01", "m")
    assert azure.url == "https://r.example/openai/deployments/d/embeddings?api-version=2024-02-01"
