"""Deduplication never discards a field (issue 16, item 2; docs/engine.md, Encode): an identical Encode
returns an existing record only when the session may read it and it is the record the Encode would store
in every field a reader can filter on or that governs it — content, facets, tags (a set), type, memory
type, category, sensitivity, owner, agent and status, permissions, source, payload extras, time and
expiry. Weight and confidence are not compared. Anything else is another memory, stored as a new record."""

from __future__ import annotations

import pytest

TEXT = "I like pizza"


def test_the_same_words_about_two_users_are_two_memories(m, db):
    """The issue's example: Bob's facets and tags are not dropped for Alice's record."""
    first = m.encode(TEXT, facets={"user_id": "alice"}, tags=["food"])
    second = m.encode(TEXT, facets={"user_id": "bob"}, tags=["food", "bob"])
    assert first.data == {"id": "1"} and second.data == {"id": "2"}
    records = db.records(m)
    assert [(r.facets, sorted(r.tags)) for r in records.values()] == [
        ({"user_id": "alice"}, ["food"]),
        ({"user_id": "bob"}, ["bob", "food"]),
    ]
    found = m.retrieve(filter={"facets": {"user_id": "bob"}}, include=["id"])
    assert [row["id"] for row in found.data["rows"]] == ["2"]
    # each one is found again by its own repeat
    assert m.encode(TEXT, facets={"user_id": "bob"}, tags=["bob", "food"]).data == {
        "id": "2",
        "deduplicated": True,
    }
    assert m.encode(TEXT, facets={"user_id": "alice"}, tags=["food"]).data["id"] == "1"


BASE = {
    "tags": ["food"],
    "type": "note",
    "category": "a2p:preferences",
    "memory_type": "semantic",
    "source": "chat:1",
    "facets": {"topic": "dinner", "time": "2026-03-01T18:00:00Z"},
    "time": "2026-03-01T18:00:00Z",
    "expire_at": "2027-01-01T00:00:00Z",
    "read_perm_level": "team",
    "write_whitelist": ["bob", "carol"],
    "payload": {"context": "a chat"},
}


@pytest.mark.parametrize(
    "change",
    [
        {"tags": ["food", "italian"]},
        {"tags": []},
        {"type": "preference"},
        {"category": "a2p:interests"},
        {"memory_type": "episodic"},
        {"sensitivity": "sensitive"},
        {"source": "chat:2"},
        {"facets": {"topic": "lunch", "time": "2026-03-01T18:00:00Z"}},
        {"facets": {"topic": "dinner"}},
        {"time": "2026-03-02T18:00:00Z"},
        {"expire_at": "2027-02-01T00:00:00Z"},
        {"read_perm_level": "public"},
        {"write_perm_level": "owner_only"},
        {"write_whitelist": ["bob"]},
        {"read_blacklist": ["dave"]},
        {"payload": {"context": "an e-mail"}},
    ],
    ids=lambda change: "-".join(change),
)
def test_any_compared_difference_is_another_memory(m, db, change):
    assert m.encode(TEXT, **BASE).data == {"id": "1"}
    other = m.encode(TEXT, **{**BASE, **change})
    assert other.data == {"id": "2"}, change
    assert len(db.ids(m)) == 2
    assert db.record(m, "1").tags == ["food"]  # the first is untouched


def test_an_exact_repeat_returns_the_first_even_with_tags_in_another_order(m, db):
    assert m.encode(TEXT, **BASE).data == {"id": "1"}
    again = m.encode(TEXT, **{**BASE, "tags": ["food"], "write_whitelist": ["carol", "bob"]})
    assert again.data == {"id": "1", "deduplicated": True} and again.affected_ids == ["1"]
    assert db.ids(m) == ["1"]


def test_weight_and_confidence_are_not_compared_and_a_promoted_memory_still_deduplicates(m, db):
    m.encode(TEXT, tags=["food"], confidence=0.6)
    assert m.promote("1", weight=0.9).success
    again = m.encode(TEXT, tags=["food"], confidence=0.9, weight=0.2)
    assert again.data == {"id": "1", "deduplicated": True}
    record = db.record(m, "1")
    assert (record.weight, record.confidence) == (0.9, 0.6)  # returned untouched


def test_the_same_words_by_two_owners_are_two_memories(team, db):
    alice, bob = team["alice"], team["bob"]
    alice.encode(TEXT)  # public: bob may read it, but it is alice's memory
    assert bob.encode(TEXT).data == {"id": "2"}
    assert [db.record(alice, i).owner for i in ("1", "2")] == ["alice", "bob"]
    assert bob.encode(TEXT).data == {"id": "2", "deduplicated": True}


def test_the_first_readable_equal_candidate_is_returned(team, db):
    """An older record bob may not read does not hide bob's own identical one."""
    alice, bob = team["alice"], team["bob"]
    alice.encode(TEXT, read_perm_level="private")
    assert bob.encode(TEXT).data == {"id": "2"}
    assert bob.encode(TEXT).data == {"id": "2", "deduplicated": True}
    assert db.ids(alice) == ["1", "2"]


def test_the_oldest_equal_candidate_is_returned(m, db):
    m.encode(TEXT, tags=["a"])
    m.encode(TEXT, tags=["b"])
    m.encode(TEXT, tags=["b"], dedupe=False)
    assert m.encode(TEXT, tags=["b"]).data == {"id": "2", "deduplicated": True}


def test_a_proposal_matches_only_the_same_agents_pending_proposal(team, db):
    proposer, other = team["proposer"], team["other"]
    assert proposer.encode(TEXT).data == {"id": "1", "proposal": True}
    assert proposer.encode(TEXT).data == {"id": "1", "deduplicated": True, "proposal": True}
    assert other.encode(TEXT).data == {"id": "2", "proposal": True}  # another agent's: its own proposal
    assert team["alice"].encode(TEXT).data == {"id": "3"}  # a user's record is not a proposal
    assert team["alice"].encode(TEXT, proposal=True).data == {"id": "4", "proposal": True}
    assert [db.record(team["alice"], i).status for i in ("1", "2", "3", "4")] == [
        "pending",
        "pending",
        "active",
        "pending",
    ]


@pytest.fixture
def team(memory):
    alice = memory(actor="alice")
    return {
        "alice": alice,
        "bob": memory(actor="bob", share=alice),
        "proposer": memory(actor="bot", role="agent", consent="propose", share=alice),
        "other": memory(actor="bot2", role="agent", consent="propose", share=alice),
    }
