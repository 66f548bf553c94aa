"""Point-in-time reads on SQLite (RecordQuery.as_of): the tenant's records rebuilt from the audit log up
to the instant, in temporary tables, and the same query run on them (mixed into SQLiteSession)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from datetime import datetime
from typing import Any

from memql.index.text import context_text, lexical_text
from memql.ports.record import Event, Record
from memql.ports.store import RecordQuery
from memql.services.tokenize import index_text
from memql.store.replay import governed_as_now, replay
from memql.store.sqlite import codec, query

# an event with its operation's columns (what SQLiteSession._event reads)
EVENTS_SELECT = (
    "SELECT e.seq, e.record_id, e.kind, e.before, e.after, o.seq AS op_seq, o.time, o.actor, o.op, "
    "o.ir, o.affected_ids, o.trace_id, o.workflow_id, o.step "
    "FROM events e JOIN operations o ON o.seq = e.op_seq"
)


class SQLiteAsOf:
    """The as-of reads of a SQLite session: it supplies `conn`, `find` and `_event`."""

    conn: sqlite3.Connection

    def _events_until(self, tenant: str, until: datetime) -> Iterator[Event]:
        rows = self.conn.execute(
            EVENTS_SELECT + " WHERE e.tenant = ? AND o.time <= ? ORDER BY e.seq",
            (tenant, codec.to_us(until)),
        )
        for row in rows:
            yield self._event(tenant, row)

    def _find_as_of(self, tenant: str, q: RecordQuery) -> list[tuple[Record, float | None]]:
        """Rebuild the tenant's records from the audit log up to q.as_of, then run the same query on them."""
        records = replay(self._events_until(tenant, q.as_of))  # type: ignore[arg-type]
        self.conn.execute("CREATE TEMP TABLE IF NOT EXISTS asof_records AS SELECT * FROM records WHERE 0")
        self.conn.execute(
            "CREATE VIRTUAL TABLE IF NOT EXISTS temp.asof_fts USING fts5(body, context, "
            "tokenize = 'unicode61 remove_diacritics 2')"
        )
        self.conn.execute("DELETE FROM asof_records")
        self.conn.execute("DELETE FROM asof_fts")
        now = {r.id: r for r, _ in self.find(tenant, RecordQuery(statuses=None))} if records else {}
        last = self._last_images(tenant, [i for i in records if i not in now])
        for record_id, past in records.items():
            record = governed_as_now(past, now.get(record_id), last.get(record_id))
            row = {"num": int(record_id), **codec.encode(record)}
            self.conn.execute(
                f"INSERT INTO asof_records ({', '.join(row)}) VALUES ({', '.join('?' * len(row))})",
                list(row.values()),
            )
            self.conn.execute(
                "INSERT INTO asof_fts (rowid, body, context) VALUES (?, ?, ?)",
                (int(record_id), index_text(lexical_text(record)), index_text(context_text(record))),
            )
        plain = RecordQuery(**{**q.__dict__, "as_of": None})
        sql, params = query.build(tenant, plain, table="asof_records", fts="asof_fts")
        return [(codec.decode(row), row["score"]) for row in self.conn.execute(sql, params)]

    def _last_images(self, tenant: str, ids: list[str]) -> dict[str, dict[str, Any]]:
        """The last image of each gone record: its delete event's `before` (its last governance)."""
        if not ids:
            return {}
        rows = self.conn.execute(
            f"SELECT record_id, before FROM events WHERE tenant = ? AND kind = 'delete' "
            f"AND record_id IN ({','.join('?' * len(ids))}) ORDER BY seq",
            [tenant, *ids],
        )
        return {row["record_id"]: json.loads(row["before"]) for row in rows}
