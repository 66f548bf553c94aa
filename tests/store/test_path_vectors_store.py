"""Path vectors in the stores (Record.path_embeddings: one vector per text of a record with several index
paths) beyond the conformance suite's section (memql.testing.vectors): beside both SQLite index modes and a
reloaded HNSW graph, through `memql copy`, and a store written before path vectors existed opens, is
migrated, and searches as before."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import numpy as np
import psycopg
import pytest

from memql import Memory
from memql.ports.store import RecordQuery
from memql.store.postgres import schema as pg_schema
from memql.store.postgres import split_url
from memql.store.sqlite import SQLiteStore
from memql.store.sqlite import schema as sqlite_schema
from memql.testing.sample import DIM, MODEL, put, unit
from pgtest import fresh_location


def _with_paths(session, tenant: str, text: str, main: np.ndarray, paths: list[np.ndarray]) -> str:
    record_id = put(session, tenant, text, main)
    session.update(tenant, record_id, {"path_embeddings": np.stack(paths).astype("<f4").tobytes()})
    return record_id


def _dense(store, q: np.ndarray, k: int = 10, signed: bool = False) -> list[tuple[str, float]]:
    with store.transaction() as s:
        return [(r.id, round(score, 5)) for r, score in s.dense("A", q, RecordQuery(), k, MODEL, signed)]


@pytest.mark.parametrize("mode", ["exact", "hnsw"])
def test_path_vectors_beside_both_sqlite_indexes_and_a_reloaded_graph(tmp_path: Path, mode: str) -> None:
    rng = np.random.default_rng(5)
    path = tmp_path / "p.db"
    store = SQLiteStore(str(path), vector_index=mode)
    with store.transaction() as s:
        plain = [put(s, "A", f"r{i}", unit(rng)) for i in range(60)]
    q = unit(rng)
    with store.transaction() as s:
        paths = _with_paths(s, "A", "paths", unit(rng), [unit(rng), q])
    assert _dense(store, q, k=3)[0] == (paths, 1.0)
    assert _dense(store, q, k=61, signed=True)[-1][0] in plain  # every vector, the paths' record once
    assert len(_dense(store, q, k=100, signed=True)) == 61
    store.close()  # saves the HNSW graph, which holds no path vectors
    reopened = SQLiteStore(str(path), vector_index=mode)
    assert _dense(reopened, q, k=3)[0] == (paths, 1.0)
    reopened.close()


def _searched(m: Memory) -> list[tuple[str, float]]:
    overrides = {"alpha": 1.0, "recency": 0.0, "heat": 0.0}  # the score of the vectors alone
    result = m.retrieve("alpaca zebra", k=5, overrides=overrides, include=["id", "score"])
    assert result.success, result.diagnostics
    rows = result.data["rows"]
    return [(row["id"], round(row["score"], 5)) for row in rows]


class _Words:
    model, dimension = "words-8", 8

    def embed(self, texts):
        out = []
        for text in texts:
            v = np.zeros(8)
            for word in text.split():
                v[sum(map(ord, word)) % 8] += 1.0
            out.append((v / np.linalg.norm(v)).tolist())
        return out


def test_a_sqlite_store_from_before_path_vectors_opens_and_searches_as_before(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    with Memory(path, tenant="t", embedder=_Words()) as m:
        for text in ("alpaca zebra", "zebra", "walrus heron", "alpaca"):
            m.encode(text)
        before = _searched(m)
    conn = sqlite3.connect(path)  # as memql wrote it before: schema 9, no path_embeddings column
    for trigger in ("records_inserted", "records_deleted", "records_updated", "record_changes_pruned"):
        conn.execute(f"DROP TRIGGER {trigger}")  # (schema 11's log of changed records)
    conn.execute("DROP TABLE record_changes")
    conn.execute("DROP INDEX records_with_path_vectors")
    conn.execute("ALTER TABLE records DROP COLUMN path_embeddings")
    conn.execute("PRAGMA user_version = 9")
    conn.commit()
    conn.close()
    with Memory(path, tenant="t", embedder=_Words()) as m:
        assert m.store.execute_sql("PRAGMA user_version")[0][0] == sqlite_schema.LATEST
        assert _searched(m) == before and len(before) == 4


def test_a_postgres_store_from_before_path_vectors_opens_and_searches_as_before() -> None:
    location = fresh_location()
    with Memory(location, tenant="t", embedder=_Words()) as m:
        for text in ("alpaca zebra", "zebra", "walrus heron", "alpaca"):
            m.encode(text)
        before = _searched(m)
    dsn, schema = split_url(location)
    with psycopg.connect(dsn, autocommit=True) as conn:  # as memql wrote it before: schema 5 (7 undone too)
        conn.execute(f'ALTER TABLE "{schema}".records DROP COLUMN path_vecs, DROP COLUMN path_embeddings')
        conn.execute(f'DROP TABLE "{schema}".lexical_changes; DROP SEQUENCE "{schema}".lexical_change_seq')
        conn.execute(f"DELETE FROM \"{schema}\".counters WHERE name = 'lexical_generation'")
        conn.execute(f'DELETE FROM "{schema}".schema_version WHERE version >= 6')
    with Memory(location, tenant="t", embedder=_Words()) as m:
        assert m.store.execute_sql("SELECT max(version) AS v FROM schema_version")[0]["v"] == pg_schema.LATEST
        assert _searched(m) == before and len(before) == 4


assert DIM == 16  # the sample vectors' dimension, which pgvector indexes (the HNSW branch is searched)


def test_memql_copy_carries_path_vectors_both_ways(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from memql.interfaces.cli import main

    first, back, pg = str(tmp_path / "first.db"), str(tmp_path / "back.db"), fresh_location()
    with Memory(first, tenant="t", embedder=_Words()) as m:
        document = {"a": "alpaca", "b": "walrus heron"}
        encode = {"payload": {"document": document}, "namespace": ["n"], "key": "k", "index": ["a", "b"]}
        assert m.execute({"op": "Encode", "args": encode}).success
        m.encode("zebra")
    for src, dst in ((first, pg), (pg, back)):
        result = CliRunner().invoke(main, ["copy", src, dst, "--json"])
        assert result.exit_code == 0, result.output
    answers = []
    for location in (first, pg, back):
        with Memory(location, tenant="t", embedder=_Words()) as m:
            with m.store.dry_run() as session:
                assert len(session.get("t", ["1"])["1"].path_embeddings or b"") == 2 * 8 * 4  # two texts
            overrides = {"alpha": 1.0, "score": "cosine"}
            rows = m.retrieve("walrus heron", k=5, overrides=overrides, include=["id", "score"]).data["rows"]
            answers.append([(row["id"], round(row["score"], 5)) for row in rows])
    assert answers[0][0] == ("1", 1.0) and answers[0] == answers[1] == answers[2]
