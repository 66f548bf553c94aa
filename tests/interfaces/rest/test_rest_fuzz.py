"""Schemathesis against the live /openapi.json of `memql serve`, on both backends: every operation gets
generated requests — valid ones from the published schemas (the language's own IR schema included) and
invalid ones — and none may be answered with a 5xx or a body that is not JSON. Bounded: MAX_EXAMPLES per
operation and mode (20 with MEMQL_HYPOTHESIS_PROFILE=thorough, 10 by default: tests/budgets.py).

(Schemathesis's lazy pytest loader does not run under this pytest; its Python API drives Hypothesis here.)
"""

from __future__ import annotations

import uuid
from typing import Any

import rest_server
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode

from budgets import examples

MAX_EXAMPLES = examples(20)


# The requests drawn from a served document, in the order they were sent: (mode, case). Both backends'
# servers publish the same document, and Hypothesis (derandomize=True) draws the same requests from it for
# each, but for the string constants it mixes in from the modules loaded so far (measured: 48 of 321
# requests differ, in the text of a header or a string field). So the second backend's test in a test
# process sends the first's drawn requests, in the same order, instead of drawing them again: drawing is
# most of the test's CPU (~10 s a backend), and each server is still sent every request drawn.
_DRAWN: dict[bytes, tuple[int, list[tuple[GenerationMode, Any]]]] = {}  # and the document's operation count


def send(case, mode: GenerationMode, base: str, headers: dict[str, str], failures: list[str]) -> None:
    response = case.call(base_url=base, headers=headers, timeout=60)
    kind = response.headers.get("content-type") or [""]  # schemathesis: a list of values
    if response.status_code >= 500 or "application/json" not in kind[0]:
        failures.append(
            f"{case.method} {case.formatted_path} {mode.value} body={str(case.body)[:200]!r} "
            f"query={case.query} -> {response.status_code} {response.text[:300]}"
        )


def fuzz(operation, mode: GenerationMode, base: str, headers: dict[str, str], failures: list[str]) -> list:
    """Send the requests Hypothesis draws for `operation` in `mode`; return them, as (mode, case)."""
    drawn: list[tuple[GenerationMode, Any]] = []

    @settings(
        max_examples=MAX_EXAMPLES,
        deadline=None,
        derandomize=True,  # the same requests every run: a failure reproduces
        suppress_health_check=list(HealthCheck),
        database=None,
    )
    @given(case=operation.as_strategy(generation_mode=mode))
    def call(case) -> None:
        drawn.append((mode, case))
        send(case, mode, base, headers, failures)

    try:
        call()
    except Unsatisfiable:
        if mode is GenerationMode.POSITIVE:
            raise
        # nothing of the request can be made invalid (/healthz takes no input)
    return drawn


def test_no_generated_request_gets_a_server_error(server):
    admin = server.key(f"fuzz-{uuid.uuid4().hex[:8]}", "fuzzer", role="admin").secret
    headers = {"Authorization": f"Bearer {admin}"}  # an admin: requests go as deep as the engine lets anyone
    document = rest_server.get(f"{server.base}/openapi.json", timeout=60).content
    failures: list[str] = []
    if document in _DRAWN:  # drawn for the other backend's server in this process
        count, sent = _DRAWN[document]
        for mode, case in sent:
            send(case, mode, server.base, headers, failures)
    else:
        schema = schemathesis.openapi.from_url(f"{server.base}/openapi.json")
        operations = [result.ok() for result in schema.get_all_operations()]
        count, sent = len(operations), []
        for operation in operations:
            for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
                sent += fuzz(operation, mode, server.base, headers, failures)
        _DRAWN[document] = (count, sent)
    assert count >= 15
    assert not failures, "\n".join(failures[:20])
    requests = sum(1 for line in server.access_log.read_text().splitlines() if '"key_id"' in line)
    assert requests > 10 * count  # the fuzzer did reach the server
