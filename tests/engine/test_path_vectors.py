"""One vector per text at a record's index paths, and the raw cosine (Retrieve `overrides.score`), on every
backend: a record with several index paths is scored by its best text; an update replaces its path
vectors; every read rule that hides a record hides it from a search that its path vectors match; a
signed cosine search returns negative cosines and records without a vector (unscored, last)."""

from __future__ import annotations

import hashlib
from typing import Any

import numpy as np
import pytest

from memql import Memory
from memql.lang import validate

DIM = 48


class WordEmbedder:
    """Each word a fixed pseudo-random direction; a text the normalised sum of its words' directions."""

    model = "word-direction-48"
    dimension = DIM

    def embed(self, texts):
        return [_direction(text).tolist() for text in texts]


def _direction(text: str) -> np.ndarray:
    v = np.zeros(DIM)
    for word in text.lower().split():
        seed = int.from_bytes(hashlib.blake2b(word.encode(), digest_size=8).digest(), "little")
        v += np.random.default_rng(seed).standard_normal(DIM)
    norm = np.linalg.norm(v)
    return v / norm if norm else v


def put(m: Memory, key: str, value: dict[str, Any], index: Any, **args: Any) -> str:
    program = {
        "op": "Encode",
        "args": {"payload": {"document": value}, "namespace": ["docs"], "key": key, "index": index, **args},
    }
    result = m.execute(program)
    assert result.success, result.diagnostics
    return result.data["id"]


def search(m: Memory, query: str | list[float], score: str | None = "cosine") -> dict[str, float | None]:
    """Key -> score of a dense-only search of the `docs` namespace."""
    overrides: dict[str, Any] = {"alpha": 1.0, "k": 10, "recency": 0.0, "heat": 0.0}
    if score is not None:
        overrides["score"] = score
    intent = {"vector": query} if isinstance(query, list) else {"query": query}
    result = m.execute(
        {
            "op": "Retrieve",
            "target": {
                "search": {"intent": intent, "overrides": overrides},
                "filter": {"namespace": ["docs"]},
            },
            "args": {"include": ["key", "score"]},
        }
    )
    assert result.success, result.diagnostics
    return {row["key"]: row["score"] for row in result.data["rows"]}


@pytest.fixture
def m(memory) -> Memory:
    return memory(embedder=WordEmbedder())


def test_a_record_with_several_index_paths_scores_its_best_text(m: Memory, db) -> None:
    fields = put(
        m, "fields", {"title": "alpaca", "body": "zebra crossing", "skip": "llama"}, ["title", "body"]
    )
    whole = put(m, "whole", {"title": "alpaca", "body": "zebra crossing"}, ["$"])
    plain = m.encode("alpaca zebra crossing").data["id"]
    record = db.record(m, fields)
    assert record.path_embeddings is not None and len(record.path_embeddings) == 2 * DIM * 4
    assert record.embedding is not None  # the texts joined: what the lexical index and a cache key hold
    assert db.record(m, whole).path_embeddings is None  # one path, one text: one vector
    assert db.record(m, plain).path_embeddings is None
    scores = search(m, "alpaca")
    assert scores["fields"] == pytest.approx(1.0, abs=1e-5)  # its title alone
    assert scores["whole"] < 0.9  # the whole document's JSON, one vector
    assert search(m, "zebra crossing")["fields"] == pytest.approx(1.0, abs=1e-5)
    assert search(m, "llama")["fields"] < 0.5  # an unindexed field has no vector
    assert plain in [r["id"] for r in m.retrieve("alpaca", k=5).data["rows"]]  # hybrid search still finds it


def test_an_update_replaces_the_path_vectors(m: Memory, db) -> None:
    record = put(m, "k", {"a": "alpaca", "b": "zebra"}, ["a", "b"])
    assert search(m, "alpaca")["k"] == pytest.approx(1.0, abs=1e-5)
    assert put(m, "k", {"a": "walrus", "b": "zebra"}, ["a", "b"]) == record  # the key's record, updated
    assert search(m, "walrus")["k"] == pytest.approx(1.0, abs=1e-5)
    assert search(m, "alpaca", score=None).get("k", 0.0) < 0.5  # the old text's vector is gone
    put(m, "k", {"a": "walrus", "b": "zebra"}, ["b"])  # one path now: one vector, of that text
    assert db.record(m, record).path_embeddings is None
    assert search(m, "zebra")["k"] == pytest.approx(1.0, abs=1e-5)
    assert search(m, "walrus", score=None).get("k", 0.0) < 0.5


