"""An engine result as an HTTP response: `result_response` sends, in one encoding, exactly the bytes
`JSONResponse(result.to_json())` sent (to_json's dumps, loads and JSONResponse's dumps again), with the
same status and content type; a non-finite number is refused as JSONResponse refused it."""

from __future__ import annotations

import json
import math
from datetime import UTC, datetime

import pytest
from fastapi.responses import JSONResponse
from hypothesis import given, settings
from hypothesis import strategies as st

from budgets import examples
from memql import Memory
from memql.engine.result import Change, ExecutionResult
from memql.interfaces.rest.encoding import JSONResponse as MemqlJSONResponse
from memql.interfaces.rest.errors import status_for
from memql.interfaces.rest.responses import missed, result_response
from memql.lang.diagnostics import Diagnostic

# what results hold: JSON scalars (any text, finite floats), instants, bytes (never sent: null)
scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text()
    | st.datetimes(timezones=st.just(UTC))
    | st.binary(max_size=8)
)
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.tuples(inner, inner)
        | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
diagnostics = st.lists(
    st.builds(
        Diagnostic,
        path=st.text(max_size=12),
        rule=st.sampled_from(["target.not_found", "lock.locked", "permission.denied", "field.enum", "x"]),
        severity=st.sampled_from(["error", "warning"]),
        message=st.text(max_size=20),
    ),
    max_size=3,
)
results = st.builds(
    ExecutionResult,
    success=st.booleans(),
    op=st.sampled_from(["Retrieve", "Encode", "Delete", "Workflow"]),
    affected_ids=st.lists(st.text(max_size=4), max_size=3),
    data=st.dictionaries(st.sampled_from(["rows", "id", "count", "text", "é"]), values, max_size=4),
    warnings=diagnostics,
    diagnostics=diagnostics,
    dry_run=st.booleans(),
    preview=st.none() | st.lists(st.builds(Change, record_id=st.text(max_size=4), kind=st.just("update"))),
)


def old_response(result: ExecutionResult) -> JSONResponse:
    """What the REST server sent before: the dict of to_json(), dumped again by JSONResponse."""
    if not result.success:
        return JSONResponse(result.to_json(), status_code=status_for(result.diagnostics))
    return JSONResponse(result.to_json(), status_code=404 if missed(result) else 200)


def same_response(result: ExecutionResult) -> None:
    new, old = result_response(result), old_response(result)
    assert new.body == old.body
    assert new.status_code == old.status_code
    assert new.headers["content-type"] == old.headers["content-type"] == "application/json"
    assert new.headers["content-length"] == old.headers["content-length"]


@settings(max_examples=examples(400), deadline=None)
@given(results)
def test_a_result_is_sent_as_the_bytes_to_json_gave(result):
    same_response(result)


def test_real_results_are_sent_as_before(tmp_path):
    with Memory(str(tmp_path / "m.db"), tenant="acme", actor="mira", embedder=None) as m:
        first = m.encode("Standup moves to 9:30 — café ☕", tags=["team"], facets={"topic": "work"})
        same_response(first)
        same_response(m.retrieve("standup", include=["id", "text", "time", "score", "explain", "tags"]))
        same_response(m.retrieve(ids=["424242"]))  # not found: 404
        same_response(m.execute({"op": "Delete", "target": {"ids": [first.id]}, "args": {}}, dry_run=True))
        same_response(m.execute([{"op": "Retrieve", "args": {"query": "café"}}, {"op": "Bogus"}]))  # 422


def test_a_non_finite_number_is_refused_as_before():
    result = ExecutionResult(success=True, op="Retrieve", data={"score": math.nan})
    with pytest.raises(ValueError):
        old_response(result)
    with pytest.raises(ValueError):
        result_response(result)


def test_instants_are_written_as_canonical_utc():
    result = ExecutionResult(
        success=True, op="Retrieve", data={"at": datetime(2026, 11, 26, 9, 30, tzinfo=UTC)}
    )
    assert result.to_json_text() == (
        '{"success":true,"op":"Retrieve","affected_ids":[],"data":{"at":"2026-11-26T09:30:00Z"},'
        '"warnings":[],"diagnostics":[],"dry_run":false,"stats":{"elapsed_ms":0.0,"llm_calls":0,"llm_tokens":0}}'
    )


def test_a_lone_surrogate_in_an_answer_is_written_as_its_escape():
    """Python holds one as a string no UTF-8 can encode: the answer failed (500) instead of being sent."""
    half = "cut \ud83d"
    result = ExecutionResult(
        success=False,
        op="Encode",
        diagnostics=[Diagnostic(path="/x", rule="field.unknown", severity="error", message=half)],
    )
    sent = result_response(result)
    assert b"cut \\ud83d" in sent.body and json.loads(sent.body)["diagnostics"][0]["message"] == half
    framed = MemqlJSONResponse({"message": half, "emoji": "\U0001f600"})
    assert json.loads(framed.body) == {"message": half, "emoji": "\U0001f600"}
    assert framed.body == JSONResponse({"message": "x", "emoji": "\U0001f600"}).body.replace(
        b'"x"', b'"cut \\ud83d"'
    )
