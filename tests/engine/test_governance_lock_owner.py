"""Who may lock a record (issue 16, item 9; docs/engine.md, Locks): placing a lock is governance — the
owner and admins, on an ownerless record or an unaccepted proposal also the tenant's users; anyone else
gets `permission.lock`. A live lock is changed or lifted by its locker, its reviewers and admins: an owner
who is none of these is told who may lift it, and an admin always can (the owner's appeal)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from memql.interfaces.apikeys import create_key
from memql.interfaces.rest.app import create_app


def _rules(result) -> list[str]:
    return [d.rule for d in result.diagnostics]


@pytest.fixture
def team(memory):
    """alice owns the records (write level open: bob and a read_write agent may write them)."""
    alice = memory(actor="alice")
    return {
        "alice": alice,
        "bob": memory(actor="bob", share=alice),
        "admin": memory(actor="root", role="admin", share=alice),
        "writer": memory(actor="bot", role="agent", consent="read_write", share=alice),
    }


@pytest.mark.parametrize("who", ["bob", "writer"])
@pytest.mark.parametrize("mode", ["read_only", "append_only"])
def test_a_writer_who_is_not_the_owner_cannot_lock_and_nothing_changes(team, db, who, mode):
    alice = team["alice"]
    alice.encode("supplier contract notes")
    assert team[who].label("1", ["seen"]).success  # bob may write it ...
    refused = team[who].lock("1", mode=mode, reason="mine now")  # ... but not freeze it against alice
    assert not refused.success and _rules(refused) == ["permission.lock"]
    (diagnostic,) = refused.diagnostics
    assert diagnostic.path == "/target"
    assert "record 1" in diagnostic.message and "its owner (alice) or an admin" in diagnostic.message
    record = db.record(alice, "1")
    assert (record.lock_mode, record.lock_by) == (None, None)
    assert [h["op"] for h in alice.history("1")] == ["Encode", "Label"]


def test_the_owner_locks_her_own_record_and_lifts_her_own_lock(team, db):
    alice = team["alice"]
    alice.encode("supplier contract notes")
    assert alice.lock("1", reason="confirmed").success
    assert (db.record(alice, "1").lock_by, db.record(alice, "1").lock_mode) == ("alice", "read_only")
    assert _rules(team["bob"].unlock("1")) == ["governance.lock_owner"]
    assert alice.unlock("1").success and db.record(alice, "1").lock_mode is None


def test_an_admins_legal_hold_binds_the_owner_who_appeals_to_an_admin(team, db, memory):
    alice, admin = team["alice"], team["admin"]
    alice.encode("supplier contract notes")
    assert admin.lock("1", reason="legal hold", policy={"reviewers": ["counsel"]}).success
    assert db.record(alice, "1").lock_by == "root"
    for attempt in (alice.unlock("1"), alice.lock("1", mode="append_only")):
        assert not attempt.success and _rules(attempt) == ["governance.lock_owner"]
        message = attempt.diagnostics[0].message
        assert "legal hold" in message
        assert "root" in message and "counsel" in message and "any admin of the tenant" in message
    assert _rules(alice.update("1", text="rewritten")) == ["governance.locked"]
    assert db.record(alice, "1").lock_mode == "read_only"
    other_admin = memory(actor="ops", admin=True, share=alice)  # any admin, not only the locker
    assert other_admin.unlock("1").success
    assert db.record(alice, "1").lock_mode is None
    assert alice.update("1", text="rewritten").success


def test_an_admin_lifts_a_lock_that_a_reviewer_placed(team, db):
    alice, bob, admin = team["alice"], team["bob"], team["admin"]
    alice.encode("supplier contract notes")
    assert alice.lock("1", policy={"reviewers": ["bob"]}).success
    assert bob.lock("1", mode="append_only").success  # a reviewer changes a live lock: it is now bob's
    assert _rules(alice.unlock("1")) == ["governance.lock_owner"]
    assert admin.unlock("1").success and db.record(alice, "1").lock_mode is None


def test_an_ownerless_record_can_be_locked_by_a_user_but_not_by_an_agent(memory, db):
    anon = memory(actor=None)
    bob = memory(actor="bob", share=anon)
    writer = memory(actor="bot", role="agent", consent="read_write", share=anon)
    anon.encode("shared office wifi password rotates monthly")
    assert db.record(anon, "1").owner is None
    refused = writer.lock("1")
    assert _rules(refused) == ["permission.lock"] and "the tenant's users or an admin" in (
        refused.diagnostics[0].message
    )
    assert bob.lock("1", reason="keep").success
    assert db.record(anon, "1").lock_by == "bob"


def test_a_user_may_lock_a_proposal_nobody_accepted_but_its_agent_may_not(memory, db):
    alice = memory(actor="alice")
    bot = memory(actor="bot", role="agent", share=alice)
    writer = memory(actor="bot", role="agent", consent="read_write", share=alice)
    assert bot.encode("Alice prefers tea").data["proposal"]
    assert _rules(writer.lock("1")) == ["permission.lock"]
    assert alice.lock("1").success and db.record(alice, "1").lock_by == "alice"


def test_rest_answers_403_naming_the_rule_and_who_may(memory):
    alice = memory(actor="alice")
    alice.encode("supplier contract notes")
    client = TestClient(create_app(alice.store, clock=alice.clock))

    def key(actor: str, role: str = "user") -> dict:
        made = create_key(alice.store, tenant="t", actor=actor, role=role, now=alice.clock.now())
        return {"X-API-Key": made.secret}

    def lock(who: dict, mode: str = "read_only"):
        ir = {"op": "Lock", "target": {"ids": ["1"]}, "args": {"mode": mode, "reason": "legal hold"}}
        return client.post("/v1/execute", json=ir, headers=who)

    refused = lock(key("bob"))
    assert refused.status_code == 403 and refused.json()["diagnostics"][0]["rule"] == "permission.lock"
    assert lock(key("root", "admin")).status_code == 200
    appeal = lock(key("alice"), "unlock")
    assert appeal.status_code == 403
    (diagnostic,) = appeal.json()["diagnostics"]
    assert (
        diagnostic["rule"] == "governance.lock_owner" and "any admin of the tenant" in diagnostic["message"]
    )
