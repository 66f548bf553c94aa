"""The PostgreSQL backend's flush of what its read transactions buffered (memql.store.visits), and the
refusals a PostgreSQL error can be: a wait for a lock or a connection that ran out, a server that cannot
be reached, a connection lost, a full disk (`refusing`)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import psycopg
from psycopg_pool import PoolClosed, PoolTimeout

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


class Attempt:
    """How far a transaction got: `committing` once its body has run (a connection lost from then on
    leaves the client not knowing whether the server committed); `lost`: its connection was lost (the
    server went away under it, rather than being out of reach before it began)."""

    committing = False
    lost = False


@contextmanager
def refusing(lock_timeout_ms: int, dsn: str, attempt: Attempt | None = None) -> Iterator[None]:
    """The refusals a PostgreSQL error is, rather than a defect: `store.busy` for a wait that ran out -- a
    lock (lock_timeout, or a deadlock PostgreSQL broke) or a pooled connection while the server answers;
    `store.unavailable` for a server that cannot be reached or a connection lost (before the commit
    nothing was changed: the server rolls back; during it, the outcome is unknown and the message says
    so); `store.full` for the server's full disk."""
    try:
        yield
    except (psycopg.errors.LockNotAvailable, psycopg.errors.DeadlockDetected) as exc:
        waited = f"{lock_timeout_ms / 1000:g} s"
        message = f"another session held a lock this write needs for over {waited} (or a deadlock was broken)"
        raise Refusal("store.busy", f"{message}: nothing was changed; try again") from exc
    except PoolTimeout as exc:
        reason = unreachable(dsn)
        if reason is not None:  # the pool waited for connections it could not open
            message = f"PostgreSQL cannot be reached ({reason}): nothing was changed; try again later"
            raise Refusal("store.unavailable", message) from exc
        message = "every pooled connection of the store stayed in use past the wait"
        raise Refusal("store.busy", f"{message}: nothing was changed; try again") from exc
    except PoolClosed:
        raise  # the store was closed: the caller's mistake
    except psycopg.OperationalError as exc:
        refusal = _refusal_for(exc, attempt is not None and attempt.committing)
        if refusal is None:
            raise
        if attempt is not None:
            attempt.lost = refusal.rule == "store.unavailable"
        raise refusal from exc


def _refusal_for(exc: psycopg.OperationalError, committing: bool) -> Refusal | None:
    state, said = exc.sqlstate or "", _first_line(exc)
    if state == "53100":  # disk_full
        return Refusal("store.full", f"PostgreSQL's disk is full ({said}): nothing was changed")
    if state and not state.startswith(("08", "57P", "53")):
        return None  # (a cancelled statement, a lock: not the server going away)
    if committing:
        return Refusal(
            "store.unavailable",
            f"the connection to PostgreSQL failed while the write committed ({said}): it may or may not have "
            "been applied; look before trying again",
        )
    return Refusal(
        "store.unavailable", f"the connection to PostgreSQL failed ({said}): nothing was changed; try again"
    )


def unreachable(dsn: str) -> str | None:
    """Why a new connection to the server fails (its first line), or None when one opens."""
    try:
        psycopg.connect(dsn, connect_timeout=5).close()
    except psycopg.Error as exc:
        return _first_line(exc)
    return None


def _first_line(exc: BaseException) -> str:
    lines = str(exc).strip().splitlines()
    return lines[0].strip() if lines else type(exc).__name__


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
