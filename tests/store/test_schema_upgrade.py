"""A store written by an older memql — record schema 1, before typed facts — opens with this one, reads
back, and is upgraded: its migrations run, every record reports the current SCHEMA_VERSION, its audit log
still replays (old snapshots are upgraded as they are read), and typed facts work on it. The stores are
fixtures that memql's own older code wrote (tests/store/fixtures/README.md), on both backends."""

from __future__ import annotations

import shutil
import sqlite3
import uuid
from datetime import UTC, datetime
from pathlib import Path

import psycopg
import pytest

from memql import Memory
from memql.ports.record import SCHEMA_VERSION
from memql.ports.store import RecordQuery
from memql.store.postgres import PostgresStore, split_url
from memql.store.postgres import schema as pg_schema
from memql.store.replay import upgrade_snapshot
from memql.store.sqlite import schema as sqlite_schema
from pgtest import fresh_location, server_dsn

FIXTURES = Path(__file__).parent / "fixtures"
WRITTEN_AT = datetime(2026, 3, 2, 11, 0, tzinfo=UTC)  # the fixture script's clock at its end
LATER = datetime(2026, 3, 10, 9, 0, tzinfo=UTC)


def _sqlite_store(tmp_path: Path) -> str:
    path = tmp_path / "schema1.sqlite"
    shutil.copy(FIXTURES / "schema1.sqlite", path)
    conn = sqlite3.connect(path)
    try:  # as written: store migration 5, every record at record schema 1, no fact columns
        assert conn.execute("PRAGMA user_version").fetchone()[0] == 5
        assert {r[0] for r in conn.execute("SELECT schema_version FROM records")} == {1}
        assert "valid_from" not in {r[1] for r in conn.execute("PRAGMA table_info(records)")}
    finally:
        conn.close()
    return str(path)


def _postgres_store() -> str:
    PostgresStore(fresh_location()).close()  # the server has pgvector now (the dump's columns use it)
    schema = f"test_upgrade_{uuid.uuid4().hex[:12]}"
    dump = (FIXTURES / "schema1.postgres.sql").read_text(encoding="utf-8")
    with psycopg.connect(split_url(server_dsn())[0], autocommit=True) as conn:
        conn.execute(dump.replace("memql_fixture_schema1", schema))  # one script, no parameters
        versions = conn.execute(f"SELECT DISTINCT schema_version FROM {schema}.records").fetchall()
        assert versions == [(1,)]
        assert conn.execute(f"SELECT max(version) FROM {schema}.schema_version").fetchone() == (2,)
    dsn = server_dsn()
    return f"{dsn}{'&' if '?' in dsn else '?'}schema={schema}"


@pytest.fixture(params=["sqlite", "postgres"])
def old_store(request, tmp_path) -> tuple[str, str]:
    location = _sqlite_store(tmp_path) if request.param == "sqlite" else _postgres_store()
    return request.param, location


def _records(m: Memory) -> dict:
    with m.store.dry_run() as session:
        return {r.id: r for r, _ in session.find(m.tenant, RecordQuery(statuses=None, order="created_asc"))}


def test_an_old_store_opens_reads_and_is_upgraded(old_store):
    backend, location = old_store
    with Memory(location, tenant="acme", actor="mira", clock=LATER, embedder=None) as m:
        if backend == "sqlite":
            assert m.store.execute_sql("PRAGMA user_version")[0][0] == sqlite_schema.LATEST
        else:
            rows = m.store.execute_sql("SELECT max(version) AS v FROM schema_version")
            assert rows[0]["v"] == pg_schema.LATEST
        records = _records(m)
        assert list(records) == ["1", "2", "3", "4", "5"]  # tenant "other"'s record stays its own
        assert {r.schema_version for r in records.values()} == {SCHEMA_VERSION}
        assert all(r.subject is None and r.valid_from is None for r in records.values())  # not facts
        assert records["1"].text == "Q2 budget draft: 1.3M" and records["1"].weight == 0.7
        assert records["2"].tags == ["team", "schedule"] and records["2"].facets == {"subject": "standup"}
        assert (
            records["3"].structured == {"rating": 5, "dish": "ramen"} and records["3"].on_expire == "archive"
        )
        assert (records["4"].status, records["5"].status) == ("deleted", "deleted")
        assert [r["id"] for r in m.retrieve("budget").data["rows"]] == ["1"]  # the lexical index works
        assert [(e["op"], e["change"]) for e in m.history("1")] == [
            ("Encode", "insert"),
            ("Update", "update"),
        ]
        # point-in-time reads replay the schema-1 audit log; its snapshots are read in today's shape
        then = m.retrieve(filter={}, as_of="2026-03-02T09:30:00Z", include=["id", "text", "schema_version"])
        assert {r["id"]: (r["text"], r["schema_version"]) for r in then.data["rows"]}["1"] == (
            "Q2 budget draft: 1.2M",
            SCHEMA_VERSION,
        )
        with m.store.dry_run() as session:
            assert [(link.src, link.dst, link.relation) for link in session.links("acme", ["2"])] == [
                ("5", "2", "merged_into")
            ]
    with Memory(location, tenant="other", clock=LATER, embedder=None) as other:
        assert [r["id"] for r in other.retrieve(filter={}).data["rows"]] == ["6"]


def test_facts_work_on_an_upgraded_store(old_store):
    _backend, location = old_store
    with Memory(location, tenant="acme", actor="mira", clock=LATER, embedder=None) as m:
        first = m.encode(
            structured={"subject": "passport", "attribute": "deadline", "value": "2026-07-15"},
            time="2026-03-01T00:00:00Z",
        )
        assert first.id == "7"  # numbered after the old records
        second = m.encode(
            structured={"subject": "passport", "attribute": "deadline", "value": "2026-06-30"},
            time="2026-03-05T00:00:00Z",
        )
        assert second.data == {"id": "8", "closed": ["7"]}
        assert m.facts.get("passport", "deadline", as_of="2026-03-03T00:00:00Z").values() == {
            "deadline": "2026-07-15"
        }
        assert [f.value for f in m.facts.history("passport", "deadline").facts] == [
            "2026-07-15",
            "2026-06-30",
        ]
        assert _records(m)["8"].schema_version == SCHEMA_VERSION
    with Memory(location, tenant="acme", clock=LATER, embedder=None) as again:  # reopening migrates nothing
        assert [f.id for f in again.facts.get("passport").facts] == ["8"]


def test_snapshots_of_every_older_schema_are_upgraded_and_newer_ones_refused():
    old = {"text": "x", "schema_version": 1}
    assert upgrade_snapshot(old) == {"text": "x", "schema_version": SCHEMA_VERSION}
    assert upgrade_snapshot({"text": "x"})["schema_version"] == SCHEMA_VERSION  # unversioned: version 1
    with pytest.raises(ValueError, match="newer"):
        upgrade_snapshot({"schema_version": SCHEMA_VERSION + 1})
