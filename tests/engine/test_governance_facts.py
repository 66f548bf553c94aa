"""Typed facts respect permissions (issue 16, item 1; docs/engine.md, Typed facts): an Encode of a fact
knows its key's whole history, and is refused (`permission.fact`, before anything changes) when it would
touch a fact the session may not read or may not write — close it, extend it, add evidence to it, return
it as a repeat, or end the new fact's window at its start. The refusal names the key and who may record
it, never the hidden value or id. The facts read API shows only facts the session may read."""

from __future__ import annotations

from datetime import timedelta

import pytest

PARIS = {"subject": "alice", "attribute": "city", "value": "Paris"}


def fact(value: str, **more) -> dict:
    return {**PARIS, "value": value, **more}


@pytest.fixture
def team(memory):
    """alice owns the facts; bob is another user of the tenant; a read_write agent (standard clearance)."""
    alice = memory(actor="alice")
    return {
        "alice": alice,
        "bob": memory(actor="bob", share=alice),
        "admin": memory(actor="root", role="admin", share=alice),
        "writer": memory(actor="bot", role="agent", consent="read_write", share=alice),
        "cleared": memory(
            actor="bot", role="agent", consent="read_write", clearance="restricted", share=alice
        ),
    }


def _refused(result, *hidden: str) -> str:
    """The result is a permission.fact refusal at the fact's payload that reveals none of `hidden`."""
    assert not result.success and [d.rule for d in result.diagnostics] == ["permission.fact"]
    diagnostic = result.diagnostics[0]
    assert diagnostic.path == "/args/payload/structured"
    assert result.data == {} and result.affected_ids == []
    for secret in hidden:
        assert secret not in diagnostic.message
    assert "alice/city" in diagnostic.message and "admin" in diagnostic.message
    return diagnostic.message


def _untouched(db, alice, events: int) -> None:
    """alice's fact 1 is the only record, still current, with no link and no event added."""
    assert db.ids(alice) == ["1"]
    record = db.record(alice, "1")
    assert (record.value, record.valid_to, record.status) == ("Paris", None, "active")
    assert db.links(alice) == set()
    assert len(alice.history("1")) == events


def test_a_user_cannot_close_an_owner_only_fact(team, db, clock):
    alice, bob = team["alice"], team["bob"]
    alice.encode(structured=fact("Paris"), write_perm_level="owner_only")
    clock.advance(timedelta(days=1))
    message = _refused(bob.encode(structured=fact("Lyon")))
    assert "its owner (alice) or an admin" in message
    _untouched(db, alice, 1)
    assert [v.value for v in alice.facts.get("alice", "city").facts] == ["Paris"]
    assert [f.value for f in bob.facts.get("alice", "city").facts] == ["Paris"]  # readable, still current


def test_a_user_cannot_slot_an_older_value_before_an_owner_only_fact(team, db):
    """A late older value does not change alice's record, but alice's fact would end its window (and be
    re-linked to it): that is a write to alice's history too."""
    alice, bob = team["alice"], team["bob"]
    alice.encode(structured=fact("Paris", valid_from="2026-02-01T00:00:00Z"), write_perm_level="owner_only")
    _refused(bob.encode(structured=fact("Lyon", valid_from="2025-06-01T00:00:00Z")))
    _untouched(db, alice, 1)


def test_a_user_cannot_add_evidence_to_or_repeat_an_owner_only_fact(team, db, clock):
    alice, bob = team["alice"], team["bob"]
    alice.encode(structured=fact("Paris", source="e1"), write_perm_level="owner_only")
    start = db.record(alice, "1").evidence[0]["valid_from"]
    clock.advance(timedelta(days=1))
    _refused(bob.encode(structured=fact("Paris", source="e2")))  # would join its evidence
    _refused(bob.encode(structured=fact("Paris", valid_from=start)))  # exactly asserted: a repeat
    _untouched(db, alice, 1)
    assert [e["source"] for e in db.record(alice, "1").evidence] == ["e1"]


def test_a_private_fact_is_neither_confirmed_nor_closed_by_another_user(team, db, clock):
    alice, bob = team["alice"], team["bob"]
    alice.encode(structured=fact("Paris"), read_perm_level="private")
    start = db.record(alice, "1").valid_from
    clock.advance(timedelta(days=1))
    _refused(bob.encode(structured=fact("Paris", valid_from=start.isoformat())), "Paris", "record 1")
    _refused(bob.encode(structured=fact("Paris")), "Paris", "record 1")  # confirming the value: refused
    _refused(bob.encode(structured=fact("Lyon")), "Paris", "record 1")  # closing it: refused
    _untouched(db, alice, 1)
    assert bob.facts.get("alice", "city").facts == []


