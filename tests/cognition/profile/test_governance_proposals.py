"""Proposals (a2p): an agent proposes, a user approves (optionally with edits), rejects, or lets it
expire — every transition audited with who did it — on both backends."""

from __future__ import annotations

from datetime import timedelta

import pytest


def _ids(result) -> list[str]:
    assert result.success, result.diagnostics
    return [row["id"] for row in result.data["rows"]]


def _rules(result) -> list[str]:
    return [d.rule for d in result.diagnostics]


def _steps(m, record_id: str) -> list[tuple[str | None, str | None]]:
    return [(h["actor"], h["proposal"]) for h in m.history(record_id)]


@pytest.fixture
def people(memory):
    alice = memory(actor="alice")
    return {
        "alice": alice,
        "bob": memory(actor="bob", share=alice),
        "bot": memory(actor="bot", role="agent", share=alice),  # consent: propose
        "other": memory(actor="other-bot", role="agent", consent="read_write", share=alice),
    }


def test_an_agent_below_read_write_proposes(people, db):
    result = people["bot"].encode("alice prefers window seats", category="a2p:preferences")
    assert result.success and result.data == {"id": "1", "proposal": True}
    record = db.record(people["alice"], "1")
    assert (record.status, record.owner, record.agent) == ("pending", None, "bot")
    reader = people["alice"]
    assert _ids(reader.retrieve(filter={})) == []  # out of default reads
    assert _ids(reader.proposals.list()) == ["1"]
    assert people["alice"].proposals.list().data["rows"][0]["agent"] == "bot"


def test_a_proposal_is_never_returned_to_another_agent(people):
    people["bot"].encode("alice is vegetarian")
    other = people["other"]
    assert _ids(other.proposals.list()) == []
    assert _ids(other.retrieve(filter={"status": "any"})) == []
    assert _ids(other.retrieve("vegetarian", filter={"status": "pending"})) == []
    assert other.update("1", text="changed").affected_ids == []  # as if absent
    assert _ids(people["bot"].proposals.list()) == ["1"]  # its own


def test_a_proposer_sees_only_its_own_proposals_and_never_the_memory(people):
    people["alice"].encode("alice's flight is on Monday")
    people["other"].proposals.propose("alice likes jazz")
    people["bot"].encode("alice likes tea")
    assert _ids(people["bot"].retrieve(filter={"status": "any"})) == ["3"]
    assert _ids(people["bot"].retrieve("alice")) == []  # pending: not in a default read


def test_approve(people, db):
    people["bot"].encode("alice's passport expires in June")
    approved = people["alice"].proposals.approve("1")
    assert approved.success and approved.affected_ids == ["1"]
    record = db.record(people["alice"], "1")
    assert (record.status, record.owner, record.agent) == ("active", "alice", "bot")
    assert _ids(people["bob"].retrieve(filter={})) == ["1"]
    assert _ids(people["bot"].retrieve(filter={"status": "any"})) == []  # now alice's memory
    assert _steps(people["alice"], "1") == [("bot", "proposed"), ("alice", "approved")]


def test_approve_with_edits_is_one_audited_change(people, db):
    people["bot"].encode("alice moved to Lyon", category="a2p:preferences")
    edited = people["alice"].proposals.edit("1", text="alice moved to Lyon in March", category="a2p:context")
    assert edited.success
    record = db.record(people["alice"], "1")
    assert (record.text, record.category, record.status) == (
        "alice moved to Lyon in March",
        "a2p:context",
        "active",
    )
    (_, change) = people["alice"].history("1")
    assert change["proposal"] == "approved with edits" and change["actor"] == "alice"
    assert (
        change["before"]["status"] == "pending" and change["after"]["text"] == "alice moved to Lyon in March"
    )
    assert sum(op["op"] == "Update" for op in db.operations(people["alice"])) == 1


