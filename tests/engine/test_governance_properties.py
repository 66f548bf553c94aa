"""Governance, checked against an oracle over generated stores and callers, on both backends.

The oracle (`may_read`, `may_write` below) is the permission table of docs/engine.md written as plain
Python, independently of the engine. Every verb is checked against it: no caller ever reads a record
above its clearance, outside its consent or its read permissions; no caller changes one it may not; a
search with k returns min(k, readable matches) — the check is inside the query, not after a top-k cut;
and proposals never cross tenants.
"""

from __future__ import annotations

import uuid

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from budgets import examples
from governance_oracle import (
    HashedWords,
    build,
    callers,
    ids,
    is_proposal,
    may_govern,
    may_read,
    may_write,
    records,
    rules,
    writes_at_all,
)


@pytest.fixture
def base(memory):
    """One store for every example of a test: each example works in tenants of its own."""
    return memory(embedder="none")


@settings(
    max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    generated=st.lists(records, min_size=1, max_size=20),
    caller=callers,
    k=st.integers(1, 8),
    alpha=st.sampled_from([0.0, 0.5, 1.0]),
    verb=st.sampled_from(["Update", "Label", "Demote", "Expire", "Lock", "Delete"]),
)
def test_every_verb_respects_clearance_consent_and_permissions(
    memory, base, generated, caller, k, alpha, verb
):
    embedder = HashedWords()
    tenant, other = uuid.uuid4().hex, uuid.uuid4().hex
    made = build(base, tenant, generated, embedder)
    elsewhere = build(base, other, generated, embedder)  # the same records in another tenant
    m = memory(share=base, tenant=tenant, embedder=embedder, **caller.session())
    readable = {rid for rid, r in made.items() if may_read(caller, r)}
    live = {rid for rid in readable if made[rid].status == "active"}

    # reads: by filter (every status, and the default), by id, by search (lexical, dense, hybrid)
    assert ids(m.retrieve(filter={"status": "any", "limit": 1000})) == readable
    assert ids(m.retrieve(filter={"limit": 1000})) == live
    assert ids(m.retrieve(ids=list(made) + list(elsewhere))) == live
    found = ids(m.retrieve("memo", k=k, overrides={"alpha": alpha}))
    assert found <= live and len(found) == min(k, len(live))  # nothing readable lost to a cut
    for rid in set(made) - readable:  # as if absent: the same answer as an id that does not exist
        hidden = m.retrieve(ids=[rid])
        assert [w.rule for w in hidden.warnings] == ["target.not_found"] and not hidden.data["rows"]

    summary = m.execute({"op": "Summarize", "target": {"filter": {"status": "any"}}}, dry_run=True)
    if caller.role == "agent" and caller.consent == "propose":
        assert rules(summary) == ["consent.read"]
    else:
        assert summary.success and set(summary.data.get("source_ids", [])) == readable

    # writes, one record at a time (dry runs: the store stays as generated)
    for rid, record in {**made, **elsewhere}.items():
        result = m.execute(write(verb, rid), dry_run=True)
        if not writes_at_all(caller):
            assert rules(result) == ["consent.write"], (rid, result.diagnostics)
        elif rid not in readable:
            assert result.success and result.affected_ids == [], (rid, result.diagnostics)
            assert [w.rule for w in result.warnings] == ["target.not_found"]
        elif not may_write(caller, record):
            assert rules(result) == ["permission.write"], (rid, result.diagnostics)
        elif verb == "Lock" and not may_govern(caller, record):  # placing a lock is governance
            assert rules(result) == ["permission.lock"], (rid, result.diagnostics)
        elif verb != "Delete" and record.status in ("deleted", "expired"):
            assert rules(result) == ["governance.target_state"], (rid, result.diagnostics)
        elif verb == "Delete" and record.status == "deleted":
            assert result.success and result.affected_ids == []  # already deleted
        else:
            assert result.success and result.affected_ids == [rid], (rid, result.diagnostics)

    # proposals: an agent below read_write proposes; only users and admins decide, in their own tenant
    encoded = m.execute({"op": "Encode", "args": {"payload": {"text": "a new memo"}}}, dry_run=True)
    (insert,) = [c for c in encoded.preview or [] if c.kind == "insert"]
    proposes = caller.role == "agent" and caller.consent != "read_write"
    assert (insert.after["status"] == "pending") is proposes
    assert insert.after.get("owner") == (None if proposes else caller.actor)
    for rid in elsewhere:
        assert m.execute(decide(rid), dry_run=True).affected_ids == []
    for rid, record in made.items():
        decided = m.execute(decide(rid), dry_run=True)
        if not writes_at_all(caller):
            assert rules(decided) == ["consent.write"]
        elif rid not in readable:
            assert decided.success and decided.affected_ids == []
        elif not may_write(caller, record):
            assert rules(decided) == ["permission.write"]
        elif record.status in ("deleted", "expired"):
            assert rules(decided) == ["governance.target_state"]
        elif caller.role == "agent":
            assert rules(decided) == ["proposal.approver"]
        elif record.status != "pending":
            assert rules(decided) == ["proposal.transition"]
        else:
            assert decided.success and decided.affected_ids == [rid]


