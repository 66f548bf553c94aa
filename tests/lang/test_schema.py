"""The JSON Schema, generated from the models, is valid Draft 2020-12 and accepts every canonical output."""

from __future__ import annotations

import copy

import pytest
from ir_samples import VALID, WORKFLOW
from jsonschema import Draft202012Validator

from memql.lang import OPS, json_schema, validate
from memql.lang.ops import SYSTEM_OPS


@pytest.fixture(scope="module")
def program_validator() -> Draft202012Validator:
    schema = json_schema("program")
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def test_schema_declares_draft_2020_12():
    for kind in ("program", "ir", "workflow"):
        schema = json_schema(kind)
        assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
        Draft202012Validator.check_schema(schema)


def _ops_in(schema: dict) -> set[str]:
    return {
        d["properties"]["op"]["const"] for d in schema["$defs"].values() if "op" in d.get("properties", {})
    }


def test_schema_covers_all_twelve_verbs():
    assert _ops_in(json_schema("ir")) == set(OPS) | set(SYSTEM_OPS)
    assert _ops_in(json_schema("ir", system_verbs=False)) == set(OPS)  # what a planner may produce


@pytest.mark.parametrize("name", sorted(VALID))
def test_canonical_samples_validate_against_the_schema(program_validator, name):
    canonical = validate(VALID[name]).canonical
    errors = list(program_validator.iter_errors(canonical))
    assert not errors, [e.message for e in errors]


def test_canonical_workflow_validates_against_the_schema(program_validator):
    canonical = validate(copy.deepcopy(WORKFLOW)).canonical
    assert not list(program_validator.iter_errors(canonical))


def test_schema_rejects_what_the_language_rejects(program_validator):
    assert list(
        program_validator.iter_errors(
            {"op": "Encode", "stage": "ENC", "args": {"payload": {"text": "x"}, "bogus": 1}}
        )
    )
    assert list(program_validator.iter_errors({"op": "Teleport", "stage": "STO"}))
