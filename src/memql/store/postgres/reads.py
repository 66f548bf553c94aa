"""The PostgreSQL backend's flush of what its read transactions buffered (memql.store.visits), and the
refusal of a transaction whose wait for a lock or a connection ran out (`refused_when_busy`)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import psycopg
from psycopg_pool import PoolTimeout

from memql.errors import Refusal
from memql.store.postgres import codec, query
from memql.store.visits import Batch, by_tenant, entries_to_log

# a read transaction: one snapshot for all of a workflow's queries, no lock taken. Not READ ONLY: a
# point-in-time read rebuilds the past in temporary tables, which PostgreSQL's READ ONLY forbids creating;
# the read session refuses every write itself (memql.store.visits.refuse_writes)
READS = psycopg.IsolationLevel.REPEATABLE_READ


# how long a statement waits for a lock another transaction holds (a tenant's writer lock, a row): past it,
# the write is refused as on SQLite, whose busy timeout is the same, rather than waiting for ever behind a
# stuck session. Set per connection (no round trip per transaction)
LOCK_TIMEOUT_MS = 30_000


@contextmanager
def refused_when_busy(lock_timeout_ms: int) -> Iterator[None]:
    """`store.busy` for a wait that ran out -- a lock (lock_timeout, or a deadlock PostgreSQL broke) or a
    pooled connection -- rather than a defect: another session held what this one needs."""
    try:
        yield
    except (psycopg.errors.LockNotAvailable, psycopg.errors.DeadlockDetected) as exc:
        waited = f"{lock_timeout_ms / 1000:g} s"
        message = f"another session held a lock this write needs for over {waited} (or a deadlock was broken)"
        raise Refusal("store.busy", f"{message}: nothing was changed; try again") from exc
    except PoolTimeout as exc:
        message = "every pooled connection of the store stayed in use past the wait"
        raise Refusal("store.busy", f"{message}: nothing was changed; try again") from exc


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
