"""Property tests: 12,000 generated and mutated inputs per run with MEMQL_HYPOTHESIS_PROFILE=thorough
(1,150 in the default `ci` profile, tests/budgets.py); nothing escapes validate, and every valid IR
re-validates to the identical canonical form."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ir_samples import NOW
from ir_strategies import json_values, mutated_ir, valid_ir

from budgets import examples
from memql.lang import RULES, validate


def budget(n: int) -> settings:
    return settings(
        max_examples=examples(n),
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


def _assert_well_formed(result) -> None:
    assert all(d.rule in RULES for d in result.diagnostics)
    # a defect caught by validate's last resort is a diagnostic too: well formed, but never acceptable
    assert not any("internal validation error" in d.message for d in result.diagnostics), result.diagnostics
    assert all(d.path == "" or d.path.startswith("/") for d in result.diagnostics)
    if result.valid:
        assert result.canonical is not None and not result.errors
    else:
        assert result.canonical is None and result.errors


@budget(4000)
@given(valid_ir())
def test_generated_irs_are_valid_and_canonical_is_a_fixed_point(ir):
    result = validate(ir, now=NOW)
    assert result.valid, (ir, result.diagnostics)
    again = validate(result.canonical, now=NOW)
    assert again.valid
    assert again.canonical == result.canonical
    assert validate(json.dumps(result.canonical), now=NOW).canonical == result.canonical


@budget(5000)
@given(mutated_ir())
def test_mutated_irs_never_raise(doc):
    result = validate(doc, now=NOW)
    _assert_well_formed(result)
    if result.valid:
        assert validate(result.canonical, now=NOW).canonical == result.canonical


@budget(2000)
@given(json_values)
def test_arbitrary_json_values_never_raise(value):
    _assert_well_formed(validate(value))


@budget(1000)
@given(st.one_of(st.text(max_size=200), st.binary(max_size=200)))
def test_arbitrary_text_and_bytes_never_raise(data):
    _assert_well_formed(validate(data, strict=True))
