"""A search answers from the store as it is now, whatever its indexes and caches hold: a record written
between two searches (by this session or by another connection) is found by the second, a permission or
clearance change, an expiry or a deletion applies to the very next search, and the heat a search adds is
seen by the next one. Hybrid Retrieve (BM25 + dense) on every backend."""

from __future__ import annotations

from datetime import timedelta

from memql import Memory
from word_hash_embedder import WordHashEmbedder

DIM = 32


def _ids(m: Memory, query: str) -> list[str]:
    result = m.retrieve(query, k=10)
    assert result.success, result.diagnostics
    return [row["id"] for row in result.data["rows"]]


def _fill(m: Memory) -> None:
    for i in range(30):  # enough rows that both sides rank more candidates than they return
        assert m.encode(f"note {i} about lunch and the weather").success


def test_a_record_written_between_two_searches_is_found(memory, new_location, clock):
    location = new_location()
    alice = memory(embedder=WordHashEmbedder(DIM))
    _fill(alice)
    first = alice.encode("budget review with the finance team").affected_ids[0]
    assert first in _ids(alice, "budget review")
    second = alice.encode("budget review moved to friday").affected_ids[0]
    assert {first, second} <= set(_ids(alice, "budget review"))
    # two connections to one store: each one's indexes catch up with what the other wrote
    one = Memory(location, tenant="t", actor="alice", clock=clock, embedder=WordHashEmbedder(DIM))
    other = Memory(location, tenant="t", actor="alice", clock=clock, embedder=WordHashEmbedder(DIM))
    try:
        _fill(one)
        before = _ids(one, "harbor lantern")  # builds this connection's indexes
        written = other.encode("the harbor lantern is lit").affected_ids[0]
        assert written not in before and _ids(one, "harbor lantern")[0] == written
    finally:
        other.close()
        one.close()


def test_a_permission_change_applies_to_the_next_search(memory):
    alice = memory(embedder=WordHashEmbedder(DIM))
    bob = memory(actor="bob", share=alice, embedder=WordHashEmbedder(DIM))
    _fill(alice)
    rid = alice.encode("salary review for the team", read_perm_level="team").affected_ids[0]
    assert rid in _ids(bob, "salary review")
    assert alice.update(rid, read_perm_level="private").success
    assert rid not in _ids(bob, "salary review")
    assert alice.update(rid, read_perm_level="public").success
    assert rid in _ids(bob, "salary review")


def test_clearance_expiry_and_deletion_apply_to_the_next_search(memory, clock):
    alice = memory(embedder=WordHashEmbedder(DIM))
    cleared = memory(share=alice, embedder=WordHashEmbedder(DIM), clearance="standard")
    _fill(alice)
    secret = alice.encode("passport number for the trip").affected_ids[0]
    brief = alice.encode("passport photo appointment", ttl="PT1H").affected_ids[0]
    assert {secret, brief} <= set(_ids(cleared, "passport"))
    assert alice.update(secret, sensitivity="sensitive").success
    assert secret not in _ids(cleared, "passport") and secret in _ids(alice, "passport")
    clock.advance(timedelta(hours=2))
    assert brief not in _ids(alice, "passport")
    assert alice.delete(secret).success
    assert not {secret, brief} & set(_ids(alice, "passport"))


def test_the_heat_of_a_search_is_seen_by_the_next_one(memory):
    alice = memory(embedder=WordHashEmbedder(DIM))
    _fill(alice)
    rid = alice.encode("garden plan for the spring").affected_ids[0]
    for visits in range(3):
        rows = alice.retrieve("garden plan", k=5, include=["id", "visits", "explain"]).data["rows"]
        row = next(r for r in rows if r["id"] == rid)
        assert row["explain"]["visits"] == visits == row["visits"]
