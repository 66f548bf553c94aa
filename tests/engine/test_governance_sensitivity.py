"""Sensitivity and category are read governance (issue 16, item 4; docs/engine.md, Permissions): only the
owner or an admin may lower a record's sensitivity, directly or by a category whose sensitivity floor is
lower; on an ownerless record, also the tenant's users. Raising stays open to whoever may write."""

from __future__ import annotations

import pytest

from memql.cognition.profile.consolidation import reclassify


def _rules(result) -> list[str]:
    return [d.rule for d in result.diagnostics]


def _ids(result) -> list[str]:
    assert result.success, result.diagnostics
    return [row["id"] for row in result.data["rows"]]


@pytest.fixture
def team(memory):
    """alice owns the records; bob (user) and a read_write agent may write them (write level open)."""
    alice = memory(actor="alice")
    return {
        "alice": alice,
        "bob": memory(actor="bob", share=alice),
        "admin": memory(actor="root", role="admin", share=alice),
        "writer": memory(
            actor="bot", role="agent", consent="read_write", clearance="restricted", share=alice
        ),
        "agent": memory(actor="bot", role="agent", consent="read", share=alice),  # standard clearance
    }


@pytest.mark.parametrize("who", ["bob", "writer"])
def test_a_non_owner_cannot_lower_the_sensitivity_and_nothing_changes(team, db, who):
    alice = team["alice"]
    alice.encode("salary negotiation notes", sensitivity="restricted")
    refused = team[who].update("1", sensitivity="standard", text="edited")
    assert _rules(refused) == ["permission.owner"]
    assert refused.diagnostics[0].path == "/args/set"
    assert "may lower its sensitivity" in refused.diagnostics[0].message
    record = db.record(alice, "1")
    assert (record.sensitivity, record.text) == ("restricted", "salary negotiation notes")
    # a standard-clearance agent still cannot see it
    assert _ids(team["agent"].retrieve(filter={})) == []
    assert _ids(team["agent"].retrieve(ids=["1"])) == []


def test_a_non_owner_cannot_move_a_record_to_a_category_with_a_lower_floor(team, db):
    alice, bob = team["alice"], team["bob"]
    alice.encode("blood test on Friday", category="a2p:health")
    assert db.record(alice, "1").sensitivity == "restricted"
    for fields in (
        {"category": "a2p:preferences"},
        {"category": "a2p:relationships"},
        {"category": "a2p:preferences", "sensitivity": "standard"},
    ):
        refused = bob.update("1", **fields)
        assert _rules(refused) == ["permission.owner"], fields
        assert "lower its" in refused.diagnostics[0].message
        record = db.record(alice, "1")
        assert (record.category, record.sensitivity) == ("a2p:health", "restricted")
    # the a2p reclassify workflow is an Update: the same rule
    assert _rules(reclassify(bob.executor, "1", category="a2p:preferences")) == ["permission.owner"]
    assert db.record(alice, "1").category == "a2p:health"
    assert _ids(team["agent"].retrieve(filter={})) == []


def test_the_owner_and_an_admin_may_lower(team, db):
    alice, admin = team["alice"], team["admin"]
    alice.encode("blood test on Friday", category="a2p:health")
    alice.encode("old diary", sensitivity="restricted")
    assert admin.update("1", category="a2p:preferences", sensitivity="standard").success
    assert alice.update("2", sensitivity="sensitive").success
    assert admin.update("2", sensitivity="standard").success
    assert [(r.category, r.sensitivity) for r in (db.record(alice, "1"), db.record(alice, "2"))] == [
        ("a2p:preferences", "standard"),
        (None, "standard"),
    ]
    alice.encode("payslip", category="a2p:financial")
    assert reclassify(alice.executor, "3", category="a2p:preferences").success
    assert db.record(alice, "3").category == "a2p:preferences"


def test_a_non_owner_may_raise_and_keep(team, db):
    alice, bob = team["alice"], team["bob"]
    alice.encode("a note")
    assert bob.update("1", sensitivity="sensitive").success
    assert bob.update("1", category="a2p:health").success  # a higher floor raises the sensitivity
    record = db.record(alice, "1")
    assert (record.category, record.sensitivity) == ("a2p:health", "restricted")
    assert bob.update("1", category="a2p:financial").success  # the same floor: not lowered
    # a sensitivity below the category's is raised back to it, with a warning: nothing is lowered
    kept = bob.update("1", sensitivity="standard")
    assert kept.success and [w.rule for w in kept.warnings] == ["category.sensitivity"]
    assert db.record(alice, "1").sensitivity == "restricted"
    assert bob.update("1", text="a note, edited").success  # the content: anyone who may write
    assert _ids(team["agent"].retrieve(filter={})) == []


def test_on_an_ownerless_record_users_may_lower_and_agents_may_not(memory, db):
    anon = memory(actor=None)
    anon.encode("found note", sensitivity="restricted")
    writer = memory(actor="bot", role="agent", consent="read_write", clearance="restricted", share=anon)
    assert _rules(writer.update("1", sensitivity="standard")) == ["permission.owner"]
    assert db.record(anon, "1").sensitivity == "restricted"
    assert memory(actor="bob", share=anon).update("1", sensitivity="standard").success
    assert db.record(anon, "1").sensitivity == "standard"
