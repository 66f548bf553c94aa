"""`memql facts get|history` on both backends: JSON results with windows and sources, the passport example
from the command line, an unknown subject as an empty result, a malformed time as a diagnostic naming
the option and a rule (exit 1), never a traceback."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from memql import Memory
from memql.interfaces.cli import facts_cmds, main


@pytest.fixture
def db(new_location) -> str:
    """A new, empty store (made, as a first write would: a read of a file that is not there is refused)."""
    location = new_location()
    Memory(location, embedder=None).close()
    return location


def run(db: str, *args: str, stdin: str | None = None, now: str = "2026-06-20T00:00:00Z"):
    return CliRunner().invoke(main, ["--db", db, "--tenant", "t", "--now", now, *args], input=stdin)


def encode(db: str, value: str, source: str, now: str) -> None:
    ir = {
        "op": "Encode",
        "args": {"payload": {"structured": {"subject": "passport", "attribute": "deadline", "value": value}}},
    }
    ir["args"]["source"] = source
    result = run(db, "exec", "-", "--json", stdin=json.dumps(ir), now=now)
    assert result.exit_code == 0, result.output


@pytest.fixture
def passport(db) -> str:
    encode(db, "2026-07-15", "e1", "2026-06-01T09:00:00Z")
    encode(db, "2026-06-30", "e2", "2026-06-10T09:00:00Z")
    return db


def test_get_answers_now_and_as_of_a_world_time(passport):
    now = run(passport, "facts", "get", "passport", "deadline", "--json")
    assert now.exit_code == 0, now.output
    (fact,) = json.loads(now.output)["facts"]
    assert fact == {
        "id": "2",
        "subject": "passport",
        "attribute": "deadline",
        "value": "2026-06-30",
        "valid_from": "2026-06-10T09:00:00Z",
        "valid_to": None,
        "source": "e2",
        "recorded_at": "2026-06-10T09:00:00Z",
        "evidence": [{"valid_from": "2026-06-10T09:00:00Z", "source": "e2"}],
        "derived_from": [],  # encoded by hand: no message it came from
    }
    then = run(passport, "facts", "get", "passport", "--as-of", "2026-06-02T00:00:00Z", "--json")
    assert [(f["value"], f["source"]) for f in json.loads(then.output)["facts"]] == [("2026-07-15", "e1")]
    known = run(passport, "facts", "get", "passport", "--recorded-at", "2026-06-05T00:00:00Z", "--json")
    assert [f["valid_to"] for f in json.loads(known.output)["facts"]] == [None]  # not yet closed then


def test_history_lists_every_value_with_its_window_and_source(passport):
    result = run(passport, "facts", "history", "passport", "deadline", "--json")
    assert result.exit_code == 0, result.output
    facts = json.loads(result.output)["facts"]
    assert [(f["value"], f["valid_from"], f["valid_to"], f["source"]) for f in facts] == [
        ("2026-07-15", "2026-06-01T09:00:00Z", "2026-06-10T09:00:00Z", "e1"),
        ("2026-06-30", "2026-06-10T09:00:00Z", None, "e2"),
    ]
    closing = run(passport, "history", "1", "--json")  # the closing is in the fact's own history
    changes = [(e["op"], e["change"], e["after"].get("valid_to")) for e in json.loads(closing.output)]
    assert ("Encode", "update", "2026-06-10T09:00:00Z") in changes


@pytest.fixture
def terminal(monkeypatch):
    """stdout as a terminal: the commands print tables and messages instead of JSON."""
    monkeypatch.setattr(facts_cmds, "wants_json", lambda flag: flag)


def test_the_human_table_shows_the_values(passport, terminal):
    result = run(passport, "facts", "history", "passport", "deadline")
    assert result.exit_code == 0 and not result.output.lstrip().startswith("{")
    assert "2026-07-15" in result.output and "e2" in result.output and "deadline" in result.output


def test_an_unknown_subject_is_an_empty_result(db):
    result = run(db, "facts", "get", "nobody", "--json")
    assert result.exit_code == 0
    assert json.loads(result.output) == {"success": True, "facts": []}
    assert json.loads(run(db, "facts", "history", "nobody", "x", "--json").output)["facts"] == []


@pytest.mark.parametrize(
    ("args", "path"),
    [
        (["get", "passport", "--as-of", "someday"], "/as_of"),
        (["history", "p", "a", "--recorded-at", "x"], "/recorded_at"),
    ],
)
def test_a_malformed_time_is_a_diagnostic_not_a_traceback(db, args, path, monkeypatch):
    result = run(db, "facts", *args, "--json")
    assert result.exit_code == 1 and "Traceback" not in result.output
    out = json.loads(result.output)
    assert out["success"] is False and [(d["path"], d["rule"]) for d in out["diagnostics"]] == [
        (path, "time.invalid")
    ]
    monkeypatch.setattr(facts_cmds, "wants_json", lambda flag: flag)
    human = run(db, "facts", *args)
    option = {"/as_of": "--as-of", "/recorded_at": "--recorded-at"}[path]
    assert human.exit_code == 1 and "time.invalid" in human.output and option in human.output
    assert "Traceback" not in human.output


def test_a_missing_argument_is_a_usage_error(db):
    result = run(db, "facts", "history", "passport")
    assert result.exit_code == 2 and "ATTRIBUTE" in result.output
