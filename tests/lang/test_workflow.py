"""Workflows validate as a whole; steps may target the ids affected by earlier steps (from_step)."""

from __future__ import annotations

import copy

import pytest
from ir_samples import VALID, WORKFLOW

from memql.lang import Workflow, validate


def test_three_spellings_of_a_workflow_share_one_canonical_form():
    steps = WORKFLOW["workflow"]
    as_list = validate(copy.deepcopy(steps))
    as_object = validate({"workflow": copy.deepcopy(steps)})
    as_official = validate(
        {"steps": [{"name": f"step {i}", "ir": copy.deepcopy(s)} for i, s in enumerate(steps)]}
    )
    assert as_list.valid and as_object.valid and as_official.valid
    assert as_list.canonical == as_object.canonical == as_official.canonical
    assert as_list.kind == "workflow"
    assert isinstance(as_list.program, Workflow)
    assert [s["op"] for s in as_list.canonical["workflow"]] == ["Encode", "Label", "Retrieve"]


def test_workflow_meta_is_kept_and_applies_to_steps():
    result = validate(copy.deepcopy(WORKFLOW))
    assert result.canonical["meta"] == {"actor": "tester"}
    assert result.program.effective_meta(1).actor == "tester"


def test_workflow_meta_confirms_a_step_on_all():
    steps = [{"op": "Demote", "target": {"all": True}, "args": {"archive": True}}]
    assert not validate({"workflow": steps}).valid
    assert validate({"workflow": steps, "meta": {"dry_run": True}}).valid


def test_step_errors_carry_the_step_path():
    steps = copy.deepcopy(WORKFLOW["workflow"])
    steps[1]["args"]["mode"] = "sometimes"
    result = validate({"workflow": steps})
    assert [(d.rule, d.path) for d in result.errors] == [("field.enum", "/workflow/1/args/mode")]
    official = validate({"steps": [{"ir": s} for s in steps]})
    assert [d.path for d in official.errors] == ["/steps/1/ir/args/mode"]


@pytest.mark.parametrize(
    ("ref", "rule"), [(1, "workflow.ref_forward"), (2, "workflow.ref_forward"), (7, "workflow.ref_missing")]
)
def test_references_must_point_backwards(ref, rule):
    steps = copy.deepcopy(WORKFLOW["workflow"])
    steps[1]["target"]["from_step"] = ref
    result = validate(steps)
    assert [(d.rule, d.path) for d in result.errors] == [(rule, "/1/target/from_step")]


def test_from_step_may_be_narrowed_by_a_filter():
    steps = copy.deepcopy(WORKFLOW["workflow"])
    steps[2]["target"] = {"from_step": 0, "filter": {"has_tags": ["team"]}}
    assert validate(steps).valid


def test_every_failing_step_is_reported():
    steps = [{"op": "Nope"}, copy.deepcopy(VALID["encode_text"]), {"op": "Label", "target": {"ids": ["1"]}}]
    rules = [(d.rule, d.path) for d in validate(steps).errors]
    assert ("op.unknown", "/0/op") in rules and ("label.empty", "/2/args") in rules


def test_unknown_workflow_fields_and_bad_shapes():
    assert [d.rule for d in validate({"workflow": [VALID["encode_text"]], "color": "red"}).errors] == [
        "field.unknown"
    ]
    assert [d.rule for d in validate({"workflow": {"op": "Encode"}}).errors] == ["field.type"]
    assert [d.rule for d in validate({"workflow": []}).errors] == ["workflow.empty"]
    assert [d.rule for d in validate({"steps": [{"name": "x"}]}).errors] == ["field.required"]
    too_long = [copy.deepcopy(VALID["encode_text"]) for _ in range(101)]
    assert [d.rule for d in validate(too_long).errors] == ["workflow.too_long"]


def test_bench_schema_list_is_a_workflow():
    schema_list = [VALID["encode_text"], VALID["label_add"]]
    result = validate(copy.deepcopy(schema_list))
    assert result.kind == "workflow" and len(result.canonical["workflow"]) == 2
