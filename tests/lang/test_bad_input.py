"""Malformed JSON, wrong types, unknown verbs and fields, absurd sizes, deep nesting, NaN, bad dates:
always diagnostics with a path and a rule, never an exception."""

from __future__ import annotations

import json
from datetime import datetime

import pytest
from ir_samples import sample

from memql.lang import RULES, Limits, validate


def rules_at(result) -> list[tuple[str, str]]:
    return [(d.rule, d.path) for d in result.errors]


@pytest.mark.parametrize(
    ("source", "rule"),
    [
        ('{"op": "Encode", "args": ', "json.malformed"),
        ("", "json.malformed"),
        ("not json", "json.malformed"),
        (b"\xff\xfe{}", "json.encoding"),
        ('{"op": "Encode", "op": "Update"}', "json.duplicate_key"),
        ('{"op": "Promote", "target": {"ids": ["1"]}, "args": {"weight": NaN}}', "json.non_finite"),
        ('{"op": "Promote", "target": {"ids": ["1"]}, "args": {"weight": Infinity}}', "json.non_finite"),
        ('{"op": "Promote", "target": {"ids": ["1"]}, "args": {"weight": 1e999}}', "json.non_finite"),
        ("[" * 100_000 + "]" * 100_000, "json.too_deep"),
        ('{"x": ' + "1" * 5000 + "}", "json.malformed"),
        ("42", "ir.not_object"),
        ("null", "ir.not_object"),
        ('"Encode"', "ir.not_object"),
        ("[]", "workflow.empty"),
        ("[1, 2]", "ir.not_object"),
        ('{"args": {}}', "op.missing"),
        ('{"op": "Remember", "args": {}}', "op.unknown"),
        ('{"op": 7}', "op.unknown"),
        ('{"op": "Encode", "args": {"payload": {"text": "x"}}, "extra": 1}', "field.unknown"),
    ],
)
def test_bad_documents_are_diagnosed(source, rule):
    result = validate(source)
    assert not result.valid
    assert rule in {d.rule for d in result.errors}, result.diagnostics
    assert all(d.rule in RULES for d in result.diagnostics)


def test_lone_surrogate_is_reported_not_raised():
    result = validate('{"op": "Encode", "args": {"payload": {"text": "\\ud800"}}}')
    assert ("json.encoding", "/args/payload/text") in rules_at(result)


def test_a_key_holding_a_lone_surrogate_is_reported_at_its_object():
    """A key was not checked: its surrogate reached the diagnostic naming the unknown field, which no
    server could then encode (REST answered 500)."""
    result = validate('{"op": "Encode", "args": {"payload": {"text": "x"}, "\\udc00a": 1}}')
    assert rules_at(result) == [("json.encoding", "/args")]
    assert "\\udc00" in result.errors[0].message  # the key, quoted as an escape
    result.errors[0].message.encode("utf-8")  # (it encodes)
    paired = validate('{"op": "Encode", "args": {"payload": {"text": "\\ud83d\\ude00"}}}')  # an emoji
    assert paired.valid


def test_malformed_json_names_line_and_column():
    result = validate('{\n  "op": "Encode",\n  "args": {,}\n}')
    (diag,) = result.errors
    assert diag.rule == "json.malformed" and "line 3" in diag.message


def test_unknown_verb_suggests_the_nearest():
    (diag,) = validate({"op": "Sumarize", "target": {"ids": ["1"]}}).errors
    assert diag.path == "/op" and "Summarize" in diag.message


def test_unknown_field_suggests_the_nearest():
    ir = sample("update")
    ir["args"]["set"]["wieght"] = 0.4
    result = validate(ir)
    assert ("field.unknown", "/args/set/wieght") in rules_at(result)
    assert "weight" in result.errors[0].message


@pytest.mark.parametrize(
    ("mutate", "path"),
    [
        (lambda ir: ir["args"].update(tags="team"), "/args/tags"),
        (lambda ir: ir["args"].update(tags=["ok", 3]), "/args/tags/1"),
        (lambda ir: ir["args"].update(skip_embedding="yes"), "/args/skip_embedding"),
        (lambda ir: ir["args"]["payload"].update(text=12), "/args/payload/text"),
        (lambda ir: ir.update(meta=[]), "/meta"),
        (lambda ir: ir.update(args="text"), "/args"),
    ],
)
def test_wrong_types_are_located(mutate, path):
    ir = sample("encode_text")
    mutate(ir)
    result = validate(ir)
    assert not result.valid
    assert path in {d.path for d in result.errors}, result.diagnostics
    assert {d.rule for d in result.errors if d.path == path} <= {"field.type", "field.invalid"}


def test_no_silent_coercion_of_strings_to_numbers():
    result = validate({"op": "Retrieve", "target": {"filter": {"limit": "10"}}})
    assert ("field.type", "/target/filter/limit") in rules_at(result)


@pytest.mark.parametrize(
    "bad", ["2025-02-30T00:00:00Z", "2025-10-21T25:00:00Z", "yesterday-ish", "10/21/2025"]
)
def test_bad_dates_are_time_invalid(bad):
    result = validate({"op": "Encode", "args": {"payload": {"text": "x"}, "time": bad}})
    assert ("time.invalid", "/args/time") in rules_at(result)


def test_absurd_sizes_are_refused_with_limits():
    limits = Limits(max_bytes=1000, max_string=50, max_items=5)
    assert "json.too_large" in {d.rule for d in validate("[" + " " * 2000 + "]", limits=limits).errors}
    long_text = {"op": "Encode", "args": {"payload": {"text": "x" * 51}}}
    assert ("json.too_long", "/args/payload/text") in rules_at(validate(long_text, limits=limits))
    many_tags = {"op": "Encode", "args": {"payload": {"text": "x"}, "tags": list("abcdef")}}
    assert ("json.too_long", "/args/tags") in rules_at(validate(many_tags, limits=limits))


def test_deep_nesting_inside_structured_payload_is_bounded():
    deep: dict = {}
    node = deep
    for _ in range(40):
        node["x"] = {}
        node = node["x"]
    result = validate({"op": "Encode", "args": {"payload": {"structured": deep}}})
    assert "json.too_deep" in {d.rule for d in result.errors}


def test_python_values_that_are_not_json_are_reported():
    result = validate({"op": "Encode", "args": {"payload": {"text": "x"}, "time": datetime(2025, 1, 1)}})
    assert ("json.type", "/args/time") in rules_at(result)
    result = validate({"op": "Encode", "args": {"payload": {"structured": {1: "a"}}}})
    assert ("json.bad_key", "/args/payload/structured/1") in rules_at(result)


def test_input_is_never_mutated():
    ir = sample("delete_soft")
    ir["target"]["filter"].pop("limit")
    before = json.dumps(ir, sort_keys=True)
    validate(ir)
    assert json.dumps(ir, sort_keys=True) == before


def test_too_many_problems_are_summarised():
    doc = {"op": "Encode", "args": {"payload": {"structured": {f"k{i}": float("nan") for i in range(50)}}}}
    result = validate(doc)
    assert 20 <= len(result.errors) <= 22


def test_naive_now_is_a_programming_error():
    with pytest.raises(ValueError, match="timezone-aware"):
        validate(sample("encode_text"), now=datetime(2025, 1, 1))
