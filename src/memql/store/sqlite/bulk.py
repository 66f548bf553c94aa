"""Bulk writes on SQLite (memql.engine.bulk): many records, their index rows and audit entries, each
kind in one `executemany`, inside the caller's write transaction (mixed into SQLiteSession).

Numbers are given, not left to AUTOINCREMENT, so that one statement inserts many rows and their index
rows and events can name them: the next ones after both the highest number ever handed out
(`sqlite_sequence`, which an explicit number also advances) and the highest in the table. The write lock
(BEGIN IMMEDIATE) keeps every other writer out meanwhile.
"""

from __future__ import annotations

import functools
import sqlite3
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from memql.index.text import context_text, lexical_text
from memql.ports.record import Event, Operation, Record
from memql.services.tokenize import index_text
from memql.store.sqlite import codec
from memql.store.sqlite.transfer import operation_values

_RECORD_COLUMNS = ("num", *codec.COLUMNS)
_INSERT_OPERATIONS = (
    "INSERT INTO operations (seq, time, tenant, actor, op, ir, affected_ids, trace_id, workflow_id, step) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
_INSERT_EVENTS = (
    "INSERT INTO events (op_seq, tenant, record_id, kind, before, after) VALUES (?, ?, ?, ?, ?, ?)"
)


class SQLiteBulk:
    """The batched writes of a SQLite session."""

    conn: sqlite3.Connection
    _lexical_changed: Callable[[Sequence[int]], None]

    def _next_number(self, table: str, column: str) -> int:
        row = self.conn.execute(
            f"SELECT max(COALESCE((SELECT seq FROM sqlite_sequence WHERE name = ?), 0), "
            f"COALESCE((SELECT max({column}) FROM {table}), 0))",
            (table,),
        ).fetchone()
        return int(row[0]) + 1

    def insert_many(self, records: Sequence[Record]) -> list[str]:
        """Insert records numbered in order, with their full-text rows; their ids."""
        if not records:
            return []
        first = self._next_number("records", "num")
        nums = range(first, first + len(records))
        # rows with the same NULL columns share one statement that spells them out (see _insert_records)
        groups: dict[tuple[bool, ...], list[list[Any]]] = {}
        for num, record in zip(nums, records, strict=True):
            nulls, values = codec.encode_present(record)
            values.insert(0, num)
            groups.setdefault(nulls, []).append(values)
        for nulls, rows in groups.items():
            self.conn.executemany(_insert_records(nulls), rows)
        self.conn.executemany(
            "INSERT INTO records_fts (rowid, body, context) VALUES (?, ?, ?)",
            [
                (num, index_text(lexical_text(record)), _context_index_text(record))
                for num, record in zip(nums, records, strict=True)
            ],
        )
        self._lexical_changed(nums)
        return [str(num) for num in nums]

    def log_many(self, entries: Sequence[tuple[Operation, Sequence[Event]]]) -> None:
        """Append audit operations, numbered in order, with their events."""
        if not entries:
            return
        first = self._next_number("operations", "seq")
        self.conn.executemany(
            _INSERT_OPERATIONS,
            [(first + i, *operation_values(op, codec.dumps_audit)) for i, (op, _) in enumerate(entries)],
        )
        self.conn.executemany(
            _INSERT_EVENTS,
            [
                (
                    first + i,
                    op.tenant,
                    e.record_id,
                    e.kind,
                    codec.dumps_audit(e.before),
                    codec.dumps_audit(e.after),
                )
                for i, (op, events) in enumerate(entries)
                for e in events
            ],
        )

    def find_duplicates(
        self, tenant: str, content_hashes: Sequence[str], now: datetime, limit: int
    ) -> dict[str, list[str]]:
        """For each content hash, the oldest `limit` live records holding it (as `find_duplicate`)."""
        out: dict[str, list[str]] = {}
        hashes = list(dict.fromkeys(content_hashes))
        for start in range(0, len(hashes), 500):  # within SQLite's bound on a statement's parameters
            part = hashes[start : start + 500]
            rows = self.conn.execute(
                "SELECT content_hash, num FROM records WHERE tenant = ? "
                f"AND content_hash IN ({','.join('?' * len(part))}) "
                # `+status`: look up by hash; with a list of hashes SQLite would scan the tenant's live rows
                "AND +status IN ('active', 'pending') AND (expire_at IS NULL OR expire_at > ?) ORDER BY num",
                (tenant, *part, codec.to_us(now)),
            )
            for digest, num in rows:
                found = out.setdefault(digest, [])
                if len(found) < limit:
                    found.append(str(num))
        return out


def _context_index_text(record: Record) -> str:
    """The FTS `context` column: most records have no context, whose index text is empty."""
    context = context_text(record)
    return index_text(context) if context else ""


@functools.lru_cache(maxsize=64)
def _insert_records(nulls: tuple[bool, ...]) -> str:
    """The INSERT of record rows whose columns marked in `nulls` (codec.encode_present) are NULL: the
    NULLs are written into the SQL rather than bound, as sqlite3 binds None through its adapter lookup,
    which costs as much as the rest of the row when most of a record's 60 columns are empty. In a bulk
    write nearly every row has the same empty columns, so one statement serves them all."""
    values = ", ".join("NULL" if null else "?" for null in nulls)
    return f"INSERT INTO records ({', '.join(_RECORD_COLUMNS)}) VALUES (?, {values})"
