"""The audit log of a PostgreSQL session: operations and their events written, read back and redacted."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from datetime import datetime
from typing import Any

from psycopg.types.json import Json

from memql.lang.encoding import compact_json
from memql.ports.record import Event, Operation
from memql.store.postgres import codec
from memql.store.postgres.bulk import event_values, operation_values
from memql.store.postgres.codec import escape

_array = compact_json()  # a list of texts as the JSON array a statement unnests

_EVENT_SELECT = (
    "SELECT e.seq, e.record_id, e.kind, e.before, e.after, o.seq AS op_seq, o.time, o.actor, o.op, o.ir, "
    "o.affected_ids, o.trace_id, o.workflow_id, o.step FROM events e JOIN operations o ON o.seq = e.op_seq "
)


class PostgresAudit:
    """The audit log's part of a PostgreSQL session (memql.store.postgres.PostgresSession)."""

    conn: Any
    _enter: Callable[[str], None]
    _rows: Callable[..., list[dict[str, Any]]]

    def redact(
        self,
        tenant: str,
        record_ids: Sequence[str],
        blank_image: Callable[[dict[str, Any]], dict[str, Any]],
        blank_ir: Callable[[dict[str, Any]], dict[str, Any]],
    ) -> None:
        self._enter(tenant)
        ids = [escape(str(i)) for i in record_ids]
        if not ids:
            return
        events = self._rows(
            "SELECT seq, before, after FROM events WHERE tenant = %s AND record_id = ANY(%s::text[])",
            (tenant, ids),
        )
        for row in events:
            blanked = blank_image(row["before"]), blank_image(row["after"])
            if blanked != (row["before"], row["after"]):
                self.conn.execute(
                    "UPDATE events SET before = %s, after = %s WHERE seq = %s",
                    (Json(blanked[0], dumps=codec.dumps), Json(blanked[1], dumps=codec.dumps), row["seq"]),
                )
        operations = self._rows(
            "SELECT seq, ir FROM operations o WHERE tenant = %s AND ("
            "EXISTS (SELECT 1 FROM json_array_elements_text(o.affected_ids) a WHERE a = ANY(%s::text[])) "
            "OR seq IN (SELECT op_seq FROM events WHERE tenant = %s AND record_id = ANY(%s::text[])))",
            (tenant, ids, tenant, ids),
        )
        for row in operations:
            if (blanked_ir := blank_ir(row["ir"])) != row["ir"]:
                self.conn.execute(
                    "UPDATE operations SET ir = %s WHERE seq = %s",
                    (Json(blanked_ir, dumps=codec.dumps), row["seq"]),
                )

    # --- audit log -------------------------------------------------------------------------------

    def log(self, operation: Operation, events: Sequence[Event]) -> int:
        self._enter(operation.tenant)
        return self._log(operation, events)

    def _log(self, operation: Operation, events: Sequence[Event], keep_seq: bool = False) -> int:
        columns = "time, tenant, actor, op, ir, affected_ids, trace_id, workflow_id, step"
        values = list(operation_values(operation))
        if keep_seq:
            columns, values = "seq, " + columns, [operation.seq, *values]
        marks = ", ".join(["%s"] * len(values))
        insert = f"INSERT INTO operations ({columns}) VALUES ({marks}) RETURNING seq"
        if events and not keep_seq:  # the operation and its events in one statement (one round trip)
            # JSON arrays of the texts, not text[]: psycopg's array dumper quotes each element by a regex in
            # Python, every quote of an image's JSON (a fifth of an Encode's client time)
            texts = [
                _array([escape(e.record_id) for e in events]),
                _array([escape(e.kind) for e in events]),
                _array([codec.dumps(e.before) for e in events]),
                _array([codec.dumps(e.after) for e in events]),
            ]
            statement = (
                f"WITH o AS ({insert}), "
                "e AS (INSERT INTO events (op_seq, tenant, record_id, kind, before, after) "
                "SELECT o.seq, %s, u.r, u.k, u.b::json, u.a::json FROM o, "
                "ROWS FROM (json_array_elements_text(%s::json), json_array_elements_text(%s::json), "
                "json_array_elements_text(%s::json), json_array_elements_text(%s::json)) "
                "WITH ORDINALITY AS u(r, k, b, a, i) ORDER BY u.i) SELECT seq FROM o"
            )
            return self.conn.execute(statement, [*values, operation.tenant, *texts]).fetchone()["seq"]
        (seq,) = self.conn.execute(insert, values).fetchone().values()
        rows = [[*([e.seq] if keep_seq else []), *event_values(seq, operation.tenant, e)] for e in events]
        if rows:
            names = ("seq, " if keep_seq else "") + "op_seq, tenant, record_id, kind, before, after"
            with self.conn.cursor() as cur:
                cur.executemany(
                    f"INSERT INTO events ({names}) VALUES ({', '.join(['%s'] * len(rows[0]))})", rows
                )
        return seq

    def history(self, tenant: str, record_id: str) -> list[Event]:
        self._enter(tenant)
        rows = self._rows(
            _EVENT_SELECT + "WHERE e.tenant = %s AND e.record_id = %s ORDER BY e.seq",
            (tenant, escape(str(record_id))),
        )
        return [codec.event_from_row(tenant, row) for row in rows]

    def events_until(self, tenant: str, until: datetime) -> Iterator[Event]:
        with self.conn.cursor() as cur:
            cur.execute(
                _EVENT_SELECT + "WHERE e.tenant = %s AND o.time <= %s ORDER BY e.seq",
                (tenant, codec.to_utc(until)),
            )
            for row in cur:
                yield codec.event_from_row(tenant, row)
