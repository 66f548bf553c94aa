"""The PostgreSQL backend's flush of what its read transactions buffered (memql.store.visits)."""

from __future__ import annotations

from typing import Any

import psycopg

from memql.store.postgres import codec, query
from memql.store.visits import Batch, by_tenant, entries_to_log

# a read transaction: one snapshot for all of a workflow's queries, no lock taken. Not READ ONLY: a
# point-in-time read rebuilds the past in temporary tables, which PostgreSQL's READ ONLY forbids creating;
# the read session refuses every write itself (memql.store.visits.refuse_writes)
READS = psycopg.IsolationLevel.REPEATABLE_READ


def reset_to_writes(conn: psycopg.Connection) -> None:
    """The pool's reset of a returned connection: its next transaction at the server's default level (a
    write's), whatever a read set; the pool calls it once the connection is idle, also after an error."""
    conn.isolation_level = None


def write_batch(conn: psycopg.Connection, batch: Batch, log: Any) -> None:
    """Record a drained batch inside the caller's write transaction, which holds the advisory lock of
    every tenant in it: visits added and the last access moved forward (never back), then the read audit
    entries through `log` (the session's audit append)."""
    for tenant, visits in by_tenant(batch).items():
        with conn.cursor() as cur:
            cur.executemany(
                "UPDATE records SET visits = visits + %s, last_access_at = GREATEST(last_access_at, %s) "
                "WHERE tenant = %s AND num = %s",
                [
                    (seen.count, codec.to_utc(seen.last), tenant, int(record_id))
                    for record_id, seen in visits
                    if query.record_nums([record_id])  # ids read from the store: always numbers
                ],
            )

    def present(tenant: str, ids: list[str]) -> set[str]:
        rows = conn.execute(
            "SELECT num FROM records WHERE tenant = %s AND num = ANY(%s::bigint[])",
            (tenant, query.record_nums(ids)),
        ).fetchall()
        return {str(row["num"]) for row in rows}

    for operation in entries_to_log(batch, present):
        log(operation, [])


def tenants_of(batch: Batch) -> list[str]:
    """The tenants a batch writes, sorted: flushes take their advisory locks in this order (no deadlock)."""
    return sorted({tenant for tenant, _ in batch.visits} | {e.operation.tenant for e in batch.entries})
