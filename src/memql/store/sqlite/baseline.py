"""Raw SQLite doing what memql's SQLite store does, for `memql bench perf` to measure memql against.

A second file opened with plain ``sqlite3`` and the store's settings (WAL, synchronous NORMAL, the same
busy timeout), holding the store's ``records`` / ``records_fts`` tables and indexes, taken from its
migrations so the two cannot drift apart. It skips everything memql adds (validation, dedupe hashing,
keywords, the audit log, row decoding, visit bookkeeping), so the ratio of the two is memql's whole
overhead. Rows are encoded by `prepare`, outside the timed region; the SELECTs return the rows memql's
reads return, in the same order, so a benchmark can check that both answer alike.

`RawHybrid` is the hybrid search an application would write by hand over the same file: numpy's exact
cosine over a matrix of the vectors, FTS5's BM25, reciprocal-rank fusion, the chosen rows' text.

It lives here rather than in the benchmark because only the backend may know its own SQL.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from memql.index.text import lexical_text
from memql.ports.record import Record
from memql.services.tokenize import fts_match_expression, index_text
from memql.store.sqlite import BUSY_TIMEOUT_MS
from memql.store.sqlite.codec import dumps, to_us
from memql.store.sqlite.schema import MIGRATIONS, _statements

# the parts of the schema the baseline holds: the records table, its indexes and the full-text index
_WANTED = (
    "CREATE TABLE records ",
    "ALTER TABLE records ",
    "CREATE INDEX records_",
    "CREATE UNIQUE INDEX records_",
    "CREATE VIRTUAL TABLE records_fts ",
    "DROP TABLE records_fts",
)
_INSERT = (
    "INSERT INTO records (tenant, owner, text, kind, tags, facets, weight, status, time, created_at, "
    "updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
_INSERT_NUMBERED = (
    "INSERT INTO records (num, tenant, owner, text, kind, tags, facets, weight, status, time, created_at, "
    "updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
_INSERT_FTS = "INSERT INTO records_fts (rowid, body) VALUES (?, ?)"
_COLUMNS = "r.num, r.text, r.kind, r.tags, r.facets, r.time, r.weight, r.status"
# the scope memql applies to a default read (one tenant, live records), so both can use the same indexes
_SCOPE = "r.tenant = ? AND r.status = 'active'"
# a lexical Retrieve: BM25 order, newest first among ties
_SEARCH = (
    f"SELECT {_COLUMNS}, -bm25(records_fts) AS score FROM records_fts "
    f"JOIN records r ON r.num = records_fts.rowid WHERE records_fts MATCH ? AND {_SCOPE} "
    "ORDER BY bm25(records_fts), r.num DESC LIMIT ?"
)
# a Retrieve by filter `has_tags: [tag]`: event time (creation time without one) order, newest first
_WITH_TAG = (
    f"SELECT {_COLUMNS} FROM records r WHERE {_SCOPE} "
    "AND EXISTS (SELECT 1 FROM json_each(r.tags) WHERE value = ?) "
    "ORDER BY COALESCE(r.time, r.created_at) DESC, r.num DESC LIMIT ?"
)


@dataclass(frozen=True)
class RawRow:
    """One record as the baseline inserts it: its column values and its full-text body."""

    values: tuple[Any, ...]
    body: str


def prepare(records: Sequence[Record]) -> list[RawRow]:
    """The values an application would insert, and the same full-text body memql indexes."""
    return [
        RawRow(
            (
                r.tenant,
                r.owner,
                r.text,
                r.kind,
                dumps(r.tags),
                dumps(r.facets),
                r.weight,
                r.status,
                to_us(r.time),
                to_us(r.created_at),
                to_us(r.updated_at),
            ),
            index_text(lexical_text(r)),
        )
        for r in records
    ]


def match_expression(query: str) -> str:
    """The FTS5 MATCH expression memql's lexical search builds for `query` (prepare it untimed)."""
    return fts_match_expression(query)


