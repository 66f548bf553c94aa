"""API keys in a PostgreSQL store (see memql.ports.keys.KeySession): the table of migration 4."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import psycopg

from memql.ports.keys import ApiKey
from memql.store.postgres.codec import escape, escape_optional, to_utc, unescape, unescape_optional

_COLUMNS = "id, secret_hash, tenant, actor, role, consent, clearance, name, created_at, revoked_at"
_TEXTS = ("tenant", "actor", "role")
_OPTIONAL_TEXTS = ("consent", "clearance", "name")


class PostgresKeys:
    """The KeySession methods of a PostgreSQL session (mixed into PostgresSession). Text is escaped as
    everywhere in this backend (PostgreSQL text cannot hold NUL)."""

    conn: psycopg.Connection

    def add_api_key(self, key: ApiKey) -> None:
        self.conn.execute(
            f"INSERT INTO api_keys ({_COLUMNS}) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
            (
                escape(key.id),
                escape(key.secret_hash),
                *(escape(getattr(key, name)) for name in _TEXTS),
                *(escape_optional(getattr(key, name)) for name in _OPTIONAL_TEXTS),
                key.created_at,
                key.revoked_at,
            ),
        )

    def api_key_by_hash(self, secret_hash: str) -> ApiKey | None:
        row = self.conn.execute(
            f"SELECT {_COLUMNS} FROM api_keys WHERE secret_hash = %s", (escape(secret_hash),)
        ).fetchone()
        return None if row is None else _key(row)

    def api_keys(self) -> list[ApiKey]:
        rows = self.conn.execute(f"SELECT {_COLUMNS} FROM api_keys ORDER BY created_at, id").fetchall()
        return [_key(row) for row in rows]

    def revoke_api_key(self, key_id: str, at: datetime) -> ApiKey | None:
        row = self.conn.execute(
            f"UPDATE api_keys SET revoked_at = COALESCE(revoked_at, %s) WHERE id = %s RETURNING {_COLUMNS}",
            (at, escape(key_id)),
        ).fetchone()
        return None if row is None else _key(row)


def _key(row: Any) -> ApiKey:
    return ApiKey(
        id=unescape(row["id"]),
        secret_hash=unescape(row["secret_hash"]),
        **{name: unescape(row[name]) for name in _TEXTS},
        **{name: unescape_optional(row[name]) for name in _OPTIONAL_TEXTS},
        created_at=to_utc(row["created_at"]),
        revoked_at=to_utc(row["revoked_at"]),
    )
