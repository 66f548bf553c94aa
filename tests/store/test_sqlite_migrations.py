"""A store written at an older schema version opens, keeps its data, and is upgraded in place; a lexical
index written by an older analyzer is refilled once when the store opens."""

from __future__ import annotations

import sqlite3
import threading
import time

import pytest

import memql.store.sqlite as sqlite_store
from memql import Memory
from memql.services.tokenize import ANALYZER_VERSION, index_text, tokens
from memql.store.sqlite import SQLiteStore, schema

OLD_TEXTS = ["She runs every morning", "Painted a sunset over the lake", "我喜欢跑步"]


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
        # migration 4's refill request became "written by no analyzer" and the open refilled the index
        counters = dict(tuple(r) for r in m.store.execute_sql("SELECT name, value FROM counters"))
        assert counters.get("lexical_analyzer") == ANALYZER_VERSION and "lexical_rebuild" not in counters


def test_a_store_from_a_newer_memql_is_refused(tmp_path):
    path = tmp_path / "future.db"
    Memory(path).close()
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {schema.LATEST + 1}")
    conn.commit()
    conn.close()
    with pytest.raises(RuntimeError, match="newer memql"):
        Memory(path)


def _write_version_4_with_analyzer_1(path) -> None:
    """A store as memql wrote it at schema 4: its index holds analyzer 1's terms (unstemmed tokens)."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("BEGIN")
    for version, script in schema.MIGRATIONS[:4]:
        assert version <= 4
        for statement in schema._statements(script):
            conn.execute(statement)
    conn.execute("DELETE FROM counters WHERE name = 'lexical_rebuild'")  # done by the schema-4 store's open
    for text in OLD_TEXTS:
        num = conn.execute(
            "INSERT INTO records (tenant, text, created_at, updated_at) VALUES ('t', ?, 0, 0)", (text,)
        ).lastrowid
        conn.execute(
            "INSERT INTO records_fts (rowid, body, context) VALUES (?, ?, '')", (num, " ".join(tokens(text)))
        )
    conn.execute("PRAGMA user_version = 4")
    conn.execute("COMMIT")
    conn.close()


def _fts_rows(path, term: str) -> list[int]:
    conn = sqlite3.connect(path)
    try:
        rows = conn.execute("SELECT rowid FROM records_fts WHERE records_fts MATCH ?", (term,))
        return [r[0] for r in rows]
    finally:
        conn.close()


@pytest.fixture()
def index_text_calls(monkeypatch):
    """Counts the store's calls of index_text (two per record when the index is refilled)."""
    calls: list[str] = []

    def counting(text: str) -> str:
        calls.append(text)
        return index_text(text)

    monkeypatch.setattr(sqlite_store, "index_text", counting)
    return calls


def test_an_index_from_an_older_analyzer_is_rebuilt_once_and_finds_stems(tmp_path, index_text_calls):
    path = tmp_path / "analyzer1.db"
    _write_version_4_with_analyzer_1(path)
    assert _fts_rows(path, '"runs"') == [1] and _fts_rows(path, '"run"') == []  # unstemmed as written
    with Memory(path, tenant="t", embedder=None) as m:
        assert len(index_text_calls) == 2 * len(OLD_TEXTS)  # body and context of each record, once
        counters = dict(tuple(r) for r in m.store.execute_sql("SELECT name, value FROM counters"))
        assert counters["lexical_analyzer"] == ANALYZER_VERSION
        assert [r["text"] for r in m.retrieve("running").data["rows"]] == ["She runs every morning"]
        assert [r["text"] for r in m.retrieve("paintings").data["rows"]] == ["Painted a sunset over the lake"]
        assert [r["text"] for r in m.retrieve("跑步").data["rows"]] == ["我喜欢跑步"]  # CJK as before
    assert _fts_rows(path, '"run"') == [1] and _fts_rows(path, '"runs"') == []
    index_text_calls.clear()
    with Memory(path, tenant="t", embedder=None) as m:  # a second open finds the index current
        assert index_text_calls == []
        assert [r["text"] for r in m.retrieve("runner runs").data["rows"]] == ["She runs every morning"]


