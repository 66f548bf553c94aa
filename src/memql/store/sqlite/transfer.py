"""Moving whole SQLite stores (memql copy; see memql.ports.store.PortableSession): the export and import
methods of a session (mixed into SQLiteSession), and an operation's stored columns, which the audit log's
own reads and writes share."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Sequence
from typing import Any

from memql.index.text import context_text, lexical_text
from memql.ports.record import Event, Link, Operation, Record
from memql.services.tokenize import index_text
from memql.store.sqlite import codec


class SQLiteTransfer:
    """The PortableSession methods of a SQLite session."""

    conn: sqlite3.Connection
    # the session's own, which an import keeps up to date
    _next_embedding_seq: Callable[[], int]
    _lexical_changed: Callable[[Sequence[int]], None]
    add_link: Callable[[str, Link], None]

    def export_begin(self) -> None:
        pass  # the transaction (BEGIN IMMEDIATE) already reads one state and keeps writers out

    def export_records(self, after: int, limit: int) -> list[Record]:
        rows = self.conn.execute("SELECT * FROM records WHERE num > ? ORDER BY num LIMIT ?", (after, limit))
        return [codec.decode(row) for row in rows]

    def export_links(self) -> list[tuple[str, Link]]:
        rows = self.conn.execute(
            "SELECT tenant, src, dst, relation, created_at FROM links ORDER BY tenant, created_at, src, dst"
        )
        return [(r[0], Link(r[1], r[2], r[3], codec.from_us(r[4]))) for r in rows]

    def export_log(self, after: int, limit: int) -> list[tuple[Operation, list[Event]]]:
        out: list[tuple[Operation, list[Event]]] = []
        for op in self.conn.execute(
            "SELECT * FROM operations WHERE seq > ? ORDER BY seq LIMIT ?", (after, limit)
        ).fetchall():
            operation = operation_from_row(op, op["tenant"], op["seq"])
            events = [
                Event(e["record_id"], e["kind"], json.loads(e["before"]), json.loads(e["after"]), e["seq"])
                for e in self.conn.execute("SELECT * FROM events WHERE op_seq = ? ORDER BY seq", (op["seq"],))
            ]
            out.append((operation, events))
        return out

    def last_record_number(self) -> int:
        row = self.conn.execute("SELECT seq FROM sqlite_sequence WHERE name = 'records'").fetchone()
        return 0 if row is None else int(row[0])

    def is_empty(self) -> bool:
        return not self.conn.execute(
            "SELECT EXISTS (SELECT 1 FROM records) OR EXISTS (SELECT 1 FROM operations)"
        ).fetchone()[0]

    def import_records(self, records: Sequence[Record]) -> None:
        for record in records:
            row = {"num": int(record.id), **codec.encode(record)}  # type: ignore[arg-type]
            if record.embedding is not None:  # the vector caches catch up by this sequence
                row["embedding_seq"] = self._next_embedding_seq()
            self.conn.execute(
                f"INSERT INTO records ({', '.join(row)}) VALUES ({', '.join('?' * len(row))})",
                list(row.values()),
            )
            self.conn.execute(
                "INSERT INTO records_fts (rowid, body, context) VALUES (?, ?, ?)",
                (row["num"], index_text(lexical_text(record)), index_text(context_text(record))),
            )
            self._lexical_changed([row["num"]])

    def import_links(self, links: Sequence[tuple[str, Link]]) -> None:
        for tenant, link in links:
            self.add_link(tenant, link)

    def import_log(self, entries: Sequence[tuple[Operation, Sequence[Event]]]) -> None:
        for op, events in entries:
            self.conn.execute(
                "INSERT INTO operations (seq, time, tenant, actor, op, ir, affected_ids, trace_id, "
                "workflow_id, step) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (op.seq, *operation_values(op)),
            )
            self.conn.executemany(
                "INSERT INTO events (seq, op_seq, tenant, record_id, kind, before, after) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        e.seq,
                        op.seq,
                        op.tenant,
                        e.record_id,
                        e.kind,
                        codec.dumps(e.before),
                        codec.dumps(e.after),
                    )
                    for e in events
                ],
            )

    def set_last_record_number(self, number: int) -> None:
        if self.conn.execute("SELECT 1 FROM sqlite_sequence WHERE name = 'records'").fetchone():
            self.conn.execute(
                "UPDATE sqlite_sequence SET seq = max(seq, ?) WHERE name = 'records'", (number,)
            )
        else:
            self.conn.execute("INSERT INTO sqlite_sequence (name, seq) VALUES ('records', ?)", (number,))


def operation_from_row(row: sqlite3.Row, tenant: str, seq: int) -> Operation:
    """An operation from its stored columns (read alone, or joined to its events)."""
    return Operation(
        time=codec.from_us(row["time"]),  # type: ignore[arg-type]
        tenant=tenant,
        actor=row["actor"],
        op=row["op"],
        ir=json.loads(row["ir"]),
        affected_ids=json.loads(row["affected_ids"]),
        trace_id=row["trace_id"],
        workflow_id=row["workflow_id"],
        step=row["step"],
        seq=seq,
    )


def operation_values(op: Operation, dumps: Callable[[Any], str] = codec.dumps) -> tuple[Any, ...]:
    """An operation's columns after `seq`, as stored (`dumps`: the JSON writer, the bulk path's is
    codec.dumps_audit)."""
    return (
        codec.to_us(op.time),
        op.tenant,
        op.actor,
        op.op,
        dumps(op.ir),
        dumps(op.affected_ids),
        op.trace_id,
        op.workflow_id,
        op.step,
    )
