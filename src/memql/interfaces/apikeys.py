"""API keys of the REST server: create (the secret is shown once), list, revoke, and authenticate.

A key is ``memql_<id>_<secret>``: `id` is a short public prefix (listed, used to revoke), `secret` 32
random bytes. The store keeps only the SHA-256 of the whole key (memql.ports.keys.ApiKey): a
high-entropy random secret needs no slow, salted hash, and a leaked store reveals no usable key. Each key
maps to a tenant and an identity (actor, role, an agent's consent, a clearance) checked by the engine's
own rules (memql.engine.access.identity) when the key is created.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

from memql.engine.access import identity
from memql.lang.time import format_instant
from memql.ports.keys import ApiKey, KeySession
from memql.ports.store import Store

PREFIX = "memql_"
_MAX_KEY_LENGTH = 200  # longer than any key this module makes; longer input is not hashed at all
_MAX_FIELD = 200


def secret_hash(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True)
class NewKey:
    """A key just created: `secret` is the full key, shown once and never stored."""

    key: ApiKey
    secret: str


def create_key(
    store: Store,
    *,
    tenant: str,
    actor: str,
    role: str = "user",
    consent: str | None = None,
    clearance: str | None = None,
    name: str | None = None,
    now: datetime,
) -> NewKey:
    """Create a key for (tenant, actor, role, consent, clearance). Raises ValueError naming the field when
    the identity is contradictory or incomplete (an agent's consent given to a user, an empty tenant)."""
    for field_name, value in (("tenant", tenant), ("actor", actor)):
        if not value or not value.strip() or len(value) > _MAX_FIELD:
            raise ValueError(f"{field_name} must be a non-empty name of at most {_MAX_FIELD} characters")
    who = identity(actor, role=role, consent=consent, clearance=clearance)
    key_id = secrets.token_hex(6)
    secret = f"{PREFIX}{key_id}_{secrets.token_urlsafe(32)}"
    key = ApiKey(
        id=key_id,
        secret_hash=secret_hash(secret),
        tenant=tenant,
        actor=actor,
        role=who.role,
        consent=who.consent,
        clearance=clearance,  # None: the role's default, resolved by the engine when the key is used
        name=name,
        created_at=now,
    )
    with store.transaction() as session:
        cast(KeySession, session).add_api_key(key)
    return NewKey(key, secret)


def list_keys(store: Store) -> list[ApiKey]:
    with store.read() as session:
        return cast(KeySession, session).api_keys()


def revoke_key(store: Store, key_id: str, *, now: datetime) -> ApiKey | None:
    """Revoke a key by its id; None when there is no such key."""
    with store.transaction() as session:
        return cast(KeySession, session).revoke_api_key(key_id, now)


def authenticate(store: Store, presented: str) -> ApiKey | None:
    """The live key `presented` is, or None (unknown, malformed or revoked)."""
    if not presented.startswith(PREFIX) or len(presented) > _MAX_KEY_LENGTH:
        return None
    with store.read() as session:  # a read: no write lock, every request checks its key
        key = cast(KeySession, session).api_key_by_hash(secret_hash(presented))
    if key is None or key.revoked_at is not None:
        return None
    return key


def describe(key: ApiKey) -> dict[str, Any]:
    """A key as listings show it: everything but its hash."""
    return {
        "id": key.id,
        "name": key.name,
        "tenant": key.tenant,
        "actor": key.actor,
        "role": key.role,
        "consent": key.consent,
        "clearance": key.clearance,
        "created_at": format_instant(key.created_at) if key.created_at else None,
        "revoked_at": format_instant(key.revoked_at) if key.revoked_at else None,
    }
