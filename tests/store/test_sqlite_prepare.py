"""Opening a Memory on a SQLite store opens what its first search reads (SQLiteStore.prepare): the vector
snapshots and the lexical snapshot beside the file are mapped before the first search, and nothing is
built -- the first search then costs what the next ones do."""

from __future__ import annotations

import sys

from memql import Memory
from memql.store.sqlite import lexical, vector_cache
from memql.store.sqlite.pages import _mapped_ranges
from word_hash_embedder import WordHashEmbedder

DIM = 16


def test_a_memory_opened_on_a_store_opens_its_snapshots_before_its_first_search(tmp_path, monkeypatch):
    monkeypatch.setattr(vector_cache, "ANN_MIN_VECTORS", 40)
    monkeypatch.setattr(vector_cache, "EXACT_SNAPSHOT_MIN", 10)
    monkeypatch.setattr(lexical, "POSTINGS_MIN_RECORDS", 20)
    path = str(tmp_path / "m.db")
    loader = Memory(path, tenant="t", embedder=WordHashEmbedder(DIM))
    for i in range(60):
        assert loader.encode(f"note {i} about lunch and weather w{i % 7}").success
    loader.store.vectors.wait()
    loader.store.lexical.wait()
    loader.store.close()
    m = Memory(path, tenant="t", embedder=WordHashEmbedder(DIM))
    cache = m.store.vectors.caches[("t", WordHashEmbedder(DIM).model)]
    assert cache.opened and cache.graph is not None and cache.builder is None  # mapped, nothing built
    assert m.store.lexical.answering == "postings" and m.store.lexical.preparing is None
    if sys.platform.startswith("linux"):  # the snapshots' pages were mapped in, and the opener waited
        (graph,) = (tmp_path / "m.db.vectors").glob("*.usearch")
        (postings,) = (tmp_path / "m.db.lexical").glob("*.postings")
        assert _mapped_ranges(graph) and _mapped_ranges(postings)
        assert cache.populating.threads == [] and m.store.lexical.populating.threads == []
    rows = m.retrieve("lunch w3", k=5).data["rows"]
    assert len(rows) == 5 and all("w3" in r["text"] for r in rows[:3])
    m.store.close()
    plain = Memory(path, tenant="t", embedder="none")  # no model: the lexical snapshot alone
    assert plain.store.vectors.caches == {} and plain.store.lexical.answering == "postings"
    plain.store.close()
