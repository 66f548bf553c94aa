"""memql-v1 on both backends: the runner's assertions are SQLite SQL over the `memory` view, so on
PostgreSQL the set is checked by running the same prerequisites and gold program and requiring the same
post-state (every record's fields in the view) and a passing ranking check. The default run takes the
first scenario of every form, alternating the language; MEMQL_BENCHSET_FULL=1 takes every sample."""

from __future__ import annotations

import json
import os
from datetime import datetime

import pytest

from memql import Memory
from memql.bench import sets, text2mem

COLUMNS = (
    "id, text, type, tags, facets, weight, deleted, status, lock_mode, expire_at, on_expire, remind, "
    + ("next_remind_at, time")
)


def _slice() -> list[dict]:
    samples = list(text2mem.load_samples(sets.path("memql-v1")))
    if os.environ.get("MEMQL_BENCHSET_FULL") == "1":
        return samples
    firsts = [s for s in samples if s["scenario"].endswith("-01")]
    forms = list(dict.fromkeys(s["id"].split("-", 2)[2] for s in firsts))  # instruction-structure-scenario
    langs = {form: ("en", "zh")[n % 2] for n, form in enumerate(forms)}
    return [s for s in firsts if s["class"]["lang"] == langs[s["id"].split("-", 2)[2]]]


SLICE = _slice()


def _value(value):
    if isinstance(value, datetime):
        return value.strftime("%Y-%m-%dT%H:%M:%SZ")
    if isinstance(value, str) and value[:1] in "[{":
        return json.loads(value)
    if isinstance(value, float):
        return round(value, 6)
    return value


def _run(sample: dict, location: str) -> tuple[list[dict], list[str] | None]:
    steps = sample["schema_list"]
    with Memory(location, tenant="bench", actor="bench", clock=text2mem._eval_clock(sample)) as memory:
        for ir in sample["prerequisites"]:
            assert memory.execute(ir).success
        done = memory.execute(steps if len(steps) > 1 else steps[0])
        assert done.success, (sample["id"], done.diagnostics)
        postgres = location != ":memory:"
        sql = f"SELECT {COLUMNS} FROM memory WHERE tenant = " + (
            "%s ORDER BY id::int" if postgres else "? ORDER BY CAST(id AS INTEGER)"
        )
        rows = [dict(row) for row in memory.store.execute_sql(sql, ("bench",))]
        ranked = text2mem._ranked_ids(done, steps, int(sample["expected"]["meta"]["step_index"]))
    return [{k: _value(v) for k, v in row.items()} for row in rows], ranked


@pytest.mark.parametrize("sample", SLICE, ids=[s["id"] for s in SLICE])
def test_postgres_reaches_the_same_post_state(sample):
    from pgtest import fresh_location

    expected, _ = _run(sample, ":memory:")
    state, ranked = _run(sample, fresh_location())
    assert state == expected
    if sample["expected"]["ranking"]:
        assert text2mem.check_ranking(sample["expected"]["ranking"], ranked or []).passed, ranked


def test_the_slice_covers_every_form_and_both_languages():
    assert len(SLICE) >= 80
    assert {s["class"]["lang"] for s in SLICE} == {"en", "zh"}
    assert {s["schema_list"][0]["op"] for s in SLICE} >= {"Encode", "Merge", "Split", "Lock", "Expire"}