def test_a_workflow_finds_the_path_vectors_it_wrote(m: Memory) -> None:
    encode = {
        "op": "Encode",
        "args": {
            "payload": {"document": {"a": "alpaca", "b": "zebra"}},
            "namespace": ["docs"],
            "key": "w",
            "index": ["a", "b"],
        },
    }
    overrides = {"alpha": 1.0, "score": "cosine"}
    retrieve = {
        "op": "Retrieve",
        "target": {"search": {"intent": {"query": "zebra"}, "overrides": overrides}},
        "args": {"include": ["key", "score"]},
    }
    result = m.execute({"workflow": [encode, retrieve]})
    assert result.success, result.diagnostics
    (row,) = result.steps[1].data["rows"]
    assert row["key"] == "w" and row["score"] == pytest.approx(1.0, abs=1e-5)


def test_the_cosine_score_is_signed_and_keeps_records_without_a_vector(m: Memory) -> None:
    put(m, "a", {"t": "alpaca"}, ["t"])
    put(m, "b", {"t": "alpaca", "u": "zebra"}, ["t", "u"])
    put(m, "none", {"t": "alpaca"}, False)  # no text: no vector
    opposite = (-_direction("alpaca")).tolist()
    scores = search(m, opposite)
    assert scores["a"] == pytest.approx(-1.0, abs=1e-5)
    assert -1.0 <= scores["b"] < 0.0 and scores["b"] > scores["a"]  # its best text, here the zebra one
    assert list(scores) == ["b", "a", "none"] and scores["none"] is None  # unscored, last
    assert search(m, opposite, score=None) == {}  # by default, no positive similarity is no match
    assert search(m, "alpaca", score=None)["a"] == pytest.approx(1.0, abs=1e-5)


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"score": "cosine"}, "overrides.alpha 1"),
        ({"score": "cosine", "alpha": 0.5}, "overrides.alpha 1"),
        ({"score": "cosine", "alpha": 1.0, "recency": 0.1}, "overrides.recency"),
        ({"score": "cosine", "alpha": 1.0, "heat": 0.2}, "overrides.heat"),
    ],
)
def test_a_cosine_score_needs_a_dense_only_unshaped_search(overrides: dict, message: str) -> None:
    program = {"op": "Retrieve", "target": {"search": {"intent": {"query": "x"}, "overrides": overrides}}}
    (diagnostic,) = validate(program).diagnostics
    assert diagnostic.rule == "search.score" and diagnostic.path == "/target/search"
    assert message in diagnostic.message and "overrides.score" in diagnostic.message


def test_a_score_kind_is_one_of_two() -> None:
    program = {
        "op": "Retrieve",
        "target": {"search": {"intent": {"vector": [1.0]}, "overrides": {"score": "raw"}}},
    }
    (diagnostic,) = validate(program).diagnostics
    assert diagnostic.rule == "field.enum" and diagnostic.path == "/target/search/overrides/score"
    ok = {
        "op": "Retrieve",
        "target": {"search": {"intent": {"vector": [1.0]}, "overrides": {"score": "cosine"}}},
    }
    assert validate(ok).valid


# --- governance: a path vector never shows a record the reader may not see ---------------------------


def _shared(memory) -> tuple[Memory, Memory]:
    alice = memory(actor="alice", embedder=WordEmbedder())
    return alice, memory(actor="bob", share=alice, embedder=WordEmbedder())


def test_path_vectors_respect_read_permissions(memory) -> None:
    alice, bob = _shared(memory)
    put(alice, "private", {"a": "alpaca", "b": "zebra"}, ["a", "b"], read_perm_level="private")
    put(alice, "public", {"a": "alpaca", "b": "walrus"}, ["a", "b"], read_perm_level="public")
    assert set(search(alice, "alpaca")) == {"private", "public"}
    assert set(search(bob, "alpaca")) == {"public"}
    assert set(search(bob, "zebra")) == {"public"}  # the private one's best path, and still hidden


