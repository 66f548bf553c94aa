"""`where` beyond comparisons (issue 18, item 2: what mem0's filters need), on every backend: `$in`, `$nin`,
`$contains`, `$icontains`, the logical `$and` / `$or` / `$not`, and `facets_where` (the same grammar on a
record's facets) — validated with a diagnostic naming the path and the operator, and read inside the
reader's conditions (another user's private record never matches)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from budgets import examples
from memql import Memory
from memql.lang import validate


def texts(m: Memory, filter: dict[str, Any]) -> list[str]:
    result = m.execute({"op": "Retrieve", "target": {"filter": filter}, "args": {"include": ["text"]}})
    assert result.success, result.diagnostics
    return sorted(row["text"] for row in result.data["rows"])


@pytest.fixture
def notes(m: Memory) -> Memory:
    facets = {
        "tea": {"drink": "tea", "cups": 3, "labels": ["hot", "green"], "note": "Sencha from Shizuoka"},
        "coffee": {"drink": "coffee", "cups": 2, "labels": ["hot"], "note": "espresso"},
        "water": {"drink": "water", "cups": 8, "note": "SPARKLING"},
        "bare": {},
    }
    for text, meta in facets.items():
        assert m.encode(text, facets={"meta": meta}).success
    return m


def test_in_and_nin_match_any_and_none_of_the_values(notes: Memory) -> None:
    assert texts(notes, {"facets_where": {"meta.drink": {"$in": ["tea", "water"]}}}) == ["tea", "water"]
    assert texts(notes, {"facets_where": {"meta.drink": {"$nin": ["tea", "water"]}}}) == ["bare", "coffee"]
    assert texts(notes, {"facets_where": {"meta.cups": {"$in": [2.0, "8"]}}}) == ["coffee"]  # "8" is text
    assert texts(notes, {"facets_where": {"meta.drink": {"$in": []}}}) == []


def test_contains_reads_substrings_and_list_items(notes: Memory) -> None:
    assert texts(notes, {"facets_where": {"meta.note": {"$contains": "Shizuoka"}}}) == ["tea"]
    assert texts(notes, {"facets_where": {"meta.note": {"$contains": "sparkling"}}}) == []
    assert texts(notes, {"facets_where": {"meta.note": {"$icontains": "sparkling"}}}) == ["water"]
    assert texts(notes, {"facets_where": {"meta.labels": {"$contains": "hot"}}}) == ["coffee", "tea"]
    assert texts(notes, {"facets_where": {"meta.labels": {"$contains": "gree"}}}) == []  # items, whole


def test_numbers_beyond_64_bits_compare_by_value_on_every_backend(m: Memory) -> None:
    """A facet filter or a where condition with an integer past SQLite's 64 bits compares it as a real, as
    both backends read such a JSON number (it could not be bound: exec.internal)."""
    big = 10**20
    assert m.encode("huge", facets={"n": big}).success and m.encode("small", facets={"n": 5}).success
    assert texts(m, {"facets": {"n": big}}) == texts(m, {"facets": {"n": big + 1}}) == ["huge"]
    assert texts(m, {"facets": {"n": -big}}) == []
    assert texts(m, {"facets_where": {"n": {"$gt": 2**63}}}) == ["huge"]
    assert texts(m, {"facets_where": {"n": {"$lt": -big}}}) == []


def test_and_or_not_combine_where_objects(notes: Memory) -> None:
    either = {"$or": [{"meta.drink": "tea"}, {"meta.cups": {"$gte": 8}}]}
    assert texts(notes, {"facets_where": either}) == ["tea", "water"]
    assert texts(notes, {"facets_where": {"$not": either}}) == ["bare", "coffee"]
    both = {"$and": [{"meta.labels": {"$contains": "hot"}}, {"$not": {"meta.drink": "tea"}}]}
    assert texts(notes, {"facets_where": both}) == ["coffee"]
    assert texts(notes, {"facets_where": {"$not": {"meta.cups": {"$gt": 2}}}}) == ["bare", "coffee"]


def test_where_and_facets_where_hold_together_on_documents(m: Memory) -> None:
    for key, stars in (("a", 5), ("b", 2)):
        m.execute(
            {
                "op": "Encode",
                "args": {
                    "payload": {"document": {"stars": stars}},
                    "namespace": ["docs"],
                    "key": key,
                    "facets": {"kind": "review" if key == "a" else "draft"},
                },
            }
        )
    rows = m.execute(
        {
            "op": "Retrieve",
            "target": {"filter": {"where": {"stars": {"$in": [2, 5]}}, "facets_where": {"kind": "review"}}},
            "args": {"include": ["key"]},
        }
    ).data["rows"]
    assert rows == [{"key": "a"}]


def test_a_private_record_never_matches_for_another_user(memory) -> None:
    alice = memory(actor="alice")
    bob = memory(actor="bob", share=alice)
    alice.encode("alice's diary", facets={"meta": {"drink": "tea"}}, read_perm_level="private")
    bob.encode("bob's note", facets={"meta": {"drink": "tea"}})
    assert texts(bob, {"facets_where": {"meta.drink": {"$in": ["tea"]}}}) == ["bob's note"]
    assert texts(bob, {"facets_where": {"$not": {"meta.drink": "coffee"}}}) == ["bob's note"]


@pytest.mark.parametrize(
    ("where", "message"),
    [
        ({"a": {"$regex": "x"}}, "where.a: unknown operator '$regex'"),
        ({"$xor": [{"a": 1}]}, "unknown logical operator '$xor'"),
        ({"a": {"$in": "x"}}, "where.a.$in takes a list"),
        ({"a": {"$nin": [{"b": 1}]}}, "where.a.$nin lists values, not objects"),
        ({"a": {"$icontains": 3}}, "where.a.$icontains takes a string"),
        ({"a": {"$contains": None}}, "where.a.$contains takes a string"),
        ({"$or": []}, "$or takes a non-empty list"),
        ({"$not": {"b": {"$gt": [1]}}}, "where.b.$gt compares a number or a string"),
        ({"$and": [{"c": {"d": {"$lol": 1}}}]}, "where.c.d: unknown operator '$lol'"),
    ],
)
def test_a_bad_condition_names_its_path_and_operator(where: dict[str, Any], message: str) -> None:
    for field in ("where", "facets_where"):
        result = validate({"op": "Retrieve", "target": {"filter": {field: where}}})
        (d,) = result.diagnostics
        assert (d.rule, d.path) == ("filter.where", f"/target/filter/{field}")
        assert message in d.message


def test_current_leaves_out_superseded_facts_and_keeps_other_records(m: Memory, clock) -> None:
    from datetime import timedelta

    fact = {"subject": "alice", "attribute": "residence"}
    m.encode(structured={**fact, "value": "Berlin"})
    m.encode("a plain note")
    clock.advance(timedelta(days=1))
    m.encode(structured={**fact, "value": "Lisbon"})
    rows = m.retrieve(filter={"current": True}, include=["text", "value"]).data["rows"]
    assert sorted(str(r["text"] or r["value"]) for r in rows) == ["Lisbon", "a plain note"]
    everything = m.retrieve(filter={}, include=["value"]).data["rows"]
    assert sorted(str(r["value"]) for r in everything) == ["Berlin", "Lisbon", "None"]
    searched = m.retrieve("Berlin Lisbon", filter={"current": True}, include=["value"]).data["rows"]
    assert [r["value"] for r in searched] == ["Lisbon"]


def test_min_score_leaves_out_weak_matches(m: Memory) -> None:
    m.encode("tea tea tea, green tea and black tea")
    m.encode("a long note about many things, coffee and, once, tea among them all")
    found = m.retrieve("tea", include=["text", "score"]).data["rows"]
    assert len(found) == 2 and found[0]["score"] > found[1]["score"]
    cut = (found[0]["score"] + found[1]["score"]) / 2
    kept = m.retrieve("tea", overrides={"min_score": cut}, include=["text"]).data["rows"]
    assert [r["text"] for r in kept] == [found[0]["text"]]


# --- a property: every backend reads a where as this reference does ------------------------------------

DOCS = {
    "int": {"x": 1, "y": "ab"},
    "float": {"x": 1.0, "y": "AB"},
    "big": {"x": 3, "y": "b"},
    "half": {"x": 2.5, "y": ["a", 1, True]},
    "text": {"x": "1", "y": "xaby"},
    "true": {"x": True, "y": None},
    "false": {"x": False},
    "null": {"x": None, "y": ["ab"]},
    "list": {"x": ["a", 1], "y": "Ab"},
    "none": {},
}
_MISSING = object()


def _same(a: Any, b: Any) -> bool:
    """JSON equality: a number equals a number, a boolean only a boolean, lists item by item."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, int | float) and isinstance(b, int | float):
        return a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return type(a) is type(b) and a == b


