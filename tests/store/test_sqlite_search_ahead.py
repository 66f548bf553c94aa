"""A hybrid search on an HNSW store looks its graph up on the side thread while its lexical side runs
(memql.ports.store.SearchAhead): the answer is the one the search gives without looking ahead, a lookup
of another vector, tenant or graph is never used, and governance applies as on every search."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

from memql import Memory
from memql.lang import build
from memql.ports.clock import FixedClock
from memql.ports.store import RecordQuery
from memql.store.sqlite import SQLiteStore
from memql.store.sqlite import vectors as module
from memql.testing.sample import MODEL, put, unit
from word_hash_embedder import WordHashEmbedder

WORDS = ["harbor", "lantern", "budget", "review", "weather", "lunch"]
WORDS += ["garden", "river", "meeting", "ticket", "salary", "train"]


@pytest.fixture
def used(monkeypatch) -> list[bool]:
    """Whether each lookup made ahead was the one its search used."""
    found, out = module.Ahead.found, []

    def spy(self, *args):
        result = found(self, *args)
        out.append(result is not None)
        return result

    monkeypatch.setattr(module.Ahead, "found", spy)
    return out


def _graph_store(path, rng) -> SQLiteStore:
    store = SQLiteStore(str(path), vector_index="hnsw")
    with store.transaction() as s:
        for i in range(300):
            put(s, "A", f"a{i}", unit(rng), tags=[f"t{i % 5}"])
        for _ in range(300):
            put(s, "B", "b", unit(rng))
    for tenant in ("A", "B"):
        with store.transaction() as s:
            s.dense(tenant, unit(rng), RecordQuery(), 1, MODEL)
    store.vectors.wait()  # a graph each
    return store


def test_a_dense_search_uses_only_the_lookup_made_for_it(tmp_path, used):
    rng = np.random.default_rng(5)
    store = _graph_store(tmp_path / "a.db", rng)
    q, other = unit(rng), unit(rng)
    filters = [RecordQuery(statuses=("active",)), RecordQuery(has_tags=["t2"])]

    def dense(tenant, f, ahead_of=None):
        with store.read() as s:
            if ahead_of is not None:
                s.dense_ahead(*ahead_of)
            return [(c.id, c.score) for c in s.dense_candidates(tenant, q, f, 50, MODEL)]

    for f in filters:
        plain = dense("A", f)
        assert used == []
        assert dense("A", f, ("A", q, 50, MODEL)) == plain and used.pop() is True
        assert dense("A", f, ("A", other, 50, MODEL)) == plain and used.pop() is False  # another vector
        assert dense("A", f, ("A", q, 10, MODEL)) == plain and used.pop() is False  # another window
        b = dense("B", f)
        assert dense("B", f, ("A", q, 50, MODEL)) == b and used.pop() is False  # another tenant's graph
        assert all(int(rid) > 300 for rid, _ in b)  # tenant B's own records only
    with store.read() as s:  # a lookup no search asks for is dropped with the session
        s.dense_ahead("A", q, 50, MODEL)
    assert used == []
    with store.read() as s:  # a search without a graph window (k too large) makes no lookup
        s.dense_ahead("A", q, 5_000, MODEL)
        assert s.ahead is None
    store.close()


def test_a_graph_published_after_the_lookup_is_searched_again(tmp_path, used):
    rng = np.random.default_rng(6)
    store = _graph_store(tmp_path / "g.db", rng)
    q = unit(rng)
    with store.read() as s:
        s.dense_ahead("A", q, 50, MODEL)
        cache = store.vectors.caches[("A", MODEL)]
        cache.graph = cache.graph.copy()  # as a build publishes a new graph
        hits = s.dense_candidates("A", q, RecordQuery(), 50, MODEL)
    assert used == [False]
    with store.read() as s:
        assert [c.id for c in s.dense_candidates("A", q, RecordQuery(), 50, MODEL)] == [c.id for c in hits]
    store.close()


START = datetime(2026, 3, 4, 10, 0, tzinfo=UTC)


def _memory(store: SQLiteStore, actor: str, clock: FixedClock) -> Memory:
    return Memory(store, tenant="t", actor=actor, clock=clock, embedder=WordHashEmbedder(32))


def _fill(m: Memory, rng) -> None:
    items = []
    for i in range(400):
        words = " ".join(rng.choice(WORDS, size=4))
        fields: dict = {"read_perm_level": "private" if i % 7 == 0 else "team"}
        if i % 11 == 0:
            fields["ttl"] = "PT1H"
        items.append(build.encode(f"note {i}: {words}", tags=[f"t{i % 3}"], **fields))
    assert m.encode_many(items).success  # one transaction: one graph of them all


def _hidden_from_others(text: str) -> bool:
    i = int(text.split(":")[0].removeprefix("note "))
    return i % 7 == 0 or i % 11 == 0


def test_hybrid_retrieve_answers_the_same_with_the_lookup_ahead(tmp_path, used):
    """Two stores written alike, one searching ahead: every Retrieve (heat included, which each one
    changes for the next) answers the same rows and scores; another actor never sees the private
    records, and no one the expired ones."""
    answers = []
    for ahead in (True, False):
        rng, clock = np.random.default_rng(9), FixedClock(START)
        store = SQLiteStore(str(tmp_path / f"{ahead}.db"), vector_index="hnsw")
        if not ahead:
            store.vectors.ahead = lambda *args: None  # type: ignore[method-assign]
        owner, reader = _memory(store, "alice", clock), _memory(store, "bob", clock)
        _fill(owner, rng)
        assert owner.retrieve("harbor lantern", k=5).success
        store.vectors.wait()  # the graph, built in the background
        assert len(store.vectors.caches[("t", "word-hash-32")].graph) == 400
        clock.advance(timedelta(hours=2))  # past the short-lived records' time to live
        rows = []
        for i, m in enumerate([owner, reader] * 6):
            query = " ".join(rng.choice(WORDS, size=2))
            result = m.retrieve(query, k=10, filter={"has_tags": ["t1"]} if i % 4 == 0 else None)
            assert result.success, result.diagnostics
            found = [(r["id"], r["score"], r["text"]) for r in result.data["rows"]]
            assert found
            if m is reader:
                assert not any(_hidden_from_others(text) for _, _, text in found)
            assert not any(int(text.split(":")[0][5:]) % 11 == 0 for _, _, text in found)
            rows.append(found)
        answers.append(rows)
        store.close()
    assert any(used) and answers[0] == answers[1]
