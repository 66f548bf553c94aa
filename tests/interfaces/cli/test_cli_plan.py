"""`memql plan`: the plan as JSON, --execute, and the confirmation a destructive plan needs (--yes, or
the prompt at a terminal) — on SQLite and on PostgreSQL."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from memql import Memory
from memql.interfaces.cli import main, plan_cmds

NOW = "2026-03-04T10:00:00+00:00"


@pytest.fixture
def db(new_location) -> str:
    return new_location()


def run(db: str, *args: str, stdin: str | None = None):
    return CliRunner().invoke(main, ["--db", db, "--now", NOW, "plan", *args], input=stdin)


def seed(db: str) -> None:
    with Memory(db, embedder="none") as m:
        m.encode("Q2 budget draft: 1.2M", tags=["budget"])
        m.encode("Launch moved to Friday", tags=["launch"])


def state(db: str) -> list[tuple[str, list[str], bool]]:
    with Memory(db, embedder="none") as m:
        rows = m.retrieve(filter={"status": "any"}, include=["id", "tags", "lock"]).data["rows"]
    return sorted((r["id"], r["tags"], r["lock"] is not None) for r in rows)


def test_plan_prints_the_program_without_running_it(db):
    seed(db)
    result = run(db, "Tag the launch notes as 'urgent'", "--json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert out["program"] == {
        "stage": "STO",
        "op": "Label",
        "target": {"filter": {"has_tags": ["launch"], "limit": 100}},
        "args": {"tags": ["urgent"], "mode": "add"},
    }
    assert (out["lang"], out["destructive"], out["planner"]) == ("en", False, "rules")
    assert 0 < out["confidence"] <= 1 and "result" not in out
    assert state(db) == [("1", ["budget"], False), ("2", ["launch"], False)]


def test_execute_runs_a_plain_plan(db):
    seed(db)
    result = run(db, "给第二条记录加上'重要'标签", "--execute", "--json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert out["lang"] == "zh" and out["executed"] is True and out["result"]["affected_ids"] == ["2"]
    assert state(db)[1] == ("2", ["launch", "重要"], False)


DESTRUCTIVE = [
    ("Permanently delete record 1", [("2", ["launch"], False)]),
    (
        "Tag all my memories as 'reviewed'",
        [("1", ["budget", "reviewed"], False), ("2", ["launch", "reviewed"], False)],
    ),
    ("Lock record 1", [("1", ["budget"], True), ("2", ["launch"], False)]),
]


@pytest.mark.parametrize(("text", "after"), DESTRUCTIVE, ids=["hard delete", "all", "lock"])
def test_a_destructive_plan_needs_yes(db, text, after):
    seed(db)
    before = state(db)
    refused = run(db, text, "--execute", "--json")
    assert refused.exit_code == 1, refused.output
    out = json.loads(refused.output)
    assert out["destructive"] and out["needs_confirmation"] and not out["executed"]
    assert out["result"]["dry_run"] is True
    assert out["diagnostics"][-1]["rule"] == "plan.needs_confirmation"
    assert state(db) == before  # nothing ran
    confirmed = run(db, text, "--execute", "--yes", "--json")
    assert confirmed.exit_code == 0, confirmed.output
    assert json.loads(confirmed.output)["executed"] is True
    assert state(db) == after


@pytest.mark.parametrize(("answer", "executed"), [("n\n", False), ("y\n", True)])
def test_at_a_terminal_the_user_is_asked(db, monkeypatch, answer, executed):
    seed(db)
    monkeypatch.setattr(plan_cmds, "_interactive", lambda: True)
    result = run(db, "Permanently delete record 1", "--execute", stdin=answer)
    assert "Execute it?" in result.output
    assert result.exit_code == (0 if executed else 1), result.output
    assert [r[0] for r in state(db)] == (["2"] if executed else ["1", "2"])


def test_a_clarification_exits_1_and_names_what_is_missing(db):
    seed(db)
    result = run(db, "Delete everything", "--execute", "--yes", "--json")
    assert result.exit_code == 1
    out = json.loads(result.output)
    assert out["program"] is None
    assert out["diagnostics"][0]["rule"] == "plan.clarify"
    assert out["diagnostics"][0]["message"].startswith("missing target")
    assert len(state(db)) == 2


def test_an_unknown_language_is_a_usage_error(db):
    assert run(db, "Delete record 1", "--lang", "fr").exit_code == 2