def write(verb: str, rid: str) -> dict:
    args = {
        "Update": {"set": {"text": "changed"}},
        "Label": {"tags": ["seen"]},
        "Demote": {"weight_delta": -0.1},
        "Expire": {"ttl": "P1D", "on_expire": "archive"},
        "Lock": {"mode": "read_only"},
        "Delete": {},
    }[verb]
    return {"op": verb, "target": {"ids": [rid]}, "args": args}


def decide(rid: str) -> dict:
    return {"op": "Update", "target": {"ids": [rid]}, "args": {"set": {"status": "active"}}}


locks = st.fixed_dictionaries(
    {
        "lock_by": st.sampled_from([None, "alice", "bob", "root", "bot1"]),
        "reviewers": st.sampled_from([[], ["bob"], ["carol", "bot1"]]),
    }
)


@settings(
    max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(generated=st.lists(records, min_size=1, max_size=6), lock=locks, caller=callers)
def test_who_may_govern_lock_and_lift_a_lock(memory, base, generated, lock, caller):
    """Placing a lock and changing read governance (owner, permissions, lowering sensitivity) are the
    owner's and admins' (on ownerless records and unaccepted proposals also users'); a live lock is
    changed or lifted only by its locker, its reviewers and admins."""
    tenant = uuid.uuid4().hex
    made = build(base, tenant, generated, HashedWords())
    m = memory(share=base, tenant=tenant, embedder="none", **caller.session())
    for rid, record in made.items():
        open_to_writes = (
            writes_at_all(caller)
            and may_read(caller, record)
            and may_write(caller, record)
            and record.status not in ("deleted", "expired")
        )
        governs = m.execute(
            {"op": "Update", "target": {"ids": [rid]}, "args": {"set": {"read_perm_level": "private"}}},
            dry_run=True,
        )
        placed = m.execute(write("Lock", rid), dry_run=True)
        for result, rule in ((governs, "permission.owner"), (placed, "permission.lock")):
            if open_to_writes and not may_govern(caller, record):
                assert rules(result) == [rule], (rid, result.diagnostics)
            elif open_to_writes and not is_proposal(record):
                assert result.success and result.affected_ids == [rid], (rid, result.diagnostics)
            elif not open_to_writes:
                assert not result.affected_ids
    # a live lock on every record: who may lift it
    with base.store.transaction() as session:
        for rid in made:
            policy = {"reviewers": lock["reviewers"]} if lock["reviewers"] else None
            session.update(
                tenant, rid, {"lock_mode": "read_only", "lock_by": lock["lock_by"], "lock_policy": policy}
            )
    for rid, record in made.items():
        lifted = m.execute({"op": "Lock", "target": {"ids": [rid]}, "args": {"mode": "unlock"}}, dry_run=True)
        if not writes_at_all(caller):
            assert rules(lifted) == ["consent.write"]
        elif not may_read(caller, record):
            assert not lifted.affected_ids
        elif not may_write(caller, record):
            assert rules(lifted) == ["permission.write"]
        elif caller.role == "admin" or (
            caller.actor is not None and caller.actor in (lock["lock_by"], *lock["reviewers"])
        ):
            assert lifted.success and lifted.affected_ids == [rid], (rid, lifted.diagnostics)
        else:
            assert rules(lifted) == ["governance.lock_owner"], (rid, lifted.diagnostics)
            assert "any admin of the tenant" in lifted.diagnostics[0].message
