"""Crash safety: a process killed with SIGKILL leaves no partial effect.

A process of its own (helpers_durability.run_crash) opens a file store and runs a program; its on_step
callback writes a marker file and sleeps. The test waits for the marker, checks that the process holds the
write transaction (or, between two IRs, that it does not), kills it with SIGKILL, reopens the file
with a new Memory and compares every table with the state before the process started.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from helpers_durability import CRASH_WORKFLOW, FIRST_IR, STOP_AFTER_STEP, run_crash_logged, second_ir
from test_concurrency import fork_context

from memql import Memory

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs SIGKILL")

TABLES = {
    "records": "SELECT * FROM records ORDER BY num",
    "records_fts": "SELECT rowid, body FROM records_fts ORDER BY rowid",
    "links": "SELECT * FROM links ORDER BY tenant, src, dst, relation",
    "operations": "SELECT * FROM operations ORDER BY seq",
    "events": "SELECT * FROM events ORDER BY seq",
    "sqlite_sequence": "SELECT * FROM sqlite_sequence ORDER BY name",
}


def dump(db: Path) -> dict[str, list[tuple]]:
    """Every table of the store, read through a plain connection (the file as a crash leaves it)."""
    conn = sqlite3.connect(db)
    try:
        return {name: [tuple(row) for row in conn.execute(sql)] for name, sql in TABLES.items()}
    finally:
        conn.close()


def count(m: Memory, sql: str, *params: object) -> int:
    return m.store.execute_sql(sql, params)[0][0]


def write_lock_held(db: Path) -> bool:
    """True when another connection holds the write lock (BEGIN IMMEDIATE fails without waiting)."""
    conn = sqlite3.connect(db, timeout=0, isolation_level=None)
    try:
        conn.execute("BEGIN IMMEDIATE")
    except sqlite3.OperationalError as exc:
        assert "locked" in str(exc)
        return True
    finally:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        conn.close()
    return False


def run_until_marker(mode: str, db: Path, marker: Path) -> tuple[Any, dict]:
    """Start the helper and wait until it has written the marker (and is sleeping in its callback). The
    helper is a process forked from the fork server the concurrency tests' workers come from
    (test_concurrency.fork_context: memql imported once, not a second of CPU per helper); what it prints
    goes to a log beside the marker, shown if it exits early."""
    log = marker.with_suffix(".log")
    proc = fork_context().Process(target=run_crash_logged, args=(mode, str(db), str(marker), str(log)))
    proc.start()
    deadline = time.monotonic() + 60
    while not marker.exists():
        if not proc.is_alive():
            proc.join()
            output = log.read_text() if log.exists() else ""
            pytest.fail(f"helper exited with {proc.exitcode} before the marker:\n{output}")
        if time.monotonic() > deadline:
            proc.kill()
            pytest.fail("helper never wrote the marker")
        time.sleep(0.01)
    return proc, json.loads(marker.read_text())


def kill(proc: Any) -> None:
    os.kill(proc.pid, signal.SIGKILL)
    proc.join(timeout=30)
    assert proc.exitcode == -signal.SIGKILL


@pytest.fixture
def seeded(tmp_path: Path) -> Path:
    """A file store with three committed records (ids 1-3), closed again."""
    db = tmp_path / "crash.db"
    with Memory(db, tenant="A", actor="alice") as m:
        for text, tags in (("seed one about maps", ["seed"]), ("seed two about tents", ["seed"])):
            assert m.encode(text, tags=tags).success
        assert m.encode("seed three about stoves", weight=0.4).success
    return db


def test_sigkill_in_the_middle_of_a_workflow_leaves_no_partial_effect(seeded: Path, tmp_path: Path) -> None:
    assert len(CRASH_WORKFLOW) >= 10 and 0 < STOP_AFTER_STEP < len(CRASH_WORKFLOW) - 1
    before = dump(seeded)
    proc, progress = run_until_marker("workflow", seeded, tmp_path / "marker.json")
    try:
        # the kill lands mid-transaction: steps 0..k ran (and created records 4..7) but nothing committed
        steps = progress["steps"]
        assert [s["index"] for s in steps] == list(range(STOP_AFTER_STEP + 1))
        assert all(s["success"] for s in steps)
        assert [s["affected_ids"] for s in steps[:4]] == [["4"], ["5"], ["6"], ["7"]]
        assert write_lock_held(seeded)
        assert dump(seeded) == before  # readers never see the open transaction
    finally:
        kill(proc)

    after = dump(seeded)
    assert after == before  # byte-for-byte the pre-crash tables: records, index, links, audit log

    with Memory(seeded, tenant="A", actor="alice") as m:
        assert [tuple(r) for r in m.store.execute_sql("PRAGMA integrity_check")] == [("ok",)]
        assert count(m, "SELECT COUNT(*) FROM records") == 3
        assert count(m, "SELECT COUNT(*) FROM records WHERE text LIKE 'crash note%'") == 0
        assert count(m, "SELECT COUNT(*) FROM operations") == 3
        assert count(m, "SELECT COUNT(*) FROM operations WHERE workflow_id IS NOT NULL") == 0
        assert count(m, "SELECT COUNT(*) FROM operations WHERE actor = 'crasher'") == 0
        assert count(m, "SELECT COUNT(*) FROM events") == 3
        assert count(m, "SELECT COUNT(*) FROM events WHERE record_id NOT IN ('1', '2', '3')") == 0
        # the workflow's writes on records committed before it are gone too
        seeds = {r["id"]: r for r in m.retrieve(ids=["1", "2", "3"]).data["rows"]}
        assert {i: (r["weight"], r["tags"], r["status"]) for i, r in seeds.items()} == {
            "1": (0.5, ["seed"], "active"),
            "2": (0.5, ["seed"], "active"),
            "3": (0.4, [], "active"),
        }
        assert m.retrieve("crash harbours").data["rows"] == []
        assert [len(m.history(i)) for i in ("1", "2", "3", "4", "5")] == [1, 1, 1, 0, 0]

        # the store works: the next id follows the committed ones, and the same workflow now commits
        new = m.encode("after the crash")
        assert new.success and new.id == "4"
        rerun = m.execute(CRASH_WORKFLOW)
        assert rerun.success, rerun.diagnostics
        assert [s.affected_ids for s in rerun.steps[:4]] == [["5"], ["6"], ["7"], ["8"]]
        assert count(m, "SELECT COUNT(*) FROM records WHERE text LIKE 'crash note%'") == 5
        workflow_id = rerun.data["workflow_id"]
        assert count(m, "SELECT COUNT(*) FROM operations WHERE workflow_id = ?", workflow_id) == len(
            CRASH_WORKFLOW
        )


@pytest.mark.parametrize("mode", ["between", "inside_second"])
def test_sigkill_after_a_committed_ir_keeps_it_whole(seeded: Path, tmp_path: Path, mode: str) -> None:
    """Killed after the first IR committed — before the second began, or inside its transaction."""
    before = dump(seeded)
    proc, state = run_until_marker(mode, seeded, tmp_path / "marker.json")
    try:
        assert state == {"first_success": True, "first_id": ["4"]}
        assert write_lock_held(seeded) == (mode == "inside_second")
    finally:
        kill(proc)

    after = dump(seeded)
    # exactly the first IR's rows were added: one record, its index entry, one operation, one event
    grown = [t for t in TABLES if t != "sqlite_sequence"]
    for table in grown:
        assert after[table][: len(before[table])] == before[table], table
    added = {table: after[table][len(before[table]) :] for table in grown}
    sequences = {**dict(before["sqlite_sequence"]), "records": 4, "operations": 4, "events": 4}
    assert dict(after["sqlite_sequence"]) == sequences
    rows_added = [len(added[t]) for t in ("records", "records_fts", "links", "operations", "events")]
    assert rows_added == [1, 1, 0, 1, 1]

    with Memory(seeded, tenant="A", actor="alice") as m:
        assert [tuple(r) for r in m.store.execute_sql("PRAGMA integrity_check")] == [("ok",)]
        (row,) = m.retrieve(ids="4").data["rows"]
        assert (row["text"], row["tags"], row["weight"], row["status"]) == (
            FIRST_IR["args"]["payload"]["text"],
            ["first"],
            0.7,
            "active",
        )
        assert [r["id"] for r in m.retrieve("anchors").data["rows"]] == ["4"]  # the index entry committed
        (event,) = m.history("4")
        assert (event["op"], event["change"], event["actor"]) == ("Encode", "insert", "crasher")
        assert count(m, "SELECT COUNT(*) FROM operations WHERE op = 'Label'") == 0  # the second IR: absent
        assert m.encode("next one").id == "5"
        assert m.execute(second_ir("4")).success  # and the second IR runs on the reopened store
        assert m.retrieve(ids="4").data["rows"][0]["tags"] == ["first", "second"]
