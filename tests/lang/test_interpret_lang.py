"""Encode `interpret` and Label `infer` in the language (docs/language.md, Interpretation): optional
booleans, kept in the canonical form and the JSON Schema; a non-boolean, an interpret without a text to
read, an infer that would remove, and a Label with nothing to do are diagnostics naming the field and the
rule; a Text2Mem Label or Encode without them is unchanged."""

from __future__ import annotations

import pytest
from jsonschema import Draft202012Validator

from memql.lang import RULES, json_schema, validate

LABEL = {"op": "Label", "target": {"ids": ["3"]}}


def diagnostics(ir):
    result = validate(ir)
    assert not result.valid
    return [(d.path, d.rule) for d in result.diagnostics]


def test_interpret_and_infer_are_kept_in_the_canonical_form():
    encode = validate(
        {"op": "Encode", "args": {"payload": {"text": "Trip to Lisbon in May"}, "interpret": True}}
    )
    assert encode.canonical == {
        "stage": "ENC",
        "op": "Encode",
        "args": {"payload": {"text": "Trip to Lisbon in May"}, "interpret": True},
    }
    label = validate({**LABEL, "args": {"infer": True}})
    assert label.canonical == {**LABEL, "stage": "STO", "args": {"mode": "add", "infer": True}}
    with_tags = validate({**LABEL, "args": {"tags": ["trip"], "infer": True, "mode": "replace"}})
    assert with_tags.canonical["args"] == {"tags": ["trip"], "mode": "replace", "infer": True}
    assert validate(encode.canonical).canonical == encode.canonical  # canonical is a fixed point
    assert validate(label.canonical).canonical == label.canonical


@pytest.mark.parametrize("value", ["yes", "true", 1, 0, None, [True], {"on": True}])
def test_a_non_boolean_interpret_names_the_field(value):
    ir = {"op": "Encode", "args": {"payload": {"text": "x"}, "interpret": value}}
    if value is None:
        assert validate(ir).valid  # null is absent
        return
    assert diagnostics(ir) == [("/args/interpret", "field.type")]


@pytest.mark.parametrize("value", ["yes", 1, 0.0, ["tags"]])
def test_a_non_boolean_infer_names_the_field(value):
    assert diagnostics({**LABEL, "args": {"tags": ["a"], "infer": value}}) == [("/args/infer", "field.type")]


@pytest.mark.parametrize(
    "payload",
    [{"url": "https://example.com/a"}, {"structured": {"subject": "mira", "attribute": "a", "value": 1}}],
)
def test_interpret_needs_a_text_to_read(payload):
    assert diagnostics({"op": "Encode", "args": {"payload": payload, "interpret": True}}) == [
        ("/args/interpret", "encode.interpret")
    ]
    assert validate({"op": "Encode", "args": {"payload": payload, "interpret": False}}).valid


def test_infer_does_not_remove_and_a_label_needs_something_to_do():
    assert diagnostics({**LABEL, "args": {"infer": True, "mode": "remove", "tags": ["a"]}}) == [
        ("/args/infer", "label.infer_mode")
    ]
    for args in ({}, {"infer": False}, {"tags": [], "infer": False}):
        result = validate({**LABEL, "args": args})
        assert [(d.path, d.rule) for d in result.diagnostics] == [("/args", "label.empty")]
        assert "infer: true" in result.diagnostics[0].message
    for rule in ("encode.interpret", "label.infer_mode", "label.empty"):
        assert rule in RULES


def test_the_json_schema_describes_both_and_accepts_them():
    schema = json_schema("ir")
    defs = schema["$defs"]
    interpret = defs["EncodeArgs"]["properties"]["interpret"]
    infer = defs["LabelArgs"]["properties"]["infer"]
    assert "issue 17" in interpret["description"] and "evidence" in interpret["description"]
    assert "issue 17" in infer["description"] and "lower-case" in infer["description"]
    validator = Draft202012Validator(schema)
    assert validator.is_valid(
        {"stage": "STO", "op": "Label", "target": {"ids": ["1"]}, "args": {"infer": True}}
    )
    ok = {"stage": "ENC", "op": "Encode", "args": {"payload": {"text": "x"}, "interpret": True}}
    assert validator.is_valid(ok)
    assert not validator.is_valid({**ok, "args": {"payload": {"text": "x"}, "interpret": "yes"}})
