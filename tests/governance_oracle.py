"""The permission oracle of the governance property tests: docs/engine.md's "Who may do what" written as
plain Python, independently of the engine, with the strategies that generate callers and records and the
helper that stores generated records as given. Shared by tests/engine/test_governance_properties.py and
test_governance_read_paths.py (tests/ is on the import path, like backends.py)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import timedelta

import numpy as np
from hypothesis import strategies as st

from memql.engine.context import snapshot
from memql.ports.record import Event, Operation, Record
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


def may_govern(c: Caller, r: Record) -> bool:
    """Who may change a record's governance — its owner and permission fields, lower its sensitivity or
    category, or place a lock on it: the owner and admins; on a record without an owner or a proposal
    nobody accepted, also the tenant's users."""
    if c.role == "admin" or (c.actor is not None and c.actor == r.owner):
        return True
    return r.owner is None and c.role == "user"


def may_read_conversation(c: Caller, user: str, agent: str) -> bool:
    """A conversation's records: its user, its agent with consent read or read_write, admins — and, as
    everywhere, nothing above the caller's clearance (a conversation's records are standard)."""
    if c.role == "admin":
        return True
    if c.role == "agent":
        return c.actor == agent and c.consent in ("read", "read_write")
    return c.actor == user


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


def marker(i: int) -> str:
    """A word only record i's text holds: what a read path shows of the record, wherever it shows it."""
    return f"mark{i}q"


def build(
    m, tenant: str, generated: list[dict], embedder: HashedWords, *, facts: bool = False, audit: bool = False
) -> dict[str, Record]:
    """The generated records, stored as given (every field), each findable by "memo" both ways. With
    `facts`, record i is also a typed fact of subject "s", attribute a<i mod 3>, valid from i hours before
    now; with `audit`, one logged operation inserts them all, so each has a history."""
    made = {}
    now = m.clock.now()
    with m.store.transaction() as session:
        for i, fields in enumerate(generated):
            extra = {}
            if facts:
                start = now - timedelta(hours=len(generated) - i)
                extra = {
                    "kind": "fact",
                    "memory_type": "semantic",
                    "subject": "s",
                    "attribute": f"a{i % 3}",
                    "value": f"v{i}",
                    "valid_from": start,
                    "evidence": [{"valid_from": start.isoformat().replace("+00:00", "Z"), "source": None}],
                }
            text = f"memo {i} {marker(i)}"
            record = Record(tenant=tenant, text=text, created_at=now, updated_at=now, **fields, **extra)
            rid = session.insert(record)
            vector = {
                "embedding": embedder.vector(text).astype("<f4").tobytes(),
                "embedding_model": embedder.model,
                "embedding_dim": embedder.dimension,
                "embedding_status": "ready",
            }
            session.update(tenant, rid, vector)
            made[rid] = session.get(tenant, [rid])[rid]
        if audit:
            operation = Operation(now, tenant, None, "Encode", {"op": "Encode"}, list(made))
            session.log(operation, [Event(rid, "insert", {}, snapshot(r)) for rid, r in made.items()])
    return made


def ids(result) -> set[str]:
    assert result.success, result.diagnostics
    return {row["id"] for row in result.data["rows"]}


def rules(result) -> list[str]:
    return [d.rule for d in result.diagnostics]
