"""The Store port's contract for key-addressed records (issue 18): namespace, namespace-prefix and key
conditions (prefixes end at a label, labels match literally and case-sensitively), conditions on
structured values compared as JSON, offset, and the distinct namespaces of a query — inside the query,
with the reader's conditions, in every search.

Tests of the conformance suite (see memql.testing): they run on the stores the `store_factory` fixture
opens.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import numpy as np

from memql.ports.record import namespace_path
from memql.ports.store import Access, ConditionGroup, RecordQuery, StructuredCondition
from memql.testing.sample import MODEL, NOW, put, store, unit


def _item(s, tenant: str, labels: list[str], key: str, value: dict[str, Any] | None = None, **fields: Any):
    return put(s, tenant, key, None, namespace=namespace_path(labels), key=key, structured=value, **fields)


def test_namespace_prefix_and_key_conditions_are_exact(store):
    labels = [["foo"], ["foo", "child"], ["foobar"], ["Foo"], ["a%b"], ["a_b"], ["star*"], ["x\n"], ["x"]]
    rng = np.random.default_rng(3)
    with store.transaction() as s:
        made = {tuple(ns): _item(s, "A", ns, "k") for ns in labels}
        _item(s, "B", ["foo"], "k")  # another tenant's
        vector = unit(rng)
        s.update(
            "A",
            made[("foo", "child")],
            {
                "embedding": vector.astype("<f4").tobytes(),
                "embedding_model": MODEL,
                "embedding_dim": len(vector),
                "embedding_status": "ready",
            },
        )

        def ids(**q: Any) -> set[str]:
            return {r.id for r, _ in s.find("A", RecordQuery(**q))}

        foo = namespace_path(["foo"])
        assert ids(namespace_prefix=foo) == {made[("foo",)], made[("foo", "child")]}
        assert ids(namespace=foo) == {made[("foo",)]}
        assert ids(namespace_prefix=namespace_path(["fo"])) == set()
        for literal in (["a%b"], ["a_b"], ["star*"], ["x"]):
            assert ids(namespace_prefix=namespace_path(literal)) == {made[tuple(literal)]}
        assert ids(namespace_prefix="") == set(made.values())
        assert ids(namespace=foo, key="k") == {made[("foo",)]} and ids(namespace=foo, key="K") == set()
        dense = s.dense("A", vector, RecordQuery(namespace_prefix=foo), 5, MODEL)
        assert [r.id for r, _ in dense] == [made[("foo", "child")]]  # the conditions act inside a search
        assert s.get("A", [made[("foo", "child")]])[made[("foo", "child")]].namespace == "foo\x1fchild"


def test_structured_conditions_compare_as_json(store):
    values = {
        "one": {"n": 1, "s": "apple", "b": True, "l": ["x", "y"], "o": {"d": 3}},
        "two": {"n": 2.5, "s": "banana", "b": False, "l": ["y"]},
        "text": {"n": "3", "s": "cherry", "b": None},
        "big": {"n": 10**30},
    }
    with store.transaction() as s:
        made = {name: _item(s, "A", ["v"], name, value) for name, value in values.items()}

        def names(*conditions: tuple[tuple[str, ...], str, Any]) -> set[str]:
            q = RecordQuery(structured=[StructuredCondition(path, op, v) for path, op, v in conditions])
            found = {r.id for r, _ in s.find("A", q)}
            return {name for name, record_id in made.items() if record_id in found}

        assert names((("n",), "gt", 1)) == {"two", "big"}  # "3" is a string: no number compares with it
        assert names((("n",), "lte", 2.5), (("n",), "gte", 1)) == {"one", "two"}
        assert names((("n",), "lt", 10**100)) == {"one", "two", "big"}
        assert names((("s",), "gte", "banana")) == {"two", "text"}
        assert names((("n",), "eq", 1)) == {"one"} and names((("n",), "eq", 1.0)) == {"one"}
        assert names((("b",), "eq", True)) == {"one"} and names((("n",), "eq", True)) == set()
        assert names((("b",), "eq", None)) == {"text", "big"}  # null, or missing
        assert names((("b",), "ne", True)) == {"two", "text", "big"}
        assert names((("l",), "eq", ["y"])) == {"two"} and names((("l",), "eq", ["y", "x"])) == set()
        assert names((("o", "d"), "eq", 3)) == {"one"}
        assert names((("s",), "eq", "apple' OR '1'='1")) == set()


def test_contains_groups_and_facet_conditions(store):
    values = {
        "one": {"s": "Grüne Apple pie", "l": ["x", 2, True]},
        "two": {"s": "banana", "l": ["xy", 2.0]},
        "num": {"s": 5, "l": "x"},
        "none": {},
    }
    with store.transaction() as s:
        made = {
            name: _item(s, "A", ["v"], name, value, facets={"meta": value}) for name, value in values.items()
        }

        def names(*conditions: StructuredCondition | ConditionGroup) -> set[str]:
            found = {r.id for r, _ in s.find("A", RecordQuery(structured=list(conditions)))}
            return {name for name, record_id in made.items() if record_id in found}

        def leaf(path: str, op: str, value: Any, column: str = "structured") -> StructuredCondition:
            return StructuredCondition(tuple(path.split(".")), op, value, column)  # type: ignore[arg-type]

        assert names(leaf("s", "contains", "pple")) == {"one"}
        assert names(leaf("s", "contains", "APPLE")) == set()
        assert names(leaf("s", "icontains", "APPLE")) == {"one"}
        assert names(leaf("s", "icontains", "GRÜNE")) == set()  # ASCII letters only fold
        assert names(leaf("s", "icontains", "grüne")) == {"one"}
        # an item of a list (not a part of the item "xy"), or a part of a string
        assert names(leaf("l", "contains", "x")) == {"one", "num"}
        assert names(leaf("l", "contains", 2)) == {"one", "two"} and names(leaf("l", "contains", True)) == {
            "one"
        }
        assert names(leaf("l", "contains", 1)) == set()  # True is not 1
        assert names(leaf("s", "contains", 5)) == set()  # a number is no substring
        either = ConditionGroup("or", (leaf("s", "eq", "banana"), leaf("s", "gt", 1)))
        assert names(either) == {"two", "num"}
        assert names(ConditionGroup("not", (either,))) == {"one", "none"}  # a missing value: not, holds
        assert names(ConditionGroup("not", (leaf("s", "gt", 1),))) == {"one", "two", "none"}
        assert names(ConditionGroup("or", ())) == set() and names(ConditionGroup("and", ())) == set(made)
        both = ConditionGroup(
            "and", (leaf("l", "contains", 2), ConditionGroup("not", (leaf("s", "eq", "banana"),)))
        )
        assert names(both) == {"one"}
        assert names(leaf("meta.s", "icontains", "BAN", "facets")) == {"two"}
        assert names(leaf("meta.l", "contains", True, "facets")) == {"one"}
        assert names(leaf("s", "eq", "banana", "facets")) == set()  # facets hold it under meta only


def test_offset_skips_the_first_ordered_matches(store):
    with store.transaction() as s:
        ids = [put(s, "A", f"r{i}", None, time=NOW + timedelta(minutes=i)) for i in range(6)]
        newest_first = [r.id for r, _ in s.find("A", RecordQuery(order="time_desc"))]
        assert newest_first == ids[::-1]
        page = [r.id for r, _ in s.find("A", RecordQuery(order="time_desc", offset=2, limit=3))]
        assert page == newest_first[2:5]
        assert [r.id for r, _ in s.find("A", RecordQuery(order="time_desc", offset=4))] == newest_first[4:]


def test_namespaces_are_the_distinct_ones_the_query_admits(store):
    with store.transaction() as s:
        _item(s, "A", ["a", "b"], "1", owner="ann")
        _item(s, "A", ["a", "b"], "2", owner="ann")
        _item(s, "A", ["a", "c", "d"], "3", owner="ann")
        _item(s, "A", ["z"], "4", owner="ann", read_perm_level="private")
        _item(s, "A", ["gone"], "5", owner="ann", status="deleted")
        _item(s, "A", ["old"], "6", owner="ann", expire_at=NOW - timedelta(days=1))
        put(s, "A", "no namespace", None)
        _item(s, "B", ["other"], "7")
        assert s.namespaces("A", RecordQuery(not_expired_at=NOW)) == [
            namespace_path(ns) for ns in (["a", "b"], ["a", "c", "d"], ["z"])
        ]
        bob = RecordQuery(access=Access("bob"), not_expired_at=NOW, namespace_prefix=namespace_path(["a"]))
        assert s.namespaces("A", bob) == [namespace_path(["a", "b"]), namespace_path(["a", "c", "d"])]
        assert (
            s.namespaces("A", RecordQuery(access=Access("bob"), namespace_prefix=namespace_path(["z"]))) == []
        )


# what a backend's test module imports with `from memql.testing.keyed import *`
__all__ = [
    "store",
    "test_contains_groups_and_facet_conditions",
    "test_namespace_prefix_and_key_conditions_are_exact",
    "test_namespaces_are_the_distinct_ones_the_query_admits",
    "test_offset_skips_the_first_ordered_matches",
    "test_structured_conditions_compare_as_json",
]
