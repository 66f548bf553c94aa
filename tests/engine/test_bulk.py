"""Bulk writes (issue 20, item 4; engine/bulk.py): many Encodes in one transaction, written in batches.

The batched path must leave exactly what the Encodes leave when each runs alone — the same records and
the same audit log — on every backend; all or nothing; and every governance rule still holds."""

from __future__ import annotations

import hashlib
from dataclasses import asdict
from typing import Any, cast

import pytest

from memql.ports.store import PortableSession
from run_results import run_free

# a mix of what Encode does per record: plain, repeats (in the batch and of a stored record), dedupe off,
# time to live, facets, sensitivity, a proposal, typed facts that supersede, keys, derived records
ITEMS: list[Any] = [
    "the standup moved to 9:30",
    {"op": "Encode", "args": {"payload": {"text": "pay the rent"}, "tags": ["home"], "ttl": "P7D"}},
    {"op": "Encode", "args": {"payload": {"text": "the standup moved to 9:30"}}},  # a repeat in the batch
    {"op": "Encode", "args": {"payload": {"text": "stored before"}}},  # a repeat of a stored record
    {"op": "Encode", "args": {"payload": {"text": "pay the rent"}, "tags": ["home"], "dedupe": False}},
    {"op": "Encode", "args": {"payload": {"text": "my blood type is O"}, "sensitivity": "sensitive"}},
    {"op": "Encode", "args": {"payload": {"text": "lunch at noon"}, "facets": {"topic": "food"}}},
    {"op": "Encode", "args": {"payload": {"text": "a suggestion"}, "proposal": True}},
    {
        "op": "Encode",
        "args": {"payload": {"structured": {"subject": "alice", "attribute": "city", "value": "Paris"}}},
    },
    {"op": "Encode", "args": {"payload": {"text": "after the fact"}, "category": "a2p:preferences"}},
    {
        "op": "Encode",
        "args": {"payload": {"structured": {"subject": "alice", "attribute": "city", "value": "Berlin"}}},
    },
    {"op": "Encode", "args": {"payload": {"text": "theme: dark"}, "key": "theme", "namespace": ["ui"]}},
    {"op": "Encode", "args": {"payload": {"text": "theme: light"}, "key": "theme", "namespace": ["ui"]}},
    {"op": "Encode", "args": {"payload": {"text": "a note on the rent"}, "derived_from": {"from_step": 1}}},
    {"op": "Encode", "args": {"payload": {"text": "the last one"}, "type": "task", "weight": 0.9}},
]


def _records(m) -> list[dict[str, Any]]:
    with m.store.dry_run() as session:
        found = session.get(m.tenant, [str(i) for i in range(1, 100)])
    return [{k: v for k, v in asdict(r).items() if k != "embedding"} for _, r in sorted(found.items())]


def _log(m) -> list[tuple[Any, ...]]:
    """Every audit entry of the tenant with its events, without what names the run (its workflow id)."""
    out = []
    with m.store.dry_run() as session:
        for op, events in cast(PortableSession, session).export_log(0, 10_000):
            if op.tenant == m.tenant:
                changes = [(e.record_id, e.kind, e.before, e.after) for e in events]
                out.append((op.seq, op.actor, op.op, op.ir, op.affected_ids, op.step, changes))
    return out


def _links(m) -> set[tuple[str, str, str]]:
    with m.store.dry_run() as session:
        return {(x.src, x.dst, x.relation) for x in session.links(m.tenant, [str(i) for i in range(1, 100)])}


@pytest.mark.parametrize("batch_size", [1, 4, 1000])
def test_a_bulk_write_leaves_what_the_encodes_leave_one_by_one(memory, batch_size):
    alone, bulk = memory(), memory()
    for m in (alone, bulk):
        assert m.encode("stored before").success
    steps = [{"op": "Encode", "args": {"payload": {"text": i}}} if isinstance(i, str) else i for i in ITEMS]
    one_by_one = alone.execute({"workflow": steps}, max_steps=len(ITEMS), batch_size=0)
    batched = bulk.encode_many(ITEMS, batch_size=batch_size)
    assert one_by_one.success, one_by_one.diagnostics
    assert batched.success, batched.diagnostics
    assert [s.data for s in batched.steps] == [s.data for s in one_by_one.steps]
    assert batched.affected_ids == one_by_one.affected_ids
    assert _records(bulk) == _records(alone)
    assert _log(bulk) == _log(alone)
    assert _links(bulk) == _links(alone) != set()
    for query in ("rent", "standup", "theme light"):  # the same lexical index: the same scores
        searched = [m.retrieve(query, include=["id", "score"]).data["rows"] for m in (alone, bulk)]
        assert searched[0] == searched[1] != []
    # what each path produced: a repeat returns the first record, a proposal waits, a key holds one record
    data = [s.data for s in batched.steps]
    assert data[2] == {"id": data[0]["id"], "deduplicated": True}
    assert data[3] == {"id": "1", "deduplicated": True}
    assert data[4]["id"] != data[1]["id"]
    assert data[7]["proposal"] is True
    assert data[12]["id"] == data[11]["id"]


