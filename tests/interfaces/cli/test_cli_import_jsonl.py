"""`memql import --format jsonl`: JSON Lines of Encodes as one bulk write (Memory.import_jsonl), against a
store on every backend."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from memql import Memory
from memql.interfaces.cli import main

NOW = "2026-03-04T10:00:00+00:00"


@pytest.fixture
def store(new_location) -> str:
    return new_location()


def run(db: str, *args: str, stdin: str | None = None):
    return CliRunner().invoke(
        main, ["--db", db, "--tenant", "t", "--actor", "alice", "--now", NOW, *args], input=stdin
    )


def _rows(db: str) -> list[dict]:
    with Memory(db, tenant="t", actor="alice", embedder="none") as m:
        return m.retrieve(include=["text", "type", "tags"]).data["rows"]


LINES = [
    json.dumps({"op": "Encode", "args": {"payload": {"text": "an IR"}, "tags": ["a"]}}),
    "",  # blank lines are skipped
    json.dumps({"payload": {"text": "an Encode's args"}, "type": "task"}),
    json.dumps("a bare text"),
    json.dumps("a bare text"),  # a repeat: the first record again
]


def test_jsonl_lines_are_imported_as_one_bulk_write(store, tmp_path):
    path = tmp_path / "notes.jsonl"
    path.write_text("\n".join(LINES) + "\n", encoding="utf-8")
    result = run(store, "import", str(path), "--format", "jsonl", "--batch-size", "2", "--json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert (out["success"], out["steps"], out["affected_ids"]) == (True, 4, ["1", "2", "3"])
    rows = _rows(store)
    assert sorted((r["text"], r.get("type"), r.get("tags")) for r in rows) == [
        ("a bare text", None, []),
        ("an Encode's args", "task", []),
        ("an IR", None, ["a"]),
    ]
    history = json.loads(run(store, "history", "3", "--json").output)
    assert [entry["op"] for entry in history] == ["Encode"]


def test_a_bad_line_imports_nothing_and_names_its_step(store):
    lines = [json.dumps("fine"), json.dumps({"payload": {"text": "x"}, "weight": 3})]
    result = run(store, "import", "-", "--format", "jsonl", "--json", stdin="\n".join(lines))
    assert result.exit_code == 1
    out = json.loads(result.output)
    assert [(d["path"], d["rule"]) for d in out["diagnostics"]] == [
        ("/workflow/1/args/weight", "field.range")
    ]
    malformed = run(store, "import", "-", "--format", "jsonl", "--json", stdin='"fine"\n{nope')
    assert malformed.exit_code == 1
    (problem,) = json.loads(malformed.output)["diagnostics"]
    assert (problem["path"], problem["rule"]) == ("/workflow/1", "json.malformed")
    assert problem["message"].startswith("line 2 is not JSON")
    assert _rows(store) == []


def test_a_dry_run_commits_nothing(store):
    result = run(store, "import", "-", "--format", "jsonl", "--dry-run", "--json", stdin=json.dumps("kept?"))
    assert result.exit_code == 0 and json.loads(result.output)["dry_run"] is True
    assert _rows(store) == []