def _leaf(value: Any, op: str, operand: Any) -> bool:
    if op == "$eq":
        return value is _MISSING or value is None if operand is None else _same(value, operand)
    if op == "$ne":
        return not _leaf(value, "$eq", operand)
    if op in ("$in", "$nin"):
        found = any(_leaf(value, "$eq", item) for item in operand)
        return found if op == "$in" else not found
    if op == "$contains":
        if isinstance(value, str) and isinstance(operand, str):
            return operand in value
        return isinstance(value, list) and any(_same(item, operand) for item in value)
    if op == "$icontains":
        fold = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
        return isinstance(value, str) and operand.translate(fold) in value.translate(fold)
    number = isinstance(operand, int | float)
    if number != (isinstance(value, int | float) and not isinstance(value, bool)):
        return False
    if not number and not isinstance(value, str):
        return False
    return {
        "$gt": value > operand,
        "$gte": value >= operand,
        "$lt": value < operand,
        "$lte": value <= operand,
    }[op]


def _holds(doc: dict[str, Any], where: dict[str, Any]) -> bool:
    for key, condition in where.items():
        if key == "$and":
            ok = all(_holds(doc, inner) for inner in condition)
        elif key == "$or":
            ok = any(_holds(doc, inner) for inner in condition)
        elif key == "$not":
            ok = not _holds(doc, condition)
        elif isinstance(condition, dict):
            ok = all(_leaf(doc.get(key, _MISSING), op, operand) for op, operand in condition.items())
        else:
            ok = _leaf(doc.get(key, _MISSING), "$eq", condition)
        if not ok:
            return False
    return True


