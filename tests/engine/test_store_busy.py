"""A write whose wait for another connection's lock runs out is refused with `store.busy` -- a state of a
shared store, not a defect (`exec.internal`) -- and changes nothing; reads go on meanwhile; once the lock
is released the same write succeeds. On both backends: SQLite's write lock (its busy timeout), PostgreSQL's
writer lock of the tenant (its lock_timeout, set per connection)."""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import psycopg
import pytest

from memql import Memory
from memql.store.postgres import PostgresStore, split_url
from memql.store.sqlite import SQLiteStore

WAIT_MS = 300  # the tests' wait for a lock, instead of 30 s


@contextmanager
def lock_held(location: str, tenant: str) -> Iterator[None]:
    """Another connection holds what a write of `tenant` needs: SQLite's write lock, or on PostgreSQL the
    tenant's writer lock (the advisory lock memql's write transactions take)."""
    if location.startswith("postgresql://"):
        dsn, schema = split_url(location)
        with psycopg.connect(dsn) as conn:
            conn.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", (f"{schema}/{tenant}",))
            yield
            conn.rollback()
    else:
        conn = sqlite3.connect(location, isolation_level=None)
        try:
            conn.execute("BEGIN IMMEDIATE")
            yield
            conn.execute("ROLLBACK")
        finally:
            conn.close()


@pytest.fixture
def short_waits(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(SQLiteStore, "busy_timeout_ms", WAIT_MS)
    monkeypatch.setattr(PostgresStore, "lock_timeout_ms", WAIT_MS)


def test_a_write_waiting_past_the_timeout_is_refused_as_busy_and_changes_nothing(new_location, short_waits):
    location = new_location()
    with Memory(location, tenant="acme", actor="mira", embedder=None) as m:
        first = m.encode("the ferry leaves at nine").affected_ids[0]
        with lock_held(location, "acme"):
            refused = m.encode("the ferry leaves at ten")
            assert not refused.success
            assert [(d.rule, d.path) for d in refused.diagnostics] == [("store.busy", "")]
            assert "try again" in refused.diagnostics[0].message
            flow = m.execute(
                {
                    "workflow": [
                        {"op": "Encode", "args": {"payload": {"text": "a note"}}},
                        {"op": "Label", "target": {"ids": [first]}, "args": {"tags": ["ferry"]}},
                    ]
                }
            )
            assert not flow.success and flow.failed_step == 0
            assert flow.diagnostics[0].rule == "store.busy"
            # reads take no write lock: they go on beside the writer that holds it
            found = m.retrieve(query="ferry", k=5)
            assert found.success and found.affected_ids == [first]
        rows = m.retrieve(query="ferry", k=5, include=["text", "tags"]).data["rows"]
        assert rows == [{"text": "the ferry leaves at nine", "tags": []}]  # nothing of the refused writes
        again = m.encode("the ferry leaves at ten")  # the lock released: the same write goes through
        assert again.success and again.affected_ids == [str(int(first) + 1)]


def test_the_cli_says_busy_and_exits_1_whether_the_engine_or_a_direct_write_met_it(tmp_path, short_waits):
    from click.testing import CliRunner

    from memql.interfaces.cli import main

    location = str(tmp_path / "store.db")
    runner = CliRunner()
    assert runner.invoke(main, ["--db", location, "encode", "the ferry leaves at nine"]).exit_code == 0
    with lock_held(location, "default"):
        program = runner.invoke(main, ["--db", location, "encode", "--json", "the ferry leaves at ten"])
        key = runner.invoke(main, ["--db", location, "keys", "create", "--tenant", "acme", "--actor", "mira"])
    assert program.exit_code == 1 and '"rule": "store.busy"' in program.output
    assert key.exit_code == 1 and "[store.busy]" in key.output and "Traceback" not in key.output
    again = runner.invoke(main, ["--db", location, "keys", "create", "--tenant", "acme", "--actor", "mira"])
    assert again.exit_code == 0, again.output


def test_a_write_waiting_for_the_lock_goes_through_once_it_is_released(new_location, short_waits):
    """The wait ends with the lock's release, however many tries it took (on SQLite memql's own tries,
    `begin_write`, rather than SQLite's busy handler, which slept up to 100 ms between them)."""
    location = new_location()
    with Memory(location, tenant="acme", actor="mira", embedder=None) as m:
        m.encode("the ferry leaves at nine")
        held, release = threading.Event(), threading.Event()

        def hold() -> None:
            with lock_held(location, "acme"):
                held.set()
                release.wait(5)

        holder = threading.Thread(target=hold)
        holder.start()
        held.wait(5)
        threading.Timer(WAIT_MS / 3000, release.set).start()  # released a third of the way into the wait
        began = time.monotonic()
        written = m.encode("the ferry leaves at ten")
        holder.join()
        assert written.success, written.diagnostics
        assert time.monotonic() - began >= WAIT_MS / 3000 * 0.9  # it did wait for the release
        assert m.retrieve(query="ferry", k=5).data["count"] == 2