# every field the plain validator checks itself (memql.lang.plain), repeats among them: validated by it
PLAIN_ITEMS: list[Any] = [
    "the standup moved to 9:30",
    {"op": "Encode", "args": {"payload": {"text": "pay the rent"}, "tags": ["home", " home", "bills"]}},
    {"op": "Encode", "args": {"payload": {"text": "the standup moved to 9:30"}}},  # a repeat in the batch
    {"op": "Encode", "args": {"payload": {"text": "stored before"}}},  # a repeat of a stored record
    {"op": "Encode", "args": {"payload": {"text": "pay the rent"}, "tags": ["home"], "dedupe": False}},
    {"stage": "ENC", "op": "Encode", "args": {"payload": {"text": "血型 O"}, "sensitivity": "sensitive"}},
    {
        "op": "Encode",
        "args": {
            "payload": {"text": "lunch at noon"},
            "facets": {"topic": " food ", "time": "2025-03-01T12:00:00+01:00", "place": "canteen"},
            "time": "2025-03-01T12:00:00Z",
            "type": " meal ",
        },
    },
    {"op": "Encode", "args": {"payload": {"text": "a suggestion"}, "proposal": True, "confidence": 1}},
    {"op": "Encode", "args": {"payload": {"text": "soon gone"}, "expire_at": "2031-01-01T00:00:00.5Z"}},
    {
        "op": "Encode",
        "args": {
            "payload": {"text": "the last one"},
            "weight": 0.9,
            "subject": "me",
            "topic": "work",
            "location": "office",
            "source": "import",
            "memory_type": "semantic",
            "skip_embedding": True,
        },
    },
]


@pytest.mark.parametrize("batch_size", [1, 3, 1000])
def test_plain_encodes_leave_what_the_encodes_leave_one_by_one(memory, batch_size):
    """The same comparison with every item plain: the bulk write validates them by memql.lang.plain."""
    from memql.engine.executor import bulk_limits
    from memql.lang.plain import plain_workflow

    alone, bulk = memory(), memory()
    for m in (alone, bulk):
        assert m.encode("stored before").success
    steps = [
        {"op": "Encode", "args": {"payload": {"text": i}}} if isinstance(i, str) else i for i in PLAIN_ITEMS
    ]
    assert plain_workflow(steps, bulk_limits(len(steps))) is not None
    one_by_one = alone.execute({"workflow": steps}, max_steps=len(steps), batch_size=0)
    batched = bulk.encode_many(PLAIN_ITEMS, batch_size=batch_size)
    assert one_by_one.success, one_by_one.diagnostics
    assert batched.success, batched.diagnostics
    assert [s.data for s in batched.steps] == [s.data for s in one_by_one.steps]
    assert [s.warnings for s in batched.steps] == [s.warnings for s in one_by_one.steps]
    assert _records(bulk) == _records(alone)
    assert _log(bulk) == _log(alone)
    for query in ("rent", "standup", "lunch canteen"):
        searched = [m.retrieve(query, include=["id", "score"]).data["rows"] for m in (alone, bulk)]
        assert searched[0] == searched[1] != []
    data = [s.data for s in batched.steps]
    assert data[2] == {"id": data[0]["id"], "deduplicated": True}
    assert data[3] == {"id": "1", "deduplicated": True}
    assert data[7]["proposal"] is True


def test_a_workflow_is_written_in_batches_unless_asked_one_by_one(memory, monkeypatch):
    """execute() of a workflow writes its plain Encodes in batches by default (`batch_size=0`: each by
    itself), and every step's result, the records, the log and the index are what one by one gives."""
    from memql.engine import bulk as bulk_module

    added: list[int] = []
    add = bulk_module.EncodeBatch.add

    def counted(self, ctx, ir, canonical, index):
        added.append(index)
        return add(self, ctx, ir, canonical, index)

    monkeypatch.setattr(bulk_module.EncodeBatch, "add", counted)
    steps = [{"op": "Encode", "args": {"payload": {"text": i}}} if isinstance(i, str) else i for i in ITEMS]
    results, stores = [], []
    for batch_size in (0, None):
        m = memory()
        assert m.encode("stored before").success
        added.clear()
        result = m.execute({"workflow": steps}, max_steps=len(steps), batch_size=batch_size)
        assert result.success, result.diagnostics
        assert (added != []) == (batch_size is None)  # the default took the batched path
        results.append(run_free(result.to_json()))
        stores.append((_records(m), _log(m), _links(m)))
    assert results[0] == results[1]
    assert stores[0] == stores[1]


