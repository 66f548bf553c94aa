"""Point-in-time reads on PostgreSQL: the tenant's records rebuilt from the audit log up to `as_of` into
temporary tables (dropped when the transaction ends), then the ordinary query on them -- BM25 included,
with statistics over the rebuilt records only, as the SQLite backend's temporary FTS table has."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from datetime import datetime
from typing import Any, Protocol

from memql.ports.record import Event, Record
from memql.ports.store import RecordQuery
from memql.store.postgres import codec, lexical, query, vectors
from memql.store.replay import governed_as_now, replay


class _Session(Protocol):
    """What a point-in-time read needs of memql.store.postgres.PostgresSession (typed here, not imported:
    that module imports this one)."""

    conn: Any

    def events_until(self, tenant: str, until: datetime) -> Iterator[Event]: ...

    def find(self, tenant: str, q: RecordQuery) -> list[tuple[Record, float | None]]: ...


_TABLES = """
CREATE TEMP TABLE IF NOT EXISTS asof_records (LIKE records INCLUDING DEFAULTS) ON COMMIT DROP;
CREATE TEMP TABLE IF NOT EXISTS asof_postings (LIKE lexical_postings) ON COMMIT DROP;
CREATE TEMP TABLE IF NOT EXISTS asof_docs (num BIGINT, len INTEGER) ON COMMIT DROP;
TRUNCATE pg_temp.asof_records, pg_temp.asof_postings, pg_temp.asof_docs
"""
_STATS = "SELECT count(*)::float8 AS n, sum(len)::float8 AS tok FROM pg_temp.asof_docs"
_DF = (
    "SELECT term, count(*)::float8 AS df FROM pg_temp.asof_postings WHERE term = ANY(%(terms)s) GROUP BY term"
)


def find_as_of(session: _Session, tenant: str, q: RecordQuery) -> list[tuple[Record, float | None]]:
    records = replay(session.events_until(tenant, q.as_of))  # type: ignore[arg-type]
    conn = session.conn
    for statement in _TABLES.split(";"):
        conn.execute(statement)
    columns = ", ".join(("num", *codec.COLUMNS, "vec"))
    marks = ", ".join(["%s"] * (len(codec.COLUMNS) + 1))
    now = {r.id: r for r, _ in session.find(tenant, RecordQuery(statuses=None))} if records else {}
    last = _last_images(conn, tenant, [i for i in records if i not in now])
    for record_id, past in records.items():
        (num,) = query.record_nums([record_id]) or (None,)
        if num is None:
            continue
        record = governed_as_now(past, now.get(record_id), last.get(record_id))
        conn.execute(
            f"INSERT INTO pg_temp.asof_records ({columns}) VALUES ({marks}, %s::vector)",
            [num, *codec.encode(record), vectors.column_value(record.embedding)],
        )
        postings, length = lexical.document(record)
        conn.execute("INSERT INTO pg_temp.asof_docs (num, len) VALUES (%s, %s)", (num, length))
        if postings:
            conn.execute(
                "INSERT INTO pg_temp.asof_postings (tenant, term, num, body, context, len) "
                "SELECT %s, t, %s, b, c, %s FROM unnest(%s::text[], %s::int[], %s::int[]) AS u(t, b, c)",
                (
                    tenant,
                    num,
                    length,
                    list(postings),
                    [v[0] for v in postings.values()],
                    [v[1] for v in postings.values()],
                ),
            )
    plain = replace(q, as_of=None)
    statement, params = query.build(
        tenant, plain, table="pg_temp.asof_records", postings="pg_temp.asof_postings", stats=_STATS, df=_DF
    )
    return [(codec.decode(row), row["score"]) for row in conn.execute(statement, params)]


def _last_images(conn: Any, tenant: str, ids: list[str]) -> dict[str, dict[str, Any]]:
    """The last image of each gone record: its delete event's `before` (its last governance)."""
    if not ids:
        return {}
    rows = conn.execute(
        "SELECT record_id, before FROM events WHERE tenant = %s AND kind = 'delete' "
        "AND record_id = ANY(%s::text[]) ORDER BY seq",
        (tenant, [codec.escape(i) for i in ids]),
    ).fetchall()
    return {codec.unescape(row["record_id"]): row["before"] for row in rows}
