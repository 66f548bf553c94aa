"""SQLite's read transactions in a file store: WAL, and a Retrieve that answers while a plain sqlite3
connection of its own holds the file's write lock (BEGIN IMMEDIATE) — the case of readers in other
processes beside a writer."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from datetime import UTC, datetime

from memql import Memory
from memql.store.sqlite import SQLiteStore


def test_a_file_store_is_in_wal_mode(tmp_path):
    store = SQLiteStore(str(tmp_path / "m.db"))
    try:
        assert store.execute_sql("PRAGMA journal_mode")[0][0] == "wal"
    finally:
        store.close()


def test_retrieve_answers_while_another_connection_holds_the_write_lock(tmp_path):
    path = str(tmp_path / "m.db")
    m = Memory(path, tenant="t", actor="alice", clock=datetime(2026, 3, 4, tzinfo=UTC), embedder=None)
    try:
        rid = m.encode("the night bus runs hourly").affected_ids[0]
        other = sqlite3.connect(path, isolation_level=None, timeout=0)
        try:
            other.execute("BEGIN IMMEDIATE")  # the write lock, held until the end of the test's reads
            other.execute("UPDATE records SET weight = 0.9")
            found = m.retrieve("night bus", include=["id", "weight", "visits"])
            assert found.success, found.diagnostics
            assert found.data["rows"] == [{"id": rid, "weight": 0.5, "visits": 0}]
            again = m.retrieve(ids=[rid], include=["visits"])
            assert again.data["rows"] == [{"visits": 1}]  # the first read counted, though not yet written
            assert m.history(rid)[0]["change"] == "insert"  # history is a read too
            other.execute("ROLLBACK")
        finally:
            other.close()
    finally:
        m.close()
    reopened = SQLiteStore(path)
    try:
        assert [tuple(r) for r in reopened.execute_sql("SELECT num, visits FROM records")] == [(int(rid), 2)]
    finally:
        reopened.close()


def test_a_process_that_exits_without_closing_still_records_its_reads(tmp_path):
    path = str(tmp_path / "m.db")
    m = Memory(path, tenant="t", actor="alice", clock=datetime(2026, 3, 4, tzinfo=UTC), embedder=None)
    rid = m.encode("the night bus runs hourly").affected_ids[0]
    m.close()
    script = (
        "import sys; from memql import Memory; "
        "m = Memory(sys.argv[1], tenant='t', actor='alice', embedder=None); "
        "assert m.retrieve(ids=[sys.argv[2]]).data['count'] == 1"  # and exit: no close
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    subprocess.run([sys.executable, "-c", script, path, rid], check=True, env=env)
    reopened = SQLiteStore(path)
    try:
        rows = reopened.execute_sql("SELECT visits FROM records")
        assert [r[0] for r in rows] == [1]
        ops = reopened.execute_sql("SELECT op FROM operations ORDER BY seq")
        assert [r[0] for r in ops] == ["Encode", "Retrieve"]
    finally:
        reopened.close()