def test_every_imported_record_has_its_encode_in_its_history(m):
    result = m.encode_many([f"note {i}" for i in range(25)], batch_size=10)
    assert result.success and len(result.affected_ids) == 25
    for record_id in ("1", "13", "25"):
        (entry,) = m.history(record_id)
        assert entry["op"] == "Encode" and entry["change"] == "insert"
    rows = m.retrieve(query="note", k=30, include=["id", "text"]).data["rows"]
    assert len(rows) == 25  # the lexical index holds every record


def test_a_refusal_at_step_7000_leaves_nothing_written(memory, db):
    owner = memory()
    owner.encode("before the import")
    agent = memory(share=owner, actor="bot", role="agent", consent="propose")
    items: list[Any] = [f"item {i}" for i in range(7_001)]
    # a proposal has no owner yet to say who may read it: refused when the step runs, not by validation
    items[7_000] = {"op": "Encode", "args": {"payload": {"text": "bad"}, "read_perm_level": "private"}}
    result = agent.encode_many(items, batch_size=500)
    assert not result.success and result.failed_step == 7_000
    (diagnostic,) = result.diagnostics
    assert (diagnostic.rule, diagnostic.path) == ("permission.owner", "/workflow/7000/args/read_perm_level")
    assert list(db.records(owner)) == ["1"]
    assert [op["op"] for op in db.operations(owner)] == ["Encode"]
    assert owner.retrieve(query="item", include=["id"]).data["rows"] == []
    # the store is whole afterwards: the next write is numbered on from what was committed
    assert owner.encode("after").data == {"id": "2"}


def test_a_failure_at_step_7000_leaves_nothing_written(m, db):
    def fail_at_7000(step: int, _result: Any) -> None:
        if step == 7_000:
            raise RuntimeError("the caller's observer failed")

    result = m.encode_many([f"item {i}" for i in range(7_001)], batch_size=1000, on_step=fail_at_7000)
    assert not result.success and result.diagnostics[0].rule == "exec.internal"
    assert db.records(m) == {} and db.operations(m) == []


def test_an_invalid_item_is_named_by_its_step_and_field(m, db):
    items: list[Any] = [f"item {i}" for i in range(150)]
    items[120] = {"op": "Encode", "args": {"payload": {"text": "x"}, "weight": 7}}
    result = m.encode_many(items)
    assert not result.success
    assert [(d.rule, d.path) for d in result.diagnostics] == [("field.range", "/workflow/120/args/weight")]
    assert db.records(m) == {}


def test_a_bulk_write_holds_encodes_only(m, db):
    items = ["a", {"op": "Delete", "target": {"ids": ["1"]}, "args": {}}]
    result = m.encode_many(items)
    assert [(d.rule, d.path) for d in result.diagnostics] == [("bulk.encode_only", "/workflow/1/op")]
    assert db.records(m) == {}


def test_a_hand_written_workflow_keeps_its_cap_unless_the_caller_raises_it(m):
    steps = [{"op": "Encode", "args": {"payload": {"text": f"n{i}"}}} for i in range(101)]
    assert [d.rule for d in m.execute(steps).diagnostics] == ["workflow.too_long"]
    assert m.execute(steps, max_steps=101, batch_size=50).success


# --- governance -------------------------------------------------------------------------------------


def test_another_tenants_records_and_keys_are_untouched(memory):
    other = memory(tenant="u")
    other.encode("shared words")
    other.execute(
        {"op": "Encode", "args": {"payload": {"text": "u's theme"}, "key": "theme", "namespace": ["ui"]}}
    )
    before = _records(other)
    mine = memory(tenant="t", share=other)
    result = mine.encode_many(
        [
            "shared words",
            {"op": "Encode", "args": {"payload": {"text": "t's theme"}, "key": "theme", "namespace": ["ui"]}},
        ]
    )
    assert result.success
    assert [s.data.get("deduplicated") for s in result.steps] == [None, None]  # not u's record
    assert _records(other) == before
    assert [r["text"] for r in _records(mine)] == ["shared words", "t's theme"]


@pytest.mark.parametrize("consent", ["propose", "read"])
def test_an_agent_without_write_consent_overwrites_nothing(memory, db, consent):
    """Below read_write an agent's Encodes are proposals; one that would overwrite a user's keyed record
    is refused, and the whole bulk write with it."""
    owner = memory()
    keyed = {"op": "Encode", "args": {"payload": {"text": "v1"}, "key": "k", "namespace": ["n"]}}
    assert owner.execute(keyed).success
    agent = memory(share=owner, actor="bot", role="agent", consent=consent)
    overwrite = {"op": "Encode", "args": {"payload": {"text": "v2"}, "key": "k", "namespace": ["n"]}}
    result = agent.encode_many(["one", "two", overwrite], batch_size=2)
    assert not result.success and result.failed_step == 2
    # as docs/engine.md's "Who may do what" says: a proposal has no key; a reader may not update
    assert result.diagnostics[0].rule == ("encode.key" if consent == "propose" else "consent.write")
    assert [(r.text, r.status) for r in db.records(owner).values()] == [
        ("v1", "active")
    ]  # nothing proposed either
    assert len(db.operations(owner)) == 1


