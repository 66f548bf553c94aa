"""Suite-wide settings: tests run without the local embedding model unless a test asks for it
(semantics tests stay fast and exact; retrieval tests pass an embedder explicitly)."""

import os

os.environ.setdefault("MEMQL_EMBEDDER", "none")


import pytest

# LLM settings a developer's environment may carry; a test of the local provider must not pick them up
LLM_ENVIRONMENT = (
    "MEMQL_LLM_BASE_URL",
    "MEMQL_LLM_MODEL",
    "MEMQL_LLM_API_KEY",
    "MEMQL_LLM_TIMEOUT",
    "OPENAI_API_KEY",
)


@pytest.fixture
def provider(monkeypatch):
    """A local OpenAI-compatible chat server (tests/chat_server.py) and no LLM settings from the
    environment. A test module that serves another API (embeddings) defines its own `provider`."""
    from chat_server import serve

    for var in LLM_ENVIRONMENT:
        monkeypatch.delenv(var, raising=False)
    with serve() as p:
        yield p
