"""The governance read-path properties (test_governance_read_paths, against the oracle of docs/engine.md)
again, with every fast read path a large store takes forced on the generated small ones: a search's
lexical side from the in-process BM25 postings index (SQLite and PostgreSQL), its dense side from an
HNSW graph (SQLite; on PostgreSQL the query for pgvector's HNSW index, with its iterative scan), its
conditions checked from the governance copy (SQLite: loaded at a shape's first check, not once its SQL
checks have seen as many candidates as the store has records). Each path answers by its own code -- the
default small stores of the read-path tests reach none of the first three -- and the
properties are the same: nothing the caller may not read comes back by any path, and every live record
the caller may read does.

Every example adds a tenant to one store, so the indexes grow under the searches as a busy store's do
(the postings index is prepared by a thread, the graph built in the background: a search answers
meanwhile by FTS5 or exact ranking, then by the index once it is there)."""

from __future__ import annotations

import pytest
import test_governance_read_paths as read_paths

from memql import Memory
from memql.store.sqlite import governed

# the same properties, run here on the fast-path store below (the `base` fixture of this module)
test_every_engine_read_path_shows_only_what_the_caller_may_read = (
    read_paths.test_every_engine_read_path_shows_only_what_the_caller_may_read
)
test_typed_facts_show_only_readable_facts_now_as_of_and_recorded_at = (
    read_paths.test_typed_facts_show_only_readable_facts_now_as_of_and_recorded_at
)
test_rest_mcp_and_the_dashboard_show_only_what_the_caller_may_read = (
    read_paths.test_rest_mcp_and_the_dashboard_show_only_what_the_caller_may_read
)
site = read_paths.site


@pytest.fixture
def base(backend, new_location, clock, monkeypatch):
    """One store for every example of a test, every fast read path on."""
    monkeypatch.setattr(governed, "_records", lambda conn: 0)  # a shape's copy loaded at its first check
    if backend == "sqlite":
        from memql.store.sqlite import SQLiteStore

        store = SQLiteStore(new_location(), vector_index="hnsw", lexical_index="postings")
    else:
        from memql.store.postgres import PostgresStore

        store = PostgresStore(new_location(), lexical_index="postings")
        store.ensure_vector_index(16)  # (tests/governance_oracle.py's HashedWords)
    m = Memory(store, tenant="t", actor="alice", clock=clock, embedder="none")
    yield m
    m.close()
    store.close()  # (a Memory leaves a store it was given open)
