"""A store written at an older schema version opens, keeps its data, and is upgraded in place."""

from __future__ import annotations

import sqlite3

import pytest

from memql import Memory
from memql.store.sqlite import schema


def _write_version_1(path) -> None:
    conn = sqlite3.connect(path, isolation_level=None)
    version, script = schema.MIGRATIONS[0]
    assert version == 1
    conn.execute("BEGIN")
    for statement in schema._statements(script):
        conn.execute(statement)
    conn.execute(
        "INSERT INTO records (tenant, text, tags, created_at, updated_at) "
        "VALUES ('t', 'kept', '[\"a\"]', 0, 0)"
    )
    conn.execute("INSERT INTO records_fts (rowid, body) VALUES (1, 'kept a')")
    conn.execute("PRAGMA user_version = 1")
    conn.execute("COMMIT")
    conn.close()


def test_version_1_store_is_upgraded_and_readable(tmp_path):
    path = tmp_path / "old.db"
    _write_version_1(path)
    with Memory(path, tenant="t") as m:
        assert m.store.execute_sql("PRAGMA user_version")[0][0] == schema.LATEST
        indexes = {
            r["name"] for r in m.store.execute_sql("SELECT name FROM sqlite_master WHERE type = 'index'")
        }
        assert "records_by_tenant_status_when" in indexes
        assert [r["text"] for r in m.retrieve("kept").data["rows"]] == ["kept"]
        assert m.encode("new").id == "2"


def test_a_store_from_a_newer_memql_is_refused(tmp_path):
    path = tmp_path / "future.db"
    Memory(path).close()
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {schema.LATEST + 1}")
    conn.commit()
    conn.close()
    with pytest.raises(RuntimeError, match="newer memql"):
        Memory(path)
