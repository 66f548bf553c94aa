"""What MemqlStore adds to LangGraph's contract, on every backend: time to live through TTLConfig and
refresh on read (on memql's clock), governance between users and tenants of one store, deletes that stay
restorable and audited, large batches in one workflow per 100 puts, and memql's diagnostics as errors."""

from __future__ import annotations

import operator
from datetime import UTC, datetime, timedelta

import pytest
from langgraph.store.base import GetOp, PutOp, SearchOp
from langgraph_stores import open_store

from memql.errors import Refusal
from memql.integrations.langgraph import InvalidStoreOp
from memql.ports.clock import FixedClock

T0 = datetime(2026, 3, 4, 10, 0, tzinfo=UTC)


def test_ttl_expires_items_and_reads_refresh_it(backend: str) -> None:
    clock = FixedClock(T0)
    store = open_store(ttl={"default_ttl": 10, "refresh_on_read": True}, clock=clock)
    store.put(("t",), "refreshed", {"v": 1})
    store.put(("t",), "idle", {"v": 2})
    store.put(("t",), "forever", {"v": 3}, ttl=None)
    clock.advance(timedelta(minutes=8))
    assert store.get(("t",), "refreshed") is not None  # renews it to 10:18
    assert store.get(("t",), "idle", refresh_ttl=False) is not None  # does not renew: still 10:10
    clock.advance(timedelta(minutes=5))
    assert store.get(("t",), "idle") is None
    assert store.get(("t",), "refreshed", refresh_ttl=False) is not None
    assert [i.key for i in store.search(("t",), refresh_ttl=False)] == ["forever", "refreshed"]
    clock.advance(timedelta(minutes=6))
    assert store.get(("t",), "refreshed") is None
    assert [i.key for i in store.search(("t",))] == ["forever"]
    assert store.list_namespaces() == [("t",)]


def test_items_are_private_to_their_user_and_tenant(backend: str) -> None:
    mira = open_store(actor="mira")
    bob = open_store(actor="bob", share=mira)
    other = open_store(actor="mira", tenant="other", share=mira)
    mira.put(("notes",), "plan", {"text": "launch in May"})
    assert bob.get(("notes",), "plan") is None
    assert bob.search(("notes",)) == [] and bob.list_namespaces() == []
    with pytest.raises(Refusal) as refused:
        bob.put(("notes",), "plan", {"text": "cancel the launch"})
    assert refused.value.rule == "key.taken"
    bob.delete(("notes",), "plan")  # the Delete's filter finds nothing bob may read: nothing is deleted
    assert mira.get(("notes",), "plan").value == {"text": "launch in May"}  # type: ignore[union-attr]
    other.put(("notes",), "plan", {"text": "another tenant's plan"})
    assert mira.get(("notes",), "plan").value == {"text": "launch in May"}  # type: ignore[union-attr]


def test_a_shared_item_follows_its_write_level(backend: str) -> None:
    mira = open_store(actor="mira")
    shared = open_store(actor="mira", share=mira)
    shared.read_perm_level = "public"
    shared.put(("team",), "agenda", {"items": ["budget"]})
    bob = open_store(actor="bob", share=mira)
    assert bob.get(("team",), "agenda").value == {"items": ["budget"]}  # type: ignore[union-attr]
    with pytest.raises(Refusal) as refused:  # bob's store makes items private: not his to decide here
        bob.put(("team",), "agenda", {"items": []})
    assert refused.value.rule == "permission.owner"
    bob.read_perm_level = "public"
    bob.put(("team",), "agenda", {"items": ["budget", "hiring"]})  # open write level: bob may edit
    (row,) = mira.memory.retrieve(include=["id", "owner"]).data["rows"]
    assert row["owner"] == "mira"  # an edit does not take the item over
    assert mira.memory.lock([row["id"]]).success
    with pytest.raises(Refusal) as refused:
        bob.put(("team",), "agenda", {"items": []})
    assert refused.value.rule == "governance.locked"


