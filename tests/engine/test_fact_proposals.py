"""A typed fact proposed by an agent below read_write consent (issue 17, item 2): pending, outside its key's
history, until a user approves it — then placed as its Encode would have been — on both backends."""

from __future__ import annotations

from datetime import timedelta

import pytest


def city(value, valid_from):
    return {"subject": "mira", "attribute": "city", "value": value, "valid_from": valid_from}


def values(m):
    """(value, valid_from, valid_to) of the key's history as its reader sees it."""
    day = lambda t: t.date().isoformat() if t is not None else ""  # noqa: E731
    return [(f.value, day(f.valid_from), day(f.valid_to)) for f in m.facts.history("mira", "city").facts]


@pytest.fixture
def people(memory):
    alice = memory(actor="alice")
    return {
        "alice": alice,
        "bob": memory(actor="bob", share=alice),
        "bot": memory(actor="bot", role="agent", share=alice),  # consent: propose
    }


def test_a_proposed_fact_stays_out_of_the_history_until_approved(people, db):
    alice, bot = people["alice"], people["bot"]
    assert alice.encode(structured=city("Lisbon", "2026-01-01")).success
    proposed = bot.encode(structured=city("Porto", "2026-03-01"))
    assert proposed.success and proposed.data == {"id": "2", "proposal": True}
    pending = db.record(alice, "2")
    assert (pending.status, pending.owner, pending.agent) == ("pending", None, "bot")
    assert (pending.subject, pending.attribute, pending.value) == ("mira", "city", "Porto")
    assert values(alice) == [("Lisbon", "2026-01-01", "")]  # still the current value
    assert alice.facts.get("mira", "city").facts[0].value == "Lisbon"

    approved = alice.proposals.approve("2")
    assert approved.success, approved.diagnostics
    assert values(alice) == [("Lisbon", "2026-01-01", "2026-03-01"), ("Porto", "2026-03-01", "")]
    record = db.record(alice, "2")  # the proposal itself became the fact: same id, owned by its approver
    assert (record.status, record.owner, record.agent) == ("active", "alice", "bot")
    assert ("2", "1", "supersedes") in db.links(alice, "2")


def test_an_older_proposed_value_slots_into_the_past(people):
    alice, bot = people["alice"], people["bot"]
    alice.encode(structured=city("Lisbon", "2026-01-01"))
    alice.encode(structured=city("Madrid", "2026-06-01"))
    bot.encode(structured=city("Porto", "2026-03-01"))
    assert alice.proposals.approve("3").success
    assert values(alice) == [
        ("Lisbon", "2026-01-01", "2026-03-01"),
        ("Porto", "2026-03-01", "2026-06-01"),
        ("Madrid", "2026-06-01", ""),
    ]


def test_a_proposal_of_the_value_already_held_is_folded_into_that_fact(people, db):
    alice, bot = people["alice"], people["bot"]
    alice.encode(structured=city("Lisbon", "2026-01-01"))
    bot.encode(structured=city("Lisbon", "2026-02-01"))
    assert alice.proposals.approve("2").success
    assert values(alice) == [("Lisbon", "2026-01-01", "")]  # one fact per value
    assert db.record(alice, "2").status == "deleted"
    assert ("2", "1", "merged_into") in db.links(alice, "2")
    assert [e["valid_from"][:10] for e in db.record(alice, "1").evidence] == ["2026-01-01", "2026-02-01"]


def test_a_rejected_fact_never_enters_the_history(people):
    alice, bot = people["alice"], people["bot"]
    alice.encode(structured=city("Lisbon", "2026-01-01"))
    bot.encode(structured=city("Porto", "2026-03-01"))
    assert alice.proposals.reject("2").success
    assert values(alice) == [("Lisbon", "2026-01-01", "")]


def test_approving_is_refused_when_a_lock_forbids_the_closing_and_nothing_changes(people, db):
    alice, bot = people["alice"], people["bot"]
    alice.encode(structured=city("Lisbon", "2026-01-01"))
    assert alice.lock("1").success
    bot.encode(structured=city("Porto", "2026-03-01"))
    refused = alice.proposals.approve("2")
    assert not refused.success
    ((rule, path),) = [(d.rule, d.path) for d in refused.diagnostics]
    assert rule.startswith("governance.") and path == "/args/set/status"
    assert db.record(alice, "2").status == "pending"  # the whole approval rolled back
    assert values(alice) == [("Lisbon", "2026-01-01", "")]


def test_approving_is_refused_when_the_approver_may_not_change_the_current_fact(people, db):
    alice, bob, bot = people["alice"], people["bob"], people["bot"]
    alice.encode(structured=city("Lisbon", "2026-01-01"), write_perm_level="owner_only")
    bot.encode(structured=city("Porto", "2026-03-01"))
    refused = bob.proposals.approve("2")
    assert [(d.rule, d.path) for d in refused.diagnostics] == [("permission.fact", "/args/set/status")]
    assert "Lisbon" not in str(refused.diagnostics)
    assert db.record(alice, "2").status == "pending"
    assert alice.proposals.approve("2").success  # its owner may
    assert values(alice)[-1] == ("Porto", "2026-03-01", "")


def test_an_expired_proposed_fact_never_enters_the_history(people, clock):
    alice, bot = people["alice"], people["bot"]
    alice.encode(structured=city("Lisbon", "2026-01-01"))
    bot.encode(structured=city("Porto", "2026-03-01"), expire_at=clock.now() + timedelta(hours=1))
    clock.advance(timedelta(hours=2))
    alice.sweep()
    assert alice.proposals.approve("2").affected_ids == []  # an expired proposal is no target
    assert values(alice) == [("Lisbon", "2026-01-01", "")]
