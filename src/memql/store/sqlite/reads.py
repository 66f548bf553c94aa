"""The SQLite backend's flush of what its read transactions buffered (memql.store.visits)."""

from __future__ import annotations

import sqlite3
from typing import Any

from memql.store.sqlite import codec
from memql.store.visits import Batch, by_tenant, entries_to_log


def write_batch(conn: sqlite3.Connection, batch: Batch, log: Any) -> None:
    """Record a drained batch inside the caller's write transaction: each record's visits added and its
    last access moved forward (never back: another process may have recorded a later one), then the read
    audit entries through `log` (the session's audit append)."""
    for tenant, visits in by_tenant(batch).items():
        conn.executemany(
            # `+tenant`: look records up by rowid (see SQLiteSession.touch)
            "UPDATE records SET visits = visits + ?, last_access_at = MAX(COALESCE(last_access_at, ?), ?) "
            "WHERE num = ? AND +tenant = ?",
            [
                (seen.count, codec.to_us(seen.last), codec.to_us(seen.last), int(record_id), tenant)
                for record_id, seen in visits
            ],
        )

    def present(tenant: str, ids: list[str]) -> set[str]:
        marks = ",".join("?" * len(ids))
        rows = conn.execute(
            f"SELECT num FROM records WHERE num IN ({marks}) AND +tenant = ?", [*map(int, ids), tenant]
        )
        return {str(row[0]) for row in rows}

    for operation in entries_to_log(batch, present):
        log(operation, [])
