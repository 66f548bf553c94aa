"""The raw-SQLite baseline `memql bench perf` measures against: the store's records tables and indexes, and
SELECTs answering what memql's reads answer."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime

from memql import Memory
from memql.engine.context import EngineConfig
from memql.ports.record import Record
from memql.store.sqlite import SQLiteStore
from memql.store.sqlite.baseline import RawSQLite, match_expression, prepare

NOW = datetime(2026, 6, 1, tzinfo=UTC)


def _layout(path) -> dict[str, list]:
    conn = sqlite3.connect(path)
    try:
        columns = [tuple(row) for row in conn.execute("PRAGMA table_info(records)")]
        indexes = conn.execute(
            "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'records' ORDER BY name"
        ).fetchall()
        fts = conn.execute("SELECT sql FROM sqlite_master WHERE name = 'records_fts'").fetchall()
        modes = [conn.execute("PRAGMA journal_mode").fetchone()[0]]
        return {"columns": columns, "indexes": indexes, "fts": fts, "journal": modes}
    finally:
        conn.close()


def test_the_raw_file_has_the_stores_records_tables_and_indexes(tmp_path):
    SQLiteStore(str(tmp_path / "memql.db")).close()
    RawSQLite(tmp_path / "raw.db").close()
    store, raw = _layout(tmp_path / "memql.db"), _layout(tmp_path / "raw.db")
    assert raw == store
    assert raw["indexes"] and raw["fts"] and raw["journal"] == ["wal"]


def test_its_selects_answer_what_memqls_reads_answer(tmp_path):
    notes = [
        ("coffee with the design team", ["t1"], datetime(2026, 1, 3, tzinfo=UTC)),
        ("design review moved to friday", ["t1", "t2"], datetime(2026, 2, 1, tzinfo=UTC)),
        ("buy milk and bread", ["t2"], datetime(2025, 12, 24, tzinfo=UTC)),
        ("设计评审改到周五", ["t1"], None),
    ]
    # ranked as raw SQLite ranks: BM25 alone, no recency or heat shaping (as `memql bench perf` does)
    unshaped = EngineConfig(recency_shaping=0.0, heat_shaping=0.0)
    where = str(tmp_path / "memql.db")
    m = Memory(where, tenant="bench", actor="bench", clock=NOW, embedder=None, config=unshaped)
    raw = RawSQLite(tmp_path / "raw.db")
    try:
        for text, tags, when in notes:
            iso = when.strftime("%Y-%m-%dT%H:%M:%SZ") if when else None
            assert m.encode(text, tags=tags, **({"time": iso} if iso else {})).success
        stamps = {"created_at": NOW, "updated_at": NOW}
        records = [
            Record(tenant="bench", owner="bench", text=text, tags=tags, time=when, **stamps)
            for text, tags, when in notes
        ]
        raw.insert(prepare(records), batch=2)
        for query in ("design review", "milk", "设计"):
            hits = [r["id"] for r in m.retrieve(query=query, k=10).data["rows"]]
            assert hits and raw.search("bench", match_expression(query), 10) == hits, query
        for tag in ("t1", "t2"):
            hits = [r["id"] for r in m.retrieve(filter={"has_tags": [tag], "limit": 10}).data["rows"]]
            assert len(hits) > 1 and raw.with_tag("bench", tag, 10) == hits, tag
        assert raw.with_tag("another tenant", "t1", 10) == []
    finally:
        m.close()
        raw.close()


def test_insert_many_stores_what_insert_stores(tmp_path):
    """The bulk figure's baseline (one transaction, executemany) writes the same rows as row by row."""
    records = [
        Record(
            tenant="bench",
            owner="bench",
            text=f"note {i} 笔记",
            tags=[f"t{i % 3}"],
            created_at=NOW,
            updated_at=NOW,
        )
        for i in range(25)
    ]
    one, many = RawSQLite(tmp_path / "one.db"), RawSQLite(tmp_path / "many.db")
    try:
        one.insert(prepare(records), batch=7)
        many.insert_many(prepare(records[:10]))
        many.insert_many(prepare(records[10:]))  # numbered on from the rows already there
        dump = "SELECT * FROM records ORDER BY num"
        fts = "SELECT rowid, body FROM records_fts ORDER BY rowid"
        for sql in (dump, fts):
            assert many.conn.execute(sql).fetchall() == one.conn.execute(sql).fetchall() != []
        assert many.search("bench", match_expression("note"), 30) == one.search(
            "bench", match_expression("note"), 30
        )
    finally:
        one.close()
        many.close()
