"""A real field in the wrong place says where its verb takes it; an object given as a string says the
object's shape; "did you mean" names another field, never the one written."""

from __future__ import annotations

import pytest

from memql.lang import validate


def errors(ir: dict) -> list[tuple[str, str, str]]:
    return [(d.path, d.rule, d.message) for d in validate(ir).errors]


@pytest.mark.parametrize(
    ("ir", "path", "message"),
    [
        (
            {"op": "Retrieve", "query": "x"},
            "/query",
            "unknown field 'query' here: Retrieve takes query under target.search.intent.query",
        ),
        (
            {"op": "Retrieve", "args": {"query": "x"}},
            "/args/query",
            "unknown field 'query' here: Retrieve takes query under target.search.intent.query",
        ),
        (
            {"op": "Summarize", "target": {"query": "x"}},
            "/target/query",
            "unknown field 'query' here: Summarize takes query under target.search.intent.query",
        ),
        (
            {"op": "Delete", "ids": ["1"]},
            "/ids",
            "unknown field 'ids' here: Delete takes ids under target.ids",
        ),
        (
            {"op": "Update", "target": {"ids": ["1"]}, "args": {"set": {"text": "x"}, "weight": 0.3}},
            "/args/weight",
            "unknown field 'weight' here: Update takes weight under args.set.weight",
        ),
        (
            {"op": "Retrieve", "search": {"intent": {"query": "x"}}},
            "/search",
            "unknown field 'search' here: Retrieve takes search under target.search",
        ),
    ],
)
def test_a_misplaced_field_says_where_it_goes(ir, path, message):
    assert errors(ir) == [(path, "field.unknown", message)]


def test_a_field_of_another_verb_is_named_not_suggested():
    # 'weight' is a field of the language, but not of Label: no "did you mean 'weight'?"
    (only,) = errors({"op": "Label", "target": {"ids": ["1"]}, "args": {"tags": ["a"], "strategy": "x"}})
    assert only[:2] == ("/args/strategy", "field.unknown")
    assert "did you mean" not in only[2] and "'strategy' is not a field" in only[2]


def test_a_near_miss_still_gets_did_you_mean():
    ir = {"op": "Label", "target": {"ids": ["1"]}, "args": {"tags": ["a"], "wieght": 1}}
    assert errors(ir) == [("/args/wieght", "field.unknown", "unknown field 'wieght'; did you mean 'weight'?")]


@pytest.mark.parametrize(
    ("ir", "path", "message"),
    [
        (
            {"op": "Retrieve", "target": {"search": "text"}},
            "/target/search",
            'search must be an object, not a string, e.g. {"intent": {"query": "..."}, "limit": 10}',
        ),
        (
            {"op": "Retrieve", "target": {"filter": ["a"]}},
            "/target/filter",
            "filter must be an object, not a list, "
            'e.g. {"has_tags": ["..."], "time_range": {...}, "limit": 10}',
        ),
        (
            {"op": "Promote", "target": {"ids": ["1"]}, "args": {"remind": 3}},
            "/args/remind",
            'remind must be an object, not a number, e.g. {"rrule": "FREQ=WEEKLY;BYDAY=MO"}',
        ),
    ],
)
def test_an_object_given_as_something_else_shows_its_shape(ir, path, message):
    assert errors(ir) == [(path, "field.type", message)]


def test_a_validator_s_own_required_message_is_kept():
    # was "time_range is required", which the time_range in the input contradicts
    ir = {"op": "Retrieve", "target": {"filter": {"time_range": {"start": "2025-10-01T00:00:00Z"}}}}
    assert errors(ir) == [
        ("/target/filter/time_range", "field.required", "an absolute time range needs both start and end")
    ]
