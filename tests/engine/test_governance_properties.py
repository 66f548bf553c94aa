"""Governance, checked against an oracle over generated stores and callers, on both backends.

The oracle (`may_read`, `may_write` below) is the permission table of docs/engine.md written as plain
Python, independently of the engine. Every verb is checked against it: no caller ever reads a record
above its clearance, outside its consent or its read permissions; no caller changes one it may not; a
search with k returns min(k, readable matches) — the check is inside the query, not after a top-k cut;
and proposals never cross tenants.
"""

from __future__ import annotations

import uuid

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from governance_oracle import (
    HashedWords,
    build,
    callers,
    ids,
    may_govern,
    may_read,
    may_write,
    records,
    rules,
    writes_at_all,
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    generated=st.lists(records, min_size=1, max_size=20),
    caller=callers,
    k=st.integers(1, 8),
    alpha=st.sampled_from([0.0, 0.5, 1.0]),
    verb=st.sampled_from(["Update", "Label", "Demote", "Expire", "Lock", "Delete"]),
)
def test_every_verb_respects_clearance_consent_and_permissions(memory, generated, caller, k, alpha, verb):
    embedder = HashedWords()
    base = memory(embedder="none")
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
