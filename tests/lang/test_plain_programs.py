"""`validate_program` (memql.lang.plain), the validator every `execute` of decoded JSON goes through,
against validate() on the same input: one Encode IR, a list of them, {"workflow": [...]} — plain,
near-plain and other programs. Same verdict and diagnostics, same canonical form (key order too), same
model instances; where it builds the result itself, validate() accepts the input without a word."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from ir_samples import NOW
from plain_checks import assert_same_result, same
from test_plain import budget, near_plain_ir, plain_ir

from memql import Memory
from memql.lang import Limits, validate
from memql.lang.plain import plain_workflow, validate_program
from run_results import run_free


def agree(source: Any, *, strict: bool = False, limits: Limits | None = None) -> bool:
    """Both validators on private copies; returns whether validate_program built the result itself."""
    limits = limits or Limits()
    before = copy.deepcopy(source)
    fast = validate_program(copy.deepcopy(source), now=NOW, strict=strict, limits=limits)
    full = validate(copy.deepcopy(source), now=NOW, strict=strict, limits=limits)
    assert_same_result(fast, full)
    mine = copy.deepcopy(source)
    validate_program(mine, now=NOW, strict=strict, limits=limits)
    assert same(mine, before)  # the input is left as it was given
    if type(source) is list:
        steps = source
    elif type(source) is dict and source.keys() == {"workflow"} and type(source["workflow"]) is list:
        steps = source["workflow"]
    else:
        steps = [source] if type(source) is dict else None  # one IR (a named workflow is no Encode)
    built = steps is not None and plain_workflow(steps, limits) is not None
    if built:
        assert full.valid and not full.diagnostics, full.diagnostics
    return built


def shapes(ir: st.SearchStrategy) -> st.SearchStrategy:
    """One IR, a list of them, or {"workflow": [...]} (alone, or with a name)."""
    steps = st.lists(ir, min_size=1, max_size=3)
    return st.one_of(
        ir,
        steps,
        steps.map(lambda s: {"workflow": s}),
        steps.map(lambda s: {"workflow": s, "name": "named"}),
    )


@budget(1200)
@given(shapes(plain_ir()), st.booleans())
def test_plain_programs_get_what_validate_gives(source, strict):
    built = agree(source, strict=strict)
    assert built == (type(source) is not dict or "name" not in source)  # a named workflow: validate()'s


@budget(2000)
@given(shapes(st.one_of(near_plain_ir(), plain_ir())), st.booleans())
def test_near_plain_programs_get_what_validate_gives(source, strict):
    agree(source, strict=strict)


@pytest.mark.parametrize(
    "limits",
    [Limits(max_nodes=n) for n in range(8, 20)]
    + [Limits(max_steps=n) for n in (0, 1)]
    + [Limits(max_string=n) for n in (5, 9, 15, 16, 21)]
    + [Limits(max_items=n) for n in (0, 1, 2)]
    + [Limits(max_depth=n) for n in (2, 3, 4, 5, 6)],
)
def test_the_bounds_of_one_ir_and_of_a_workflow_are_hygienes(limits):
    ir = {"op": "Encode", "args": {"payload": {"text": "plain note"}, "tags": ["a", "b"], "type": "n"}}
    for source in (ir, [ir, ir], {"workflow": [ir]}):
        agree(source, limits=limits)


def test_text_other_ops_and_odd_values_go_to_validate():
    encode = {"op": "Encode", "args": {"payload": {"text": "plain"}}}
    for source in (
        json.dumps(encode),
        json.dumps(encode).encode(),
        {"op": "Retrieve", "target": {"all": True}},
        {"workflow": "not a list"},
        {"workflow": []},
        [],
        None,
        7,
        [encode, {"op": "Delete", "target": {"ids": ["1"]}}],
    ):
        agree(source)


def test_a_naive_now_is_refused_as_validate_refuses_it():
    encode_ir = encode("plain")
    for check in (validate, validate_program):
        with pytest.raises(ValueError, match="timezone-aware"):
            check(encode_ir, now=NOW.replace(tzinfo=None))


def test_execute_takes_the_plain_path_with_the_same_outcome(monkeypatch):
    """Memory.encode and execute of decoded Encodes run through validate_program: the records, results
    and audit entries are what validate()'s path gives."""
    import memql.engine.executor as executor

    calls: list[Any] = []

    def run(validator) -> list[Any]:
        def counted(source: Any, **options: Any) -> Any:
            calls.append(source)
            return validator(source, **options)

        monkeypatch.setattr(executor, "validate_program", counted)
        with Memory(":memory:", tenant="t", actor="alice", clock=NOW, embedder="none") as m:
            results = [
                m.encode("Dentist on Friday", tags=["health"], facets={"topic": "care"}).to_json(),
                m.execute([encode("two"), encode("three", weight=0.25), encode("two")]).to_json(),  # a dedupe
                m.execute(encode(" ")).to_json(),  # refused
            ]
            results.append(m.retrieve(filter={"limit": 10}).to_json())
            return run_free([*results, *(m.history(rid) for rid in "123")])

    plain, full = run(validate_program), run(validate)
    assert plain == full
    assert len(calls) == 2 * 4  # every execute above went through it, retrieve's too
    assert [len(h) for h in plain[4:]] == [1, 1, 1]  # three records, each inserted once


def encode(text: str, **args: Any) -> dict[str, Any]:
    return {"op": "Encode", "args": {"payload": {"text": text}, **args}}
