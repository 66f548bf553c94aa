"""`memql maintain run` and `memql serve --maintain-every`: maintenance from the shell, through the verbs —
an expired record is swept (its history says Sweep), a bad setting is a diagnostic, not a traceback."""

from __future__ import annotations

import json
import subprocess
import time

from click.testing import CliRunner
from test_cli_shell import _first_stderr_line, env

from memql.interfaces.cli import main


def _expiring(db) -> str:
    program = {"op": "Encode", "args": {"payload": {"text": "parking permit"}, "ttl": "PT1S"}}
    result = CliRunner().invoke(
        main, ["--db", str(db), "--tenant", "t", "execute", "--json"], input=json.dumps(program)
    )
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)["affected_ids"][0]


def _swept(db, record: str) -> bool:
    history = CliRunner().invoke(main, ["--db", str(db), "--tenant", "t", "history", record, "--json"])
    return "Sweep" in [h["op"] for h in json.loads(history.stdout)]


def test_maintain_run_once_sweeps_and_reports(tmp_path):
    db = tmp_path / "m.db"
    record = _expiring(db)
    time.sleep(1.2)
    result = CliRunner().invoke(
        main, ["--db", str(db), "--tenant", "t", "maintain", "run", "--once", "--json"]
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == {"swept": [record], "due": [], "promoted": None, "errors": []}
    assert _swept(db, record)
    bad = CliRunner().invoke(main, ["--db", str(db), "maintain", "run", "--once", "--webhook", "ftp://x"])
    assert (
        bad.exit_code == 2
        and "webhook must be an http(s) URL" in bad.stderr
        and "Traceback" not in bad.output
    )


def test_serve_maintains_the_tenants_that_have_keys(tmp_path, memql_shim):
    db = tmp_path / "m.db"
    created = CliRunner().invoke(
        main, ["--db", str(db), "keys", "create", "--tenant", "t", "--actor", "a", "--json"]
    )
    assert created.exit_code == 0, created.output
    record = _expiring(db)
    time.sleep(1.2)
    # the real entry point, forked from a process that imported it (conftest's memql_shim)
    command = [str(memql_shim / "memql"), "--db", str(db), "serve", "--port", "0"]
    process = subprocess.Popen(
        [*command, "--embedder", "none", "--access-log", "off", "--maintain-every", "0.2"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=env(),
    )
    try:
        _first_stderr_line(process, r"memql: REST API listening on")
        deadline = time.monotonic() + 120  # a bound for a loaded machine; it returns at once otherwise
        while not _swept(db, record) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert _swept(db, record)
    finally:
        process.terminate()
        process.wait(timeout=30)
    lone = CliRunner().invoke(main, ["--db", str(db), "serve", "--webhook", "http://127.0.0.1:9/x"])
    assert lone.exit_code == 2 and "go with --maintain-every" in lone.stderr


def test_maintain_run_stops_on_sigterm_as_on_ctrl_c(tmp_path, memql_shim):
    """SIGTERM (how systemd, Docker and Kubernetes stop a service) ended the loop unclosed (exit -15)."""
    db = tmp_path / "m.db"
    _expiring(db)
    command = [str(memql_shim / "memql"), "--db", str(db), "--tenant", "t", "maintain", "run"]
    command += ["--every", "0.1"]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env())
    try:
        _first_stderr_line(process, r"memql: maintenance every")
        time.sleep(0.3)  # a run or two
        process.terminate()
        assert process.wait(timeout=30) == 0
        assert "Traceback" not in process.stderr.read().decode()
    finally:
        if process.poll() is None:
            process.kill()
