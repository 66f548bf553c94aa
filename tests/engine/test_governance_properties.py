"""Governance, checked against an oracle over generated stores and callers, on both backends.

The oracle (`may_read`, `may_write` below) is the permission table of docs/engine.md written as plain
Python, independently of the engine. Every verb is checked against it: no caller ever reads a record
above its clearance, outside its consent or its read permissions; no caller changes one it may not; a
search with k returns min(k, readable matches) — the check is inside the query, not after a top-k cut;
and proposals never cross tenants.
"""

from __future__ import annotations

import hashlib
import uuid
from dataclasses import dataclass

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memql.ports.record import Record
from memql.services.tokenize import index_terms

PEOPLE = ["alice", "bob", "carol"]
AGENTS = ["bot1", "bot2"]
NAMES = [*PEOPLE, *AGENTS]
LEVELS = ["standard", "sensitive", "restricted"]
# white- and blacklists: callers are often on them (and on both, where the levels differ)
names = st.sampled_from(
    [None, [], ["alice"], ["bob"], ["bot1"], ["alice", "bot1"], ["alice", "bob", "bot1", "bot2"]]
)

records = st.fixed_dictionaries(
    {
        "owner": st.sampled_from([None, "alice", "bob", "bot1"]),
        "agent": st.sampled_from([None, *AGENTS]),
        "status": st.sampled_from(
            ["active", "active", "active", "archived", "pending", "rejected", "expired", "deleted"]
        ),
        "sensitivity": st.sampled_from(LEVELS),
        "read_perm_level": st.sampled_from([None, "public", "team", "private", "custom"]),
        "write_perm_level": st.sampled_from([None, "open", "maintainer", "owner_only", "custom"]),
        "read_whitelist": names,
        "read_blacklist": names,
        "write_whitelist": names,
        "write_blacklist": names,
    }
)


@dataclass(frozen=True)
class Caller:
    role: str
    actor: str | None
    consent: str | None
    clearance: str | None

    def session(self) -> dict:
        return {"role": self.role, "actor": self.actor, "consent": self.consent, "clearance": self.clearance}


callers = st.one_of(
    st.builds(
        Caller,
        role=st.just("user"),
        actor=st.sampled_from([None, *PEOPLE]),
        consent=st.none(),
        clearance=st.sampled_from([None, *LEVELS]),
    ),
    st.builds(
        Caller,
        role=st.just("admin"),
        actor=st.sampled_from([None, "alice", "root"]),
        consent=st.none(),
        clearance=st.sampled_from([None, *LEVELS]),
    ),
    st.builds(
        Caller,
        role=st.just("agent"),
        actor=st.sampled_from([*AGENTS, "bot3"]),
        consent=st.sampled_from(["propose", "read", "read_write"]),
        clearance=st.sampled_from([None, *LEVELS]),
    ),
)


# --- the oracle ------------------------------------------------------------------------------------


def cleared(caller: Caller) -> list[str]:
    level = caller.clearance or ("standard" if caller.role == "agent" else "restricted")
    return LEVELS[: LEVELS.index(level) + 1]


def is_proposal(r: Record) -> bool:
    """Not accepted (yet): pending, rejected, or expired before anyone owned it."""
    return r.status in ("pending", "rejected") or (
        r.status == "expired" and r.owner is None and r.agent is not None
    )


def listed(name: str | None, names: list[str] | None) -> bool:
    return name is not None and name in (names or [])


def may_read(c: Caller, r: Record) -> bool:
    if r.sensitivity not in cleared(c):
        return False
    if c.role == "admin":
        return True
    if is_proposal(r):
        return c.actor == r.agent if c.role == "agent" else not listed(c.actor, r.read_blacklist)
    if c.role == "agent" and c.consent == "propose":
        return False  # only its own proposals
    if c.actor is not None and c.actor == r.owner:
        return True
    if listed(c.actor, r.read_blacklist):
        return False
    level = r.read_perm_level or ("custom" if r.read_whitelist else "public")
    whitelisted = listed(c.actor, r.read_whitelist)
    return {"public": True, "team": c.role == "user" or whitelisted, "private": False, "custom": whitelisted}[
        level
    ]


def may_write(c: Caller, r: Record) -> bool:
    """For a record the caller may read, with consent to write."""
    if c.role == "admin" or (c.actor is not None and c.actor == r.owner):
        return True
    if is_proposal(r):
        return c.role == "user" or c.actor == r.agent
    blacklisted = listed(c.actor, r.write_blacklist)
    if r.owner is None:
        return not blacklisted
    level = r.write_perm_level or ("custom" if r.write_whitelist else "open")
    whitelisted = listed(c.actor, r.write_whitelist)
    return {
        "open": not blacklisted,
        "maintainer": whitelisted,
        "owner_only": False,
        "custom": whitelisted and not blacklisted,
    }[level]


def writes_at_all(c: Caller) -> bool:
    return c.role != "agent" or c.consent == "read_write"


# --- the store -------------------------------------------------------------------------------------


class HashedWords:
    """A deterministic embedding (feature hashing of index terms), so the dense path runs without a model."""

    model = "test-hashed-words"
    dimension = 16

    def embed(self, texts):
        return [self.vector(t).tolist() for t in texts]

    def vector(self, text: str) -> np.ndarray:
        total = np.zeros(self.dimension, dtype=np.float32)
        for term in index_terms(text):
            seed = int.from_bytes(hashlib.sha256(term.encode()).digest()[:8], "little")
            total += np.random.default_rng(seed).normal(size=self.dimension).astype(np.float32)
        return total / max(float(np.linalg.norm(total)), 1e-9)


def build(m, tenant: str, generated: list[dict], embedder: HashedWords) -> dict[str, Record]:
    """The generated records, stored as given (every field), each findable by "memo" both ways."""
    made = {}
    with m.store.transaction() as session:
        for i, fields in enumerate(generated):
            text = f"memo {i}"
            record = Record(
                tenant=tenant, text=text, created_at=m.clock.now(), updated_at=m.clock.now(), **fields
            )
            rid = session.insert(record)
            vector = {
                "embedding": embedder.vector(text).astype("<f4").tobytes(),
                "embedding_model": embedder.model,
                "embedding_dim": embedder.dimension,
                "embedding_status": "ready",
            }
            session.update(tenant, rid, vector)
            made[rid] = record
    return made


def ids(result) -> set[str]:
    assert result.success, result.diagnostics
    return {row["id"] for row in result.data["rows"]}


def rules(result) -> list[str]:
    return [d.rule for d in result.diagnostics]


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
