"""Moving whole stores (`memql copy`): the export and import half of the PostgreSQL session (see
memql.ports.store.PortableSession). Imports write exactly what they are given -- ids, sequence numbers,
embeddings -- into an empty store; the sequences and the record counter then continue after them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from memql.ports.record import Event, Link, Operation, Record
from memql.store.postgres import codec


class PortableSession:
    """Mixed into PostgresSession (which provides conn, _rows, _insert_row, _log, add_link)."""

    conn: Any

    def export_begin(self) -> None:
        self.conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")

    def export_records(self, after: int, limit: int) -> list[Record]:
        rows = self._rows(
            f"SELECT {codec.SELECT_COLUMNS} FROM records WHERE num > %s ORDER BY num LIMIT %s", (after, limit)
        )
        return [codec.decode(row) for row in rows]

    def export_links(self) -> list[tuple[str, Link]]:
        rows = self._rows(
            "SELECT tenant, src, dst, relation, created_at FROM links "
            'ORDER BY tenant COLLATE "C", created_at, src COLLATE "C", dst COLLATE "C", relation COLLATE "C"'
        )
        return [(r["tenant"], codec.link_from_row(r)) for r in rows]

    def export_log(self, after: int, limit: int) -> list[tuple[Operation, list[Event]]]:
        ops = self._rows("SELECT seq FROM operations WHERE seq > %s ORDER BY seq LIMIT %s", (after, limit))
        if not ops:
            return []
        seqs = [r["seq"] for r in ops]
        out: dict[int, tuple[Operation, list[Event]]] = {}
        rows = self._rows(
            "SELECT o.seq AS op_seq, o.tenant, o.time, o.actor, o.op, o.ir, o.affected_ids, o.trace_id, "
            "o.workflow_id, o.step, e.seq, e.record_id, e.kind, e.before, e.after FROM operations o "
            "LEFT JOIN events e ON e.op_seq = o.seq WHERE o.seq = ANY(%s::bigint[]) ORDER BY o.seq, e.seq",
            (seqs,),
        )
        for row in rows:
            if row["op_seq"] not in out:
                out[row["op_seq"]] = (
                    codec.event_from_row(row["tenant"], {**row, "before": {}, "after": {}}).operation,
                    [],
                )  # type: ignore[assignment]
            if row["seq"] is not None:
                event = codec.event_from_row(row["tenant"], row)
                event.operation = None
                out[row["op_seq"]][1].append(event)
        return list(out.values())

    def last_record_number(self) -> int:
        return self.conn.execute("SELECT value FROM counters WHERE name = 'record_num'").fetchone()["value"]

    def is_empty(self) -> bool:
        return self.conn.execute(
            "SELECT NOT EXISTS (SELECT 1 FROM records) AND NOT EXISTS (SELECT 1 FROM operations) AS e"
        ).fetchone()["e"]

    def import_records(self, records: Sequence[Record]) -> None:
        for record in records:
            self._insert_row(int(record.id), record)  # type: ignore[arg-type]
        if records:
            self.set_last_record_number(max(int(r.id) for r in records))  # type: ignore[arg-type]

    def import_links(self, links: Sequence[tuple[str, Link]]) -> None:
        for tenant, link in links:
            self.add_link(tenant, link)

    def import_log(self, entries: Sequence[tuple[Operation, Sequence[Event]]]) -> None:
        for operation, events in entries:
            self._log(operation, events, keep_seq=True)
        # the sequences continue after the imported numbers
        for table in ("operations", "events"):
            self.conn.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'seq'), "
                f"GREATEST((SELECT COALESCE(max(seq), 0) FROM {table}), 1), "
                f"(SELECT max(seq) IS NOT NULL FROM {table}))"
            )

    def set_last_record_number(self, number: int) -> None:
        self.conn.execute(
            "UPDATE counters SET value = GREATEST(value, %s) WHERE name = 'record_num'", (number,)
        )