def test_a_changed_analyzer_version_triggers_a_rebuild_at_the_latest_schema(tmp_path, index_text_calls):
    path = tmp_path / "current.db"
    with Memory(path, tenant="t", embedder=None) as m:
        for text in OLD_TEXTS:
            m.encode(text)
    conn = sqlite3.connect(path)
    conn.execute("UPDATE records_fts SET body = 'stale'")
    conn.execute("UPDATE counters SET value = ? WHERE name = 'lexical_analyzer'", (ANALYZER_VERSION - 1,))
    conn.commit()
    conn.close()
    index_text_calls.clear()
    with Memory(path, tenant="t", embedder=None) as m:
        assert len(index_text_calls) == 2 * len(OLD_TEXTS)
        bodies = [r[0] for r in m.store.execute_sql("SELECT body FROM records_fts ORDER BY rowid")]
        assert bodies == [index_text(t) for t in OLD_TEXTS]
        assert [r["text"] for r in m.retrieve("run").data["rows"]] == ["She runs every morning"]


def test_a_process_that_waited_for_the_lock_does_not_rebuild_again(tmp_path, index_text_calls):
    """Two openers see a stale index; the one that gets the write lock second finds it current."""
    path = tmp_path / "race.db"
    _write_version_4_with_analyzer_1(path)
    SQLiteStore(str(path)).close()  # migrate to the latest schema (and rebuild)
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("UPDATE counters SET value = 1 WHERE name = 'lexical_analyzer'")
    conn.execute("BEGIN IMMEDIATE")  # the "other process" holds the write lock, rebuilding
    index_text_calls.clear()
    opened: list[SQLiteStore] = []
    opener = threading.Thread(target=lambda: opened.append(SQLiteStore(str(path))))
    opener.start()
    time.sleep(0.5)
    assert opener.is_alive()  # it saw the stale counter and now waits for the write lock
    conn.execute("UPDATE counters SET value = ? WHERE name = 'lexical_analyzer'", (ANALYZER_VERSION,))
    conn.execute("COMMIT")
    opener.join(timeout=30)
    conn.close()
    assert len(opened) == 1 and index_text_calls == []
    opened[0].close()


def _catalog_and_rows(store: SQLiteStore) -> tuple[list[tuple], list[tuple], int]:
    catalog = store.execute_sql("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name")
    counters = store.execute_sql("SELECT name, value FROM counters WHERE name <> 'store_id' ORDER BY name")
    version = store.execute_sql("PRAGMA user_version")[0][0]
    return [tuple(r) for r in catalog], [tuple(r) for r in counters], version


def test_a_new_in_memory_store_is_what_the_migrations_make_with_its_own_id(tmp_path):
    """An in-memory store starts as a copy of a store the migrations built (schema.copy_latest): the same
    tables, indexes, view and rows as a new file's, and a store id of its own."""
    on_file, in_memory, again = (
        SQLiteStore(str(tmp_path / "new.db")),
        SQLiteStore(":memory:"),
        SQLiteStore(":memory:"),
    )
    try:
        assert _catalog_and_rows(in_memory) == _catalog_and_rows(on_file)
        assert _catalog_and_rows(in_memory)[2] == schema.LATEST
        ids = {
            s.execute_sql("SELECT value FROM counters WHERE name = 'store_id'")[0][0]
            for s in (in_memory, again)
        }
        assert len(ids) == 2
        in_memory.conn.execute("INSERT INTO counters (name, value) VALUES ('mine', 1)")  # a copy, not shared
        assert again.execute_sql("SELECT count(*) FROM counters WHERE name = 'mine'")[0][0] == 0
    finally:
        for store in (on_file, in_memory, again):
            store.close()