class RawSQLite:
    """A plain connection to `path` with the store's file settings, records tables and indexes."""

    def __init__(self, path: Path) -> None:
        self.conn = sqlite3.connect(path, isolation_level=None)
        self.conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        self.conn.execute("PRAGMA journal_mode = WAL")
        self.conn.execute("PRAGMA synchronous = NORMAL")
        for _version, script in MIGRATIONS:  # every migration: the same indexes as the store's
            for statement in _statements(script):
                if statement.startswith(_WANTED):
                    self.conn.execute(statement)

    def insert(self, rows: Sequence[RawRow], batch: int) -> None:
        """Insert `rows`, `batch` per transaction, each with its full-text row."""
        for start in range(0, len(rows), batch):
            self.conn.execute("BEGIN IMMEDIATE")
            for row in rows[start : start + batch]:
                num = self.conn.execute(_INSERT, row.values).lastrowid
                self.conn.execute(_INSERT_FTS, (num, row.body))
            self.conn.execute("COMMIT")

    def insert_many(self, rows: Sequence[RawRow]) -> None:
        """Insert `rows` in one transaction, each kind of row in one `executemany` (numbered in order, so
        that the full-text rows can name theirs): what an application loading many rows would do."""
        self.conn.execute("BEGIN IMMEDIATE")
        first = self.conn.execute("SELECT COALESCE(max(num), 0) + 1 FROM records").fetchone()[0]
        nums = range(first, first + len(rows))
        self.conn.executemany(_INSERT_NUMBERED, [(n, *r.values) for n, r in zip(nums, rows, strict=True)])
        self.conn.executemany(_INSERT_FTS, [(n, r.body) for n, r in zip(nums, rows, strict=True)])
        self.conn.execute("COMMIT")

    def search(self, tenant: str, match: str, limit: int) -> list[str]:
        """The ids of the best `limit` lexical matches of a `match_expression`, as memql ranks them."""
        return [str(row[0]) for row in self.conn.execute(_SEARCH, (match, tenant, limit)).fetchall()]

    def with_tag(self, tenant: str, tag: str, limit: int) -> list[str]:
        """The ids of the newest `limit` live records carrying `tag`."""
        return [str(row[0]) for row in self.conn.execute(_WITH_TAG, (tenant, tag, limit)).fetchall()]

    def nums(self) -> np.ndarray:
        """Every record number, in insertion order (the rows of a matrix of their vectors)."""
        return np.fromiter(
            (row[0] for row in self.conn.execute("SELECT num FROM records ORDER BY num")), np.int64
        )

    def close(self) -> None:
        self.conn.close()


# --- hybrid search, as an application would write it by hand ---------------------------------------------

RRF_K = 60  # reciprocal rank fusion's usual constant: 1 / (60 + rank)
# the best `limit` BM25 matches among the tenant's live records (ids only: the text is fetched once fused)
_LEXICAL_TOP = (
    "SELECT r.num FROM records_fts JOIN records r ON r.num = records_fts.rowid "
    f"WHERE records_fts MATCH ? AND {_SCOPE} ORDER BY bm25(records_fts), r.num DESC LIMIT ?"
)


class RawHybrid:
    """Hybrid search over a RawSQLite file with plain sqlite3 and numpy: the tenant's vectors in one
    float32 matrix (loaded once, untimed), exact cosine by one matrix product and argpartition, FTS5's
    BM25 top `k`, the two lists fused by reciprocal rank (RRF), then the chosen rows' text in one SELECT.
    `nums[i]` is the record number of `vectors[i]` (unit rows, so the inner product is the cosine)."""

    def __init__(self, raw: RawSQLite, nums: np.ndarray, vectors: np.ndarray) -> None:
        self.conn = raw.conn
        self.nums = np.asarray(nums, dtype=np.int64)
        self.matrix = np.ascontiguousarray(vectors, dtype=np.float32)

    def search(self, tenant: str, match: str | None, vector: np.ndarray, k: int) -> list[tuple[str, str]]:
        """(id, text) of the `k` best records for a prepared MATCH expression (None: a query without terms)
        and a float32 query vector."""
        scores = self.matrix @ vector
        top = np.argpartition(-scores, k - 1)[:k] if len(scores) > k else np.arange(len(scores))
        dense = self.nums[top[np.argsort(-scores[top])]].tolist()
        lexical = [] if match is None else [r[0] for r in self.conn.execute(_LEXICAL_TOP, (match, tenant, k))]
        fused: dict[int, float] = {}
        for ranked in (dense, lexical):
            for rank, num in enumerate(ranked, start=1):
                fused[num] = fused.get(num, 0.0) + 1.0 / (RRF_K + rank)
        best = sorted(fused, key=lambda num: (-fused[num], -num))[:k]
        marks = ",".join("?" * len(best))
        texts = dict(
            self.conn.execute(f"SELECT num, text FROM records WHERE num IN ({marks})", best).fetchall()
        )
        return [(str(num), texts[num]) for num in best if num in texts]