def test_a_standard_clearance_agent_cannot_close_a_restricted_fact(team, db, clock):
    alice, writer = team["alice"], team["writer"]
    alice.encode(structured=fact("Paris"), sensitivity="restricted")
    clock.advance(timedelta(days=1))
    _refused(writer.encode(structured=fact("Lyon")), "Paris", "record 1")
    _untouched(db, alice, 1)  # no second "current" value
    assert writer.facts.get("alice", "city").facts == []
    # cleared for restricted records (the write level is open), the agent closes it as anyone would
    assert team["cleared"].encode(structured=fact("Lyon")).data == {"id": "2", "closed": ["1"]}


def test_a_readable_writable_fact_is_closed_as_before(team, db, clock, t0):
    """The default write level is open: another user's newer value closes alice's fact in the same op."""
    alice, bob = team["alice"], team["bob"]
    alice.encode(structured=fact("Paris"))
    clock.advance(timedelta(days=1))
    assert bob.encode(structured=fact("Lyon")).data == {"id": "2", "closed": ["1"]}
    assert db.record(alice, "1").valid_to == t0 + timedelta(days=1)
    assert db.links(alice) == {("2", "1", "supersedes")}
    assert [(f.value, f.valid_to is None) for f in alice.facts.history("alice", "city").facts] == [
        ("Paris", False),
        ("Lyon", True),
    ]


def test_facts_the_encode_does_not_touch_do_not_matter(team, db, clock):
    """alice's owner_only Paris is closed (by alice); bob's newer value closes only the open Lyon."""
    alice, bob = team["alice"], team["bob"]
    alice.encode(structured=fact("Paris", valid_from="2026-01-01T00:00:00Z"), write_perm_level="owner_only")
    alice.encode(structured=fact("Lyon", valid_from="2026-02-01T00:00:00Z"))
    assert bob.encode(structured=fact("Rome")).data == {"id": "3", "closed": ["2"]}
    assert db.links(alice) == {("2", "1", "supersedes"), ("3", "2", "supersedes")}


def test_an_admin_may_record_over_an_owner_only_private_fact(team, db, clock):
    alice, admin = team["alice"], team["admin"]
    alice.encode(structured=fact("Paris"), write_perm_level="owner_only", read_perm_level="private")
    clock.advance(timedelta(days=1))
    assert admin.encode(structured=fact("Lyon")).data == {"id": "2", "closed": ["1"]}
    clock.advance(timedelta(days=1))
    assert alice.encode(structured=fact("Rome")).data == {"id": "3", "closed": ["2"]}  # the admin's: open


def test_the_facts_read_api_shows_only_facts_the_session_may_read(team, clock):
    """alice's private Lyon sits between two public values (an admin recorded it in her history): bob's
    current / as_of / recorded_at / history reads never show it."""
    alice, bob, admin = team["alice"], team["bob"], team["admin"]
    alice.encode(structured=fact("Paris", valid_from="2026-01-01T00:00:00Z"))
    alice.encode(structured=fact("Lyon", valid_from="2026-02-01T00:00:00Z"), read_perm_level="private")
    admin.encode(structured=fact("Rome", valid_from="2026-03-01T00:00:00Z"))
    seen = [f.value for f in alice.facts.history("alice", "city").facts]
    assert seen == ["Paris", "Lyon", "Rome"]
    assert [f.value for f in bob.facts.history("alice", "city").facts] == ["Paris", "Rome"]
    assert [f.value for f in bob.facts.history("alice", "city", recorded_at=clock.now()).facts] == [
        "Paris",
        "Rome",
    ]
    assert bob.facts.get("alice", "city", as_of="2026-02-15T00:00:00Z").facts == []
    assert [f.value for f in alice.facts.get("alice", "city", as_of="2026-02-15T00:00:00Z").facts] == ["Lyon"]
    assert [f.value for f in bob.facts.get("alice", "city").facts] == ["Rome"]
    assert bob.facts.get("alice", "city", as_of="2026-02-15T00:00:00Z", recorded_at=clock.now()).facts == []


def test_a_refused_fact_rolls_back_its_whole_workflow(team, db, clock):
    """The refusal names the step; the workflow's earlier steps are not kept either."""
    alice, bob = team["alice"], team["bob"]
    alice.encode(structured=fact("Paris"), write_perm_level="owner_only")
    clock.advance(timedelta(days=1))
    note = {"op": "Encode", "args": {"payload": {"text": "alice moved"}}}
    moved = {"op": "Encode", "args": {"payload": {"structured": fact("Lyon")}}}
    result = bob.execute({"workflow": [note, moved]})
    assert not result.success and result.failed_step == 1
    assert [d.rule for d in result.diagnostics] == ["permission.fact"]
    assert result.diagnostics[0].path == "/workflow/1/args/payload/structured"
    _untouched(db, alice, 1)
