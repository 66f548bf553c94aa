"""API keys in a SQLite store (see memql.ports.keys.KeySession): the table of migration 8."""

from __future__ import annotations

import sqlite3
from datetime import datetime

from memql.ports.keys import ApiKey
from memql.store.sqlite import codec

_COLUMNS = "id, secret_hash, tenant, actor, role, consent, clearance, name, created_at, revoked_at"


class SQLiteKeys:
    """The KeySession methods of a SQLite session (mixed into SQLiteSession)."""

    conn: sqlite3.Connection

    def add_api_key(self, key: ApiKey) -> None:
        self.conn.execute(
            f"INSERT INTO api_keys ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                key.id,
                key.secret_hash,
                key.tenant,
                key.actor,
                key.role,
                key.consent,
                key.clearance,
                key.name,
                codec.to_us(key.created_at),
                codec.to_us(key.revoked_at),
            ),
        )

    def api_key_by_hash(self, secret_hash: str) -> ApiKey | None:
        row = self.conn.execute(
            f"SELECT {_COLUMNS} FROM api_keys WHERE secret_hash = ?", (secret_hash,)
        ).fetchone()
        return None if row is None else _key(row)

    def api_keys(self) -> list[ApiKey]:
        rows = self.conn.execute(f"SELECT {_COLUMNS} FROM api_keys ORDER BY created_at, id")
        return [_key(row) for row in rows]

    def revoke_api_key(self, key_id: str, at: datetime) -> ApiKey | None:
        self.conn.execute(
            "UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL",
            (codec.to_us(at), key_id),
        )
        row = self.conn.execute(f"SELECT {_COLUMNS} FROM api_keys WHERE id = ?", (key_id,)).fetchone()
        return None if row is None else _key(row)


def _key(row: sqlite3.Row) -> ApiKey:
    return ApiKey(
        id=row["id"],
        secret_hash=row["secret_hash"],
        tenant=row["tenant"],
        actor=row["actor"],
        role=row["role"],
        consent=row["consent"],
        clearance=row["clearance"],
        name=row["name"],
        created_at=codec.from_us(row["created_at"]),
        revoked_at=codec.from_us(row["revoked_at"]),
    )
