"""Schemathesis against the live /openapi.json of `memql serve`, on both backends: every operation gets
generated requests — valid ones from the published schemas (the language's own IR schema included) and
invalid ones — and none may be answered with a 5xx or a body that is not JSON. Bounded: MAX_EXAMPLES per
operation and mode (20 with MEMQL_HYPOTHESIS_PROFILE=thorough, 10 by default: tests/budgets.py).

(Schemathesis's lazy pytest loader does not run under this pytest; its Python API drives Hypothesis here.)
"""

from __future__ import annotations

import uuid

import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode

from budgets import examples

MAX_EXAMPLES = examples(20)


def fuzz(operation, mode: GenerationMode, headers: dict[str, str], failures: list[str]) -> None:
    @settings(
        max_examples=MAX_EXAMPLES,
        deadline=None,
        derandomize=True,  # the same requests every run: a failure reproduces
        suppress_health_check=list(HealthCheck),
        database=None,
    )
    @given(case=operation.as_strategy(generation_mode=mode))
    def call(case) -> None:
        response = case.call(headers=headers, timeout=60)
        kind = response.headers.get("content-type") or [""]  # schemathesis: a list of values
        if response.status_code >= 500 or "application/json" not in kind[0]:
            failures.append(
                f"{case.method} {case.formatted_path} {mode.value} body={str(case.body)[:200]!r} "
                f"query={case.query} -> {response.status_code} {response.text[:300]}"
            )

    try:
        call()
    except Unsatisfiable:
        if mode is GenerationMode.POSITIVE:
            raise
        # nothing of the request can be made invalid (/healthz takes no input)


def test_no_generated_request_gets_a_server_error(server):
    admin = server.key(f"fuzz-{uuid.uuid4().hex[:8]}", "fuzzer", role="admin").secret
    headers = {"Authorization": f"Bearer {admin}"}  # an admin: requests go as deep as the engine lets anyone
    schema = schemathesis.openapi.from_url(f"{server.base}/openapi.json")
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 15
    failures: list[str] = []
    for operation in operations:
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
            fuzz(operation, mode, headers, failures)
    assert not failures, "\n".join(failures[:20])
    requests = sum(1 for line in server.access_log.read_text().splitlines() if '"key_id"' in line)
    assert requests > 10 * len(operations)  # the fuzzer did reach the server
