"""The API-key port: REST API keys, stored by every backend (memql.interfaces.apikeys creates them)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Protocol


@dataclass(frozen=True)
class ApiKey:
    """A REST API key: the tenant and the identity (memql.engine.access) a request with it acts as. The
    secret itself is never stored: only its SHA-256 (`secret_hash`); `id` is its public prefix."""

    id: str
    secret_hash: str
    tenant: str
    actor: str
    role: str
    consent: str | None = None
    clearance: str | None = None
    name: str | None = None
    created_at: datetime | None = None
    revoked_at: datetime | None = None


class KeySession(Protocol):
    """API keys (memql.interfaces.apikeys), store-wide: a key names its tenant, so looking one up cannot
    be scoped to a tenant first."""

    def add_api_key(self, key: ApiKey) -> None: ...

    def api_key_by_hash(self, secret_hash: str) -> ApiKey | None:
        """The key whose secret has this SHA-256 (revoked or not)."""
        ...

    def api_keys(self) -> list[ApiKey]:
        """Every key of every tenant, oldest first."""
        ...

    def revoke_api_key(self, key_id: str, at: datetime) -> ApiKey | None:
        """Revoke the key (a revoked key keeps its first revocation time); the key, or None if unknown."""
        ...
