"""`where` beyond comparisons (issue 18, item 2: what mem0's filters need), on every backend: `$in`, `$nin`,
`$contains`, `$icontains`, the logical `$and` / `$or` / `$not`, and `facets_where` (the same grammar on a
record's facets) — validated with a diagnostic naming the path and the operator, and read inside the
reader's conditions (another user's private record never matches)."""

from __future__ import annotations

from typing import Any

import pytest

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