def test_an_agent_with_propose_consent_makes_proposals(memory, db):
    owner = memory()
    agent = memory(share=owner, actor="bot", role="agent", consent="propose")
    result = agent.encode_many(["one", "two", "one"], batch_size=2)
    assert result.success
    assert [s.data for s in result.steps] == [
        {"id": "1", "proposal": True},
        {"id": "2", "proposal": True},
        {"id": "1", "deduplicated": True, "proposal": True},
    ]
    records = db.records(owner)
    assert {(r.status, r.owner, r.agent) for r in records.values()} == {("pending", None, "bot")}


def test_a_locked_key_is_not_overwritten(m, db):
    first = m.execute({"op": "Encode", "args": {"payload": {"text": "v1"}, "key": "k", "namespace": ["n"]}})
    assert m.lock(first.data["id"]).success
    result = m.encode_many(
        ["fine", {"op": "Encode", "args": {"payload": {"text": "v2"}, "key": "k", "namespace": ["n"]}}],
        batch_size=10,
    )
    assert not result.success and result.failed_step == 1
    assert result.diagnostics[0].rule == "governance.locked"
    assert [r.text for r in db.records(m).values()] == ["v1"]


# --- embeddings -----------------------------------------------------------------------------------


class HashedVectors:
    """A deterministic embedder (a vector from each text's digest) that counts its calls."""

    model = "hashed-8d"
    dimension = 8

    def __init__(self) -> None:
        self.calls: list[int] = []

    def embed(self, texts):
        self.calls.append(len(texts))
        return [[b / 255 for b in hashlib.sha256(t.encode()).digest()[:8]] for t in texts]


def test_embeddings_are_computed_once_per_batch(memory, db):
    embedder = HashedVectors()
    m = memory(embedder=embedder)
    items: list[Any] = [f"text {i}" for i in range(25)]
    items.append({"op": "Encode", "args": {"payload": {"text": "later"}, "skip_embedding": True}})
    assert m.encode_many(items, batch_size=10).success
    assert embedder.calls == [10, 10, 5]
    statuses = [r.embedding_status for r in db.records(m).values()]
    assert statuses == ["ready"] * 25 + ["pending"]


@pytest.mark.parametrize("batch_size", [1, 4, 1000])
def test_with_an_embedder_a_bulk_write_leaves_what_the_encodes_leave_one_by_one(memory, batch_size):
    """On PostgreSQL a batch's records are embedded before they are inserted (engine/bulk.py
    _embed_first): the same vectors, the same audit log (insert events without them) and the same dense
    search as each Encode embedding its record after inserting it (a stored vector of the same content
    reused alike, a record without one left pending alike)."""
    alone, bulk = memory(embedder=HashedVectors()), memory(embedder=HashedVectors())
    for m in (alone, bulk):
        assert m.encode("stored before").success
    items: list[Any] = [
        *ITEMS,
        {"op": "Encode", "args": {"payload": {"text": "no vector"}, "skip_embedding": True}},
    ]
    steps = [{"op": "Encode", "args": {"payload": {"text": i}}} if isinstance(i, str) else i for i in items]
    assert alone.execute({"workflow": steps}, max_steps=len(items), batch_size=0).success
    assert bulk.encode_many(items, batch_size=batch_size).success
    with_vectors = [{**asdict(r)} for _, r in sorted(_stored(bulk).items())]
    assert with_vectors == [{**asdict(r)} for _, r in sorted(_stored(alone).items())]
    assert sum(r["embedding"] is not None for r in with_vectors) >= 10
    assert _log(bulk) == _log(alone)
    # dense search alone (alpha 1): the same records by the same cosines
    rows = [
        m.retrieve("pay the rent", overrides={"alpha": 1.0}, include=["id", "score"]) for m in (alone, bulk)
    ]
    assert rows[0].data["rows"] == rows[1].data["rows"] != []


def _stored(m) -> dict[str, Any]:
    with m.store.dry_run() as session:
        return session.get(m.tenant, [str(i) for i in range(1, 100)])


def test_the_garbage_collector_is_as_the_caller_left_it(m):
    """A bulk write pauses Python's cyclic collector while it runs (engine/bulk.py paused_gc)."""
    import gc

    assert gc.isenabled()
    assert m.encode_many(["a", "b"]).success and gc.isenabled()
    gc.disable()
    try:
        assert m.encode_many(["c"]).success and not gc.isenabled()
    finally:
        gc.enable()
