"""`memql bench locomo --budget`: contexts assembled through the conversation API, scored by evidence
recall, on the project's LoCoMo-shaped fixture (and on PostgreSQL)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from memql.bench import locomo, locomo_context
from memql.cognition.conversation import registry
from memql.interfaces.cli import bench_locomo, main  # noqa: F401  (importing registers the command)

MINI = Path(__file__).parent / "fixtures" / "locomo-mini.json"


def test_contexts_are_scored_against_evidence_per_budget():
    conversations, _ = locomo.load(MINI)
    run = locomo_context.evaluate_mode(conversations, "flat", [30, 400])
    assert run.turns == 9 and run.write_llm_calls == 0
    assert len(run.results) == 2 * 10  # every question at every budget, none dropped
    by = {(r.question.question, r.budget): r for r in run.results}
    marathon = by[("Where did Ada run a half marathon?", 400)]
    assert "D2:2" in marathon.source_ids and marathon.recall() == 1.0
    kiln = by[("What came out of the kiln?", 400)]
    assert kiln.recall() == 0.5  # its evidence "D" names no turn: a miss in the denominator
    assert by[("Is Ada an outdoors person?", 400)].recall() is None  # no evidence: no recall
    for r in run.results:
        assert r.tokens <= r.budget
        assert all(s.startswith("D") for s in r.source_ids)
    chen = by[("Did Chen adopt a greyhound?", 400)]
    assert set(chen.source_ids) <= {"D1:1", "D1:2"}  # its own conversation's turns only
    small = [r.tokens for r in run.results if r.budget == 30]
    assert max(small) <= 30 and sum(small) < sum(r.tokens for r in run.results if r.budget == 400)


def test_report_shape_curve_and_headline_budget():
    report = locomo_context.run(MINI, ["flat", "hybrid"], [4000, 60, 500])
    assert report["budget"] == 500 and report["budgets"] == [60, 500, 4000]  # the largest <= 2000
    assert report["mode"] == "flat" and report["setting"] == "offline"
    assert 0 < report["recall"] <= 1 and set(report["by_category"]) == {"1", "2", "3", "4", "5"}
    assert report["questions"] == 10 and report["headline_questions"] == 8 and report["no_evidence"] == 1
    assert report["llm_calls"] == {"write_per_turn": 0.0, "read_per_question": 0.0, "write": 0, "read": 0}
    assert report["context_tokens"] <= report["max_context_tokens"] <= 500
    assert set(report["curve"]) == {"flat", "hybrid"}
    points = report["curve"]["flat"]
    assert [p["budget"] for p in points] == [60, 500, 4000]
    assert points[0]["recall"] <= points[1]["recall"] and points[0]["context_tokens"] <= 60
    assert set(report["modes"]) == {"flat", "hybrid"} and report["ingest_s"] > 0
    with pytest.raises(ValueError):
        locomo_context.run(MINI, ["graph"], [100])
    with pytest.raises(ValueError):
        locomo_context.run(MINI, ["flat"], [0])
    assert locomo_context.headline_budget([4000, 8000]) == 4000


def test_cli_budget_json_is_the_issue_shape_and_k_mode_is_unchanged():
    args = ["bench", "locomo", "--data", str(MINI), "--limit-conversations", "1"]
    result = CliRunner().invoke(main, [*args, "--budget", "200", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert isinstance(report["recall"], float)
    assert set(report) >= {"recall", "by_category", "context_tokens", "llm_calls", "curve", "ingest_s"}
    assert set(report["llm_calls"]) >= {"write_per_turn", "read_per_question"}
    assert report["questions"] == 8
    several = json.loads(CliRunner().invoke(main, [*args, "--budget", "100,200", "--json"]).stdout)
    assert [p["budget"] for p in several["curve"]["flat"]] == [100, 200]
    classic = json.loads(CliRunner().invoke(main, [*args, "--k", "1,10", "--json"]).stdout)
    assert set(classic["recall"]) == {"1", "10"}  # without --budget: recall@k as before
    for bad in (["--budget", "0"], ["--budget", "x"], ["--mode", "graph"], ["--mode", "hybrid"], ["--llm"]):
        assert CliRunner().invoke(main, [*args, *bad]).exit_code == 2, bad


def test_cli_compares_ingest_with_and_without_extraction_in_one_run():
    args = ["bench", "locomo", "--data", str(MINI), "--limit-conversations", "1", "--budget", "200"]
    result = CliRunner().invoke(main, [*args, "--extractor", "none,rules", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert list(report["modes"]) == ["flat", "flat+rules"]
    for run in report["modes"].values():
        assert run["ingest_turns_per_s"] > 0 and isinstance(run["recall"], float)
    assert report["mode"] == "flat"  # the headline stays the run without extraction
    for bad in (["--extractor", "llm"], ["--extractor", ""]):
        assert CliRunner().invoke(main, [*args, *bad]).exit_code == 2, bad
    no_budget = ["bench", "locomo", "--data", str(MINI), "--extractor", "rules"]
    assert CliRunner().invoke(main, no_budget).exit_code == 2


def test_cli_names_an_absent_strategy(monkeypatch):
    monkeypatch.setitem(registry.STRATEGIES, "ladder", ("memql.cognition.conversation.no_such_module", "X"))
    monkeypatch.delenv("MEMQL_LLM_BASE_URL", raising=False)
    result = CliRunner().invoke(
        main, ["bench", "locomo", "--data", str(MINI), "--budget", "100", "--mode", "ladder"]
    )
    assert result.exit_code == 2
    assert "conversation.strategy_unavailable" in result.output


def test_the_context_bench_runs_on_postgresql():
    from pgtest import server_dsn

    conversations, _ = locomo.load(MINI)
    on_pg = locomo_context.evaluate_mode(conversations, "flat", [200], db=server_dsn())
    in_memory = locomo_context.evaluate_mode(conversations, "flat", [200])
    assert [r.source_ids for r in on_pg.results] == [r.source_ids for r in in_memory.results]