_scalars = st.sampled_from([0, 1, 1.0, 2.5, 3, "1", "a", "ab", "AB", "b", True, False, None])
_ordered = st.sampled_from([0, 1, 2.5, 3, "1", "a", "ab", "b"])
_leaves = st.one_of(
    _scalars.map(lambda v: v),
    st.tuples(st.sampled_from(["$eq", "$ne"]), _scalars).map(lambda t: {t[0]: t[1]}),
    st.tuples(st.sampled_from(["$gt", "$gte", "$lt", "$lte"]), _ordered).map(lambda t: {t[0]: t[1]}),
    st.tuples(st.sampled_from(["$in", "$nin"]), st.lists(_scalars, max_size=3)).map(lambda t: {t[0]: t[1]}),
    st.sampled_from(["a", "ab", "A", 1, True]).map(lambda v: {"$contains": v}),
    st.sampled_from(["ab", "AB", "y", "B"]).map(lambda v: {"$icontains": v}),
)
_conditions = st.dictionaries(st.sampled_from(["x", "y"]), _leaves, min_size=1, max_size=2)
_wheres = st.recursive(
    _conditions,
    lambda inner: st.one_of(
        st.lists(inner, min_size=1, max_size=3).map(lambda c: {"$and": c}),
        st.lists(inner, min_size=1, max_size=3).map(lambda c: {"$or": c}),
        inner.map(lambda c: {"$not": c}),
    ),
    max_leaves=6,
)


@settings(
    max_examples=examples(400), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(where=_wheres)
def test_every_backend_reads_a_where_as_the_reference_does(m: Memory, where: dict[str, Any]) -> None:
    if not m.retrieve(filter={"has_tags": ["doc"]}, include=["id"]).data["count"]:
        for name, doc in DOCS.items():
            assert m.encode(name, tags=["doc"], facets={"d": doc}).success
    nested = {"d": where} if not any(k.startswith("$") for k in where) else None  # the same, as objects
    expected = sorted(name for name, doc in DOCS.items() if _holds(doc, where))
    rows = texts(m, {"has_tags": ["doc"], "facets_where": _under("d", where)})
    assert rows == expected, where
    assert nested is None or texts(m, {"has_tags": ["doc"], "facets_where": nested}) == expected


def _under(prefix: str, where: dict[str, Any]) -> dict[str, Any]:
    """The same where on the values under `prefix` (paths `d.x`; logical keys kept)."""
    out: dict[str, Any] = {}
    for key, condition in where.items():
        if key in ("$and", "$or"):
            out[key] = [_under(prefix, inner) for inner in condition]
        elif key == "$not":
            out[key] = _under(prefix, condition)
        else:
            out[f"{prefix}.{key}"] = condition
    return out