def test_reject(people, db, clock):
    people["bot"].encode("alice dislikes cats")
    clock.advance(timedelta(minutes=5))
    assert people["bob"].proposals.reject("1").success
    assert db.record(people["alice"], "1").status == "rejected"
    assert _ids(people["alice"].proposals.list("rejected")) == ["1"]
    assert _ids(people["bot"].proposals.list("rejected")) == ["1"]  # the proposer learns the outcome
    assert _ids(people["other"].proposals.list("rejected")) == []
    assert _steps(people["alice"], "1") == [("bot", "proposed"), ("bob", "rejected")]
    again = people["alice"].proposals.approve("1")
    assert _rules(again) == ["proposal.transition"] and again.diagnostics[0].path == "/args/set/status"


def test_only_users_and_admins_decide(people, memory):
    people["other"].proposals.propose("alice's birthday is in May")  # its own proposal
    refused = people["other"].proposals.approve("1")
    assert _rules(refused) == ["proposal.approver"]
    assert _rules(people["bot"].proposals.approve("1")) == ["consent.write"]
    admin = memory(actor="root", admin=True, share=people["alice"])
    assert admin.proposals.approve("1").success
    assert _steps(people["alice"], "1") == [("other-bot", "proposed"), ("root", "approved")]


def test_status_moves_only_through_the_proposal_transitions(people):
    people["alice"].encode("an ordinary memory")
    assert _rules(people["alice"].update("1", status="rejected")) == ["proposal.transition"]
    bad = people["alice"].update("1", status="deleted")
    assert _rules(bad) == ["field.enum"] and bad.diagnostics[0].path == "/args/set/status"


def test_a_proposal_lets_its_deadline_pass_and_expires(people, db, clock, t0):
    people["bot"].encode("alice plans a trip to Rome", expire_at=(t0 + timedelta(days=7)).isoformat())
    assert _ids(people["alice"].proposals.list()) == ["1"]
    clock.advance(timedelta(days=8))
    assert _ids(people["alice"].proposals.list()) == []  # lazily: no longer pending
    assert _ids(people["alice"].proposals.list("expired")) == ["1"]
    late = people["alice"].proposals.approve("1")
    assert _rules(late) == ["governance.target_state"]
    sweeper = people["bob"]
    assert sweeper.sweep().affected_ids == ["1"]
    assert db.record(people["alice"], "1").status == "expired"
    assert _steps(people["alice"], "1") == [("bot", "proposed"), ("bob", "expired")]
    assert _ids(people["bot"].proposals.list("expired")) == ["1"]
    assert _ids(people["other"].proposals.list("expired")) == []


def test_a_user_may_mark_an_encode_as_a_proposal_and_a_read_write_agent_writes_directly(people, db):
    assert people["bob"].proposals.propose("alice's desk moved to floor 3").data["proposal"] is True
    assert (db.record(people["alice"], "1").status, db.record(people["alice"], "1").agent) == (
        "pending",
        "bob",
    )
    direct = people["other"].encode("the printer on floor 3 is broken")
    assert "proposal" not in direct.data
    record = db.record(people["alice"], "2")
    assert (record.status, record.owner, record.agent) == ("active", "other-bot", "other-bot")


def test_proposals_never_cross_tenants(memory, db):
    here = memory(tenant="a", actor="alice")
    memory(tenant="a", actor="bot", role="agent", share=here).encode("tenant a's proposal")
    there = memory(tenant="b", actor="root", admin=True, share=here)
    memory(tenant="b", actor="bot", role="agent", share=here).encode("tenant b's proposal")
    assert _ids(there.proposals.list()) == ["2"] and _ids(here.proposals.list()) == ["1"]
    assert there.proposals.approve("1").affected_ids == [] and there.proposals.reject("1").affected_ids == []
    assert db.record(here, "1").status == "pending"
    assert there.history("1") == []


def test_a_proposal_carries_no_permissions_until_its_approver_sets_them(people, db):
    refused = people["bot"].encode("alice's PIN hint", read_perm_level="custom", read_whitelist=["bot"])
    assert _rules(refused) == ["permission.owner"] and refused.diagnostics[0].path == "/args/read_perm_level"
    assert db.ids(people["alice"]) == []
    people["bot"].encode("alice's PIN hint")
    assert people["alice"].proposals.edit("1", read_perm_level="private").success
    assert db.record(people["alice"], "1").read_perm_level == "private"