def test_path_vectors_stay_in_their_tenant(memory) -> None:
    alice = memory(actor="alice", embedder=WordEmbedder())
    other = memory(tenant="other", actor="alice", share=alice, embedder=WordEmbedder())
    put(alice, "mine", {"a": "alpaca", "b": "zebra"}, ["a", "b"])
    assert search(other, "alpaca") == {}
    put(other, "theirs", {"a": "alpaca", "b": "zebra"}, ["a", "b"])
    assert set(search(other, "alpaca")) == {"theirs"} and set(search(alice, "alpaca")) == {"mine"}


def test_path_vectors_respect_clearance(memory) -> None:
    alice = memory(actor="alice", embedder=WordEmbedder())
    cleared = memory(actor="alice", share=alice, clearance="standard", embedder=WordEmbedder())
    put(alice, "secret", {"a": "alpaca", "b": "zebra"}, ["a", "b"], sensitivity="restricted")
    put(alice, "open", {"a": "alpaca", "b": "walrus"}, ["a", "b"])
    assert set(search(alice, "alpaca")) == {"secret", "open"}
    assert set(search(cleared, "alpaca")) == {"open"}


def test_an_agent_proposing_sees_only_its_proposals_by_path_vectors(memory) -> None:
    alice = memory(actor="alice", embedder=WordEmbedder())
    agent = memory(actor="helper", role="agent", share=alice, embedder=WordEmbedder())  # consent: propose
    put(alice, "alices", {"a": "alpaca", "b": "zebra"}, ["a", "b"], read_perm_level="public")
    proposal = {
        "op": "Encode",
        "args": {"payload": {"document": {"a": "alpaca", "b": "walrus"}}, "index": ["a", "b"]},
    }
    assert agent.execute(proposal).success
    result = agent.execute(
        {
            "op": "Retrieve",
            "target": {
                "search": {"intent": {"query": "alpaca"}, "overrides": {"alpha": 1.0, "score": "cosine"}},
                "filter": {"status": "any"},  # alice's public record too, were it readable
            },
            "args": {"include": ["structured", "status"]},
        }
    )
    assert result.success, result.diagnostics
    assert [(r["structured"]["b"], r["status"]) for r in result.data["rows"]] == [("walrus", "pending")]


def test_deleted_and_expired_records_leave_the_search(m: Memory, clock) -> None:
    from datetime import timedelta

    put(m, "deleted", {"a": "alpaca", "b": "zebra"}, ["a", "b"])
    put(m, "expiring", {"a": "alpaca", "b": "walrus"}, ["a", "b"], ttl="PT1H")
    put(m, "kept", {"a": "alpaca", "b": "otter"}, ["a", "b"])
    locked = put(m, "locked", {"a": "alpaca", "b": "heron"}, ["a", "b"])
    assert m.lock([locked]).success  # a lock guards writes, not reads: still found
    delete = {"op": "Delete", "target": {"filter": {"namespace": ["docs"], "key": "deleted"}}, "args": {}}
    assert m.execute(delete).success
    clock.advance(timedelta(hours=2))
    assert set(search(m, "alpaca")) == {"kept", "locked"}
    hard = {
        "op": "Delete",
        "target": {"filter": {"namespace": ["docs"], "key": "kept"}},
        "args": {"soft": False},
        "meta": {"confirmation": True},
    }
    assert m.execute(hard).success, "hard delete"
    assert set(search(m, "alpaca")) == {"locked"}


def test_an_update_of_the_text_leaves_one_vector_of_the_new_text(m: Memory, db) -> None:
    record = put(m, "k", {"a": "alpaca", "b": "zebra"}, ["a", "b"])
    update = {"op": "Update", "target": {"ids": [record]}, "args": {"set": {"text": "walrus heron"}}}
    assert m.execute(update).success
    assert db.record(m, record).path_embeddings is None  # the document's texts are no longer its text
    assert search(m, "walrus heron")["k"] == pytest.approx(1.0, abs=1e-5)
    assert search(m, "alpaca", score=None).get("k", 0.0) < 0.5
