"""The Store port's contract for API keys (KeySession): keys are store-wide, found by the secret's hash
whatever the tenant, keep every field exactly, keep their first revocation, and are unique by id and by
hash (a failed insert rolls its transaction back).

Tests of the conformance suite (see memql.testing): they run on the stores the `store_factory` fixture
opens.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest

from memql.ports.keys import ApiKey
from memql.testing.sample import (
    NOW,
    store,
)


def api_key(key_id: str, tenant: str, **fields) -> ApiKey:
    return ApiKey(
        id=key_id,
        secret_hash=f"hash-of-{key_id}",
        tenant=tenant,
        actor=fields.pop("actor", "mira"),
        role=fields.pop("role", "user"),
        created_at=fields.pop("created_at", NOW),
        **fields,
    )


def test_api_keys_round_trip_and_are_found_by_hash_across_tenants(store):
    agent = api_key("k2", "B", actor="bot\x00", role="agent", consent="read", clearance="standard", name="n")
    with store.transaction() as s:
        s.add_api_key(api_key("k1", "A", created_at=NOW - timedelta(hours=1)))
        s.add_api_key(agent)
    with store.dry_run() as s:
        assert s.api_key_by_hash("hash-of-k2") == agent  # every field, NUL included, and the instant
        assert s.api_key_by_hash("hash-of-nothing") is None
        assert [k.id for k in s.api_keys()] == ["k1", "k2"]  # every tenant, oldest first
        assert s.api_keys()[0].created_at == NOW - timedelta(hours=1)


def test_a_revoked_key_keeps_its_first_revocation_and_an_unknown_one_is_none(store):
    with store.transaction() as s:
        s.add_api_key(api_key("k1", "A"))
    with store.transaction() as s:
        revoked = s.revoke_api_key("k1", NOW + timedelta(days=1))
        assert revoked is not None and revoked.revoked_at == NOW + timedelta(days=1)
        again = s.revoke_api_key("k1", NOW + timedelta(days=2))
        assert again is not None and again.revoked_at == NOW + timedelta(days=1)
        assert s.revoke_api_key("nope", NOW) is None
    with store.dry_run() as s:
        assert s.api_key_by_hash("hash-of-k1").revoked_at == NOW + timedelta(days=1)


def test_key_ids_and_hashes_are_unique_and_a_failed_insert_rolls_back(store):
    with store.transaction() as s:
        s.add_api_key(api_key("k1", "A"))
    for duplicate in (api_key("k1", "B"), replace(api_key("k9", "B"), secret_hash="hash-of-k1")):
        with pytest.raises(Exception), store.transaction() as s:  # noqa: B017 - each backend's own error
            s.add_api_key(api_key("k5", "C"))
            s.add_api_key(duplicate)
        with store.dry_run() as s:
            assert [k.id for k in s.api_keys()] == ["k1"]


# what a backend's test module imports with `from memql.testing.keys import *`
__all__ = [
    "store",
    "test_a_revoked_key_keeps_its_first_revocation_and_an_unknown_one_is_none",
    "test_api_keys_round_trip_and_are_found_by_hash_across_tenants",
    "test_key_ids_and_hashes_are_unique_and_a_failed_insert_rolls_back",
]
