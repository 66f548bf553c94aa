"""Typed facts in the language: the fact payload of an Encode, filter.fact on reads, their canonical form,
their diagnostics, and their place in the generated JSON Schema."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memql.lang import json_schema, validate

NOW = datetime(2026, 3, 4, 10, 0, tzinfo=UTC)  # a Wednesday


def encode(structured, **args):
    return {"op": "Encode", "args": {"payload": {"structured": structured}, **args}}


def test_the_canonical_fact_is_trimmed_in_utc_and_in_key_order():
    result = validate(
        encode(
            {
                "source": "e1",
                "valid_from": "2026-06-10T11:00:00+02:00",
                "value": 5,
                "attribute": " age ",
                "subject": "alice",
            }
        ),
        now=NOW,
    )
    assert result.valid and result.diagnostics == []
    assert result.canonical["args"]["payload"]["structured"] == {
        "subject": "alice",
        "attribute": "age",
        "value": 5,
        "valid_from": "2026-06-10T09:00:00Z",
        "source": "e1",
    }
    assert validate(result.canonical, now=NOW).canonical == result.canonical  # a fixed point


def test_valid_from_takes_natural_times_and_dates_like_every_instant():
    natural = validate(
        encode({"subject": "a", "attribute": "b", "value": 1, "valid_from": "tomorrow"}), now=NOW
    )
    assert [d.rule for d in natural.diagnostics] == ["time.natural_resolved"]
    assert natural.canonical["args"]["payload"]["structured"]["valid_from"] == "2026-03-05T00:00:00Z"
    date = validate(
        encode({"subject": "a", "attribute": "b", "value": 1, "valid_from": "2026-06-02"}), now=NOW
    )
    assert [(d.path, d.rule) for d in date.diagnostics] == [
        ("/args/payload/structured/valid_from", "time.assumed_utc")
    ]


@pytest.mark.parametrize(
    ("structured", "path", "rule", "words"),
    [
        ({"subject": "a", "attribute": "b"}, "/value", "field.required", "needs a value"),
        ({"subject": "a", "attribute": "b", "value": None}, "/value", "field.required", "needs a value"),
        ({"subject": ["a"], "attribute": "b", "value": 1}, "/subject", "field.type", "string"),
        ({"subject": "a", "attribute": "", "value": 1}, "/attribute", "field.empty", "blank"),
        ({"subject": "a" * 513, "attribute": "b", "value": 1}, "/subject", "field.size", "512"),
        ({"subject": "a\x07", "attribute": "b", "value": 1}, "/subject", "field.invalid", "control"),
        ({"subject": "a", "attribute": "b", "value": 1, "valid_from": 5}, "/valid_from", "field.type", "ISO"),
        (
            {"subject": "a", "attribute": "b", "value": 1, "valid_from": "soon-ish"},
            "/valid_from",
            "time.invalid",
            "ISO-8601",
        ),
        (
            {"subject": "a", "attribute": "b", "value": 1, "valid_form": "x"},
            "/valid_form",
            "field.unknown",
            "did you mean 'valid_from'",
        ),
        ({"subject": "a", "attribute": "b", "value": 1, "source": ""}, "/source", "field.empty", "blank"),
    ],
)
def test_a_malformed_fact_is_refused_at_its_key(structured, path, rule, words):
    result = validate(encode(structured), now=NOW)
    assert not result.valid
    (d,) = result.errors
    assert (d.path, d.rule) == ("/args/payload/structured" + path, rule) and words in d.message


def test_payloads_without_subject_and_attribute_are_plain_structured_data():
    for structured in ({"subject": "Re: lunch"}, {"attribute": "x", "value": None}, {"rating": 5}):
        result = validate(encode(structured), now=NOW)
        assert result.valid and result.canonical["args"]["payload"]["structured"] == structured


def test_dedupe_false_on_a_fact_warns_that_it_does_not_apply():
    result = validate(encode({"subject": "a", "attribute": "b", "value": 1}, dedupe=False), now=NOW)
    assert result.valid and [(d.path, d.rule) for d in result.warnings] == [("/args/dedupe", "fact.dedupe")]
    strict = validate(
        encode({"subject": "a", "attribute": "b", "value": 1}, dedupe=False), now=NOW, strict=True
    )
    assert not strict.valid


def test_filter_fact_selects_by_subject_attribute_and_world_time():
    ir = {"op": "Retrieve", "target": {"filter": {"fact": {"subject": " alice ", "valid_at": "June 2"}}}}
    result = validate(ir, now=NOW)
    assert result.valid
    assert result.canonical["target"]["filter"]["fact"] == {
        "subject": "alice",
        "valid_at": "2026-06-02T00:00:00Z",
    }
    empty = validate({"op": "Retrieve", "target": {"filter": {"fact": {}}}}, now=NOW)
    assert empty.valid  # any fact
    bad = validate(
        {"op": "Retrieve", "target": {"filter": {"fact": {"valid_at": "x", "atribute": "b"}}}}, now=NOW
    )
    assert {(d.path, d.rule) for d in bad.errors} == {
        ("/target/filter/fact/valid_at", "time.invalid"),
        ("/target/filter/fact/atribute", "field.unknown"),
    }


def test_the_json_schema_describes_facts():
    schema = json_schema("ir")
    text = str(schema)
    assert "valid_at" in text and "typed fact" in text
    for field in ("attribute", "value", "valid_from", "valid_to", "evidence", "schema_version"):
        assert field in text