def test_a_delete_is_soft_and_audited(backend: str) -> None:
    store = open_store()
    store.put(("d",), "k", {"v": 1})
    (row,) = store.memory.retrieve(include=["id"]).data["rows"]
    store.delete(("d",), "k")
    assert store.get(("d",), "k") is None
    assert [h["op"] for h in store.memory.history(row["id"])] == ["Encode", "Delete"]
    assert store.memory.restore(row["id"]).success
    assert store.get(("d",), "k").value == {"v": 1}  # type: ignore[union-attr]


def test_a_large_batch_runs_and_the_last_put_of_a_key_wins(backend: str) -> None:
    store = open_store()
    ops = [PutOp(("bulk",), f"k{i}", {"i": i}) for i in range(230)]
    ops += [PutOp(("bulk",), "k0", {"i": "last"}), GetOp(("bulk",), "k0"), SearchOp(("bulk",), limit=500)]
    results = store.batch(ops)
    assert results[-2].value == {"i": "last"}  # type: ignore[union-attr]
    assert len(results[-1]) == 230  # type: ignore[arg-type]


def test_bad_ops_raise_memqls_diagnostics(backend: str) -> None:
    store = open_store()
    with pytest.raises(InvalidStoreOp) as bad:
        store.search(("x",), filter={"price": {"$regex": "a.*"}})
    assert bad.value.rule == "filter.where" and bad.value.path == "/target/filter/where"
    with pytest.raises(InvalidStoreOp) as bad:
        store.put(("x",), "k", {"v": 1}, ttl=-5)
    assert bad.value.path == "/args/ttl"
    # a filter that is no object, or with a field that is no name, raised AttributeError from the adapter
    with pytest.raises(InvalidStoreOp) as bad:
        store.search(("x",), filter="price")  # type: ignore[arg-type]
    assert (bad.value.rule, bad.value.path) == ("field.type", "/filter")
    with pytest.raises(InvalidStoreOp) as bad:
        store.search(("x",), filter={5: 1})  # type: ignore[dict-item]
    assert bad.value.rule.startswith("json.")
    with pytest.raises(InvalidStoreOp) as bad:  # half an emoji: no store can hold it
        store.put(("x",), "k", {"v": "cut \ud83d"})
    assert bad.value.rule == "json.encoding"


def test_infinite_and_nan_bounds_compare_as_in_python(backend: str) -> None:
    """JSON has no Infinity: the adapter says each such bound as the finite test it equals, and the
    results are what Python's operators give over the same values."""
    store = open_store()
    prices = {"a": -(10**300), "b": -1.5, "c": 0, "d": 7, "e": 10**300}
    for key, price in prices.items():
        store.put(("items",), key, {"price": price})
    store.put(("items",), "none", {"label": "no price"})
    inf, nan = float("inf"), float("nan")
    cases = [
        {"$lt": inf},
        {"$lte": -inf},
        {"$gt": -inf, "$lt": 7},
        {"$gte": inf},
        {"$lt": inf, "$lte": 0},
        {"$eq": nan},
        {"$gt": nan},
        {"$ne": inf},
    ]
    for test in cases:
        found = {item.key for item in store.search(("items",), filter={"price": test}, limit=50)}
        expected = {k for k, v in prices.items() if all(_python_compare(op, v, b) for op, b in test.items())}
        if "$ne" in test:
            expected.add("none")  # LangGraph's $ne holds for an item without the field
        assert found == expected, test
    assert store.search(("items",), filter={"price": nan}) == []
    assert store.search(("items",), filter={"price": inf}) == []


def _python_compare(op: str, value: float, bound: float) -> bool:
    ops = {"$lt": operator.lt, "$lte": operator.le, "$gt": operator.gt, "$gte": operator.ge}
    ops |= {"$eq": operator.eq, "$ne": operator.ne}
    return ops[op](value, bound)
