"""`memql keys create|list|revoke` on both backends: the secret is printed once and never stored or
listed; identities are checked by the engine's rules; revoked keys no longer authenticate."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from memql.interfaces.apikeys import authenticate, secret_hash
from memql.interfaces.cli import main
from memql.store import open_store


@pytest.fixture
def location(new_location) -> str:
    return new_location()


def run(location: str, *args: str):
    return CliRunner().invoke(main, ["--db", location, "--now", "2026-03-04T10:00:00+00:00", *args])


def test_create_list_revoke(location):
    made = run(location, "keys", "create", "--tenant", "acme", "--actor", "bot", "--role", "agent",
               "--consent", "read", "--name", "support bot", "--json")  # fmt: skip
    assert made.exit_code == 0, made.output
    created = json.loads(made.output)
    secret = created["key"]
    assert secret.startswith(f"memql_{created['id']}_") and len(secret) > 50
    assert created | {"key": None} == {
        "id": created["id"],
        "name": "support bot",
        "tenant": "acme",
        "actor": "bot",
        "role": "agent",
        "consent": "read",
        "clearance": None,
        "created_at": "2026-03-04T10:00:00Z",
        "revoked_at": None,
        "key": None,
    }
    listed = run(location, "keys", "list", "--json")
    assert listed.exit_code == 0 and secret not in listed.output and secret_hash(secret) not in listed.output
    assert [k["id"] for k in json.loads(listed.output)] == [created["id"]]
    store = open_store(location)
    try:
        key = authenticate(store, secret)
        assert key is not None and (key.tenant, key.actor, key.consent) == ("acme", "bot", "read")
        assert authenticate(store, secret + "x") is None and authenticate(store, "memql_") is None
        revoked = run(location, "keys", "revoke", created["id"])
        assert revoked.exit_code == 0, revoked.output
        assert authenticate(store, secret) is None
    finally:
        store.close()
    assert (
        json.loads(run(location, "keys", "list", "--json").output)[0]["revoked_at"] == "2026-03-04T10:00:00Z"
    )
    unknown = run(location, "keys", "revoke", "nope")
    assert unknown.exit_code == 1 and "no key nope" in unknown.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--role", "user", "--consent", "read"], "consent applies to agents"),
        (["--role", "owner"], "Invalid value for '--role'"),
        (["--clearance", "top-secret"], "Invalid value for '--clearance'"),
    ],
)
def test_a_contradictory_identity_is_a_usage_error_and_creates_nothing(location, args, message):
    r = run(location, "keys", "create", "--tenant", "acme", "--actor", "mira", *args)
    assert r.exit_code == 2 and message in r.output
    assert json.loads(run(location, "keys", "list", "--json").output) == []


def test_an_empty_tenant_is_refused(location):
    r = run(location, "keys", "create", "--tenant", " ", "--actor", "mira")
    assert r.exit_code == 2 and "tenant must be a non-empty name" in r.output
