"""The Store conformance suite (memql.testing.store) on every backend of the registry and every vector
index path: exact and HNSW, on SQLite and on PostgreSQL. The API keys and lexical sections run in
test_store_conformance_keys.py and test_store_conformance_lexical.py; what is particular to one backend
is in its own test module (and, for PostgreSQL's tokenizer, below)."""

from __future__ import annotations

import sqlite3

import pytest

from backends import BACKENDS, StoreFactory
from memql.services.tokenize import index_text
from memql.store.postgres.lexical import fts_tokens
from memql.testing.sample import DIM
from memql.testing.store import *  # noqa: F403  (the suite's tests and fixtures, collected here)
from memql.testing.vectors import *  # noqa: F403

# path -> (backend, vector index, whether its dense search is approximate)
PATHS = {
    "sqlite-exact": ("sqlite", "exact", False),
    "sqlite-hnsw": ("sqlite", "hnsw", True),  # usearch builds its graph on several threads
    "postgres-exact": ("postgres", "exact", False),
    "postgres-hnsw": ("postgres", "hnsw", False),  # held to the exact answer
}


@pytest.fixture(params=list(PATHS))
def store_factory(request: pytest.FixtureRequest, tmp_path) -> StoreFactory:
    backend, vector_index, approximate = PATHS[request.param]
    return StoreFactory(BACKENDS[backend], tmp_path, vector_index, DIM, approximate)


SAMPLES = [
    "hello world",
    "café2 łódź2 İstanbul",
    "Straße ǅemal",
    "机器学习 東京",
    "हिन्दी भाषा",
    "Москва 2024",
]


@pytest.mark.parametrize("text", SAMPLES)
def test_postgres_tokens_are_the_tokens_fts5_makes(text):
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE VIRTUAL TABLE f USING fts5(body, tokenize = 'unicode61 remove_diacritics 2')")
    conn.execute("CREATE VIRTUAL TABLE v USING fts5vocab(f, 'instance')")
    conn.execute("INSERT INTO f (body) VALUES (?)", (index_text(text),))
    want = [row[0] for row in conn.execute("SELECT term FROM v ORDER BY offset")]
    assert fts_tokens(index_text(text)) == want
