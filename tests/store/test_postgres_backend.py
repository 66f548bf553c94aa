"""What is particular to the PostgreSQL backend: its URL (schema parameter, MEMQL_DB, the CLI's --db),
versioned migrations, a lexical index refilled when the analyzer changes, stores opened by several
clients at once, per-dimension vector indexes, and errors that reach the user as messages."""

from __future__ import annotations

import json
import threading

import pytest
from click.testing import CliRunner

from memql import Memory
from memql.interfaces.cli import main
from memql.services.tokenize import ANALYZER_VERSION
from memql.store import open_store
from memql.store.postgres import PostgresStore, StoreUnavailable, schema, split_url
from pgtest import end_sessions, fresh_location, server_dsn


def test_the_url_names_the_schema_and_keeps_libpq_parameters():
    assert split_url("postgresql://u:p@h:5433/db?schema=s1&sslmode=require") == (
        "postgresql://u:p@h:5433/db?sslmode=require",
        "s1",
    )
    assert split_url("postgres://h/db")[1] == "memql"
    assert split_url("postgresql://h/db?pool_max=20&schema=x")[0] == "postgresql://h/db"
    store = PostgresStore(fresh_location() + "&pool_max=3")
    assert store.pool.max_size == 3
    store.close()
    with pytest.raises(StoreUnavailable, match="pool_max"):
        PostgresStore(fresh_location() + "&pool_max=lots")


def test_schemas_are_separate_stores():
    one, two = fresh_location(), fresh_location()
    with Memory(one, tenant="t", embedder=None) as a, Memory(two, tenant="t", embedder=None) as b:
        assert a.encode("only in one").id == b.encode("only in two").id == "1"
        assert [r["text"] for r in a.retrieve("only").data["rows"]] == ["only in one"]


def test_memql_db_and_the_cli_open_a_postgres_url(monkeypatch):
    location = fresh_location()
    monkeypatch.setenv("MEMQL_DB", location)
    with Memory(tenant="t", embedder=None) as m:  # the location comes from $MEMQL_DB
        assert m.encode("from the environment").id == "1"
    ir = json.dumps({"op": "Encode", "args": {"payload": {"text": "from the command line"}}})
    result = CliRunner().invoke(main, ["--db", location, "--tenant", "t", "exec", "-", "--json"], input=ir)
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["affected_ids"] == ["2"]


def test_an_unreachable_server_is_a_message_not_a_traceback():
    bad = "postgresql://nobody:secret@/nowhere?host=/nonexistent-socket-dir"
    with pytest.raises(StoreUnavailable) as caught:
        open_store(bad)
    assert "secret" not in str(caught.value)
    result = CliRunner().invoke(main, ["--db", bad, "history", "1"])
    assert result.exit_code == 2 and "cannot open the store" in result.output
    assert "Traceback" not in result.output


def test_a_store_from_a_newer_memql_is_refused():
    location = fresh_location()
    store = PostgresStore(location)
    with store.transaction() as s:
        s.conn.execute("INSERT INTO schema_version (version) VALUES (%s)", (schema.LATEST + 1,))
    store.close()
    with pytest.raises(RuntimeError, match="newer memql"):
        PostgresStore(location)


def test_an_index_from_another_analyzer_is_refilled_once():
    location = fresh_location()
    with Memory(location, tenant="t", embedder=None) as m:
        for text in ("She runs every morning", "我喜欢跑步", "Painted a sunset"):
            m.encode(text)
        with m.store.transaction() as s:  # as if an older analyzer had written an index of nothing
            s.conn.execute("TRUNCATE lexical_postings, lexical_docs, lexical_df, lexical_stats")
            s.conn.execute(
                "UPDATE counters SET value = %s WHERE name = 'lexical_analyzer'", (ANALYZER_VERSION - 1,)
            )
        assert m.retrieve("running").data["rows"] == []
    with Memory(location, tenant="t", embedder=None) as m:
        assert [r["text"] for r in m.retrieve("running").data["rows"]] == ["She runs every morning"]
        assert [r["text"] for r in m.retrieve("跑步").data["rows"]] == ["我喜欢跑步"]
        (row,) = m.store.execute_sql("SELECT value FROM counters WHERE name = 'lexical_analyzer'")
        assert row["value"] == ANALYZER_VERSION


def test_clients_opening_a_fresh_store_at_once_all_succeed():
    location = fresh_location()
    barrier, problems, ids = threading.Barrier(6), [], []

    def open_and_write(n: int) -> None:
        try:
            barrier.wait(timeout=30)
            with Memory(location, tenant="t", actor=f"opener{n}", embedder=None) as m:
                ids.append(m.encode(f"opened by {n}").id)
        except Exception as exc:  # reported below
            problems.append(repr(exc))

    threads = [threading.Thread(target=open_and_write, args=(n,)) for n in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert problems == []
    assert sorted(ids, key=int) == ["1", "2", "3", "4", "5", "6"]


def test_ids_that_name_no_record_are_warnings():
    with Memory(fresh_location(), tenant="t", embedder=None) as m:
        m.encode("one")
        result = m.retrieve(ids=["99999999999999999999999", "١", "abc", "1"])
        assert result.success and [r["id"] for r in result.data["rows"]] == ["1"]
        assert [d.rule for d in result.warnings].count("target.not_found") == 2  # "١" is record 1


def test_vector_indexes_per_dimension():
    location = fresh_location()
    store = PostgresStore(location)
    try:
        assert set(schema.INDEXED_DIMENSIONS) <= store.indexed_dimensions
        with pytest.raises(ValueError):
            store.ensure_vector_index(schema.MAX_INDEXED_DIMENSION + 1)
        store.ensure_vector_index(24)
        other = PostgresStore(location)
        assert 24 in other.indexed_dimensions
        other.close()
    finally:
        store.close()


def test_the_test_server_has_pgvector_with_iterative_scans():
    import psycopg

    with psycopg.connect(server_dsn()) as conn:
        (version,) = conn.execute("SELECT extversion FROM pg_extension WHERE extname = 'vector'").fetchone()
    assert tuple(int(p) for p in version.split(".")[:2]) >= (0, 8)


def test_reads_run_in_one_snapshot_and_the_next_write_at_the_default_level():
    store = PostgresStore(fresh_location() + "&pool_max=1")  # one connection: each use takes the same one
    try:

        def level(session) -> str:
            return session.conn.execute("SHOW transaction_isolation").fetchone()["transaction_isolation"]

        with store.read() as session:
            assert level(session) == "repeatable read"
        with store.transaction() as session:
            assert level(session) == "read committed"
        with pytest.raises(RuntimeError), store.read() as session:
            session.conn.execute("SELECT 1")
            raise RuntimeError("a read that fails")
        with store.transaction() as session:
            assert level(session) == "read committed"
    finally:
        store.close()


def test_connections_the_server_closed_while_idle_are_replaced_not_failed():
    """A server restart, a failover or an idle timeout ends the pool's idle connections; the requests that
    took them each failed (exec.internal, "the connection is lost"). A closed one is now told by a poll
    and replaced."""
    location = fresh_location()
    with Memory(location, tenant="t", embedder=None) as m:
        first = m.encode("the ferry leaves at nine").id
        assert m.retrieve("ferry").affected_ids == [first]
        assert end_sessions("application_name", split_url(location)[1]) >= 1
        for _ in range(3):  # more than the connections the pool held
            found = m.retrieve("ferry")
            assert found.success, found.diagnostics
            assert found.affected_ids == [first]
        written = m.encode("the ferry leaves at ten")
        assert written.success, written.diagnostics
