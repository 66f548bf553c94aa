"""`memql --role/--consent` and `memql proposals list|approve|reject|edit`, on both backends: a thin shell
over Memory.proposals, with --json output and exit codes 0 (done) / 1 (refused) / 2 (usage)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from memql.interfaces.cli import main

NOW = "2026-03-04T10:00:00+00:00"


@pytest.fixture
def db(new_location) -> str:
    return new_location()


def cli(db: str, *args: str, stdin: str | None = None, env: dict | None = None):
    return CliRunner().invoke(main, ["--db", db, "--tenant", "t", "--now", NOW, *args], input=stdin, env=env)


def propose(db: str, text: str, agent: str = "bot") -> str:
    ir = json.dumps({"op": "Encode", "args": {"payload": {"text": text}, "category": "a2p:preferences"}})
    result = cli(db, "--actor", agent, "--role", "agent", "exec", "-", "--json", stdin=ir)
    assert result.exit_code == 0, result.output
    return json.loads(result.output)["data"]["id"]


def test_an_agent_proposes_and_a_user_reviews(db):
    first, second, third = propose(db, "likes jazz"), propose(db, "likes tea"), propose(db, "likes rain")
    listed = cli(db, "--actor", "mira", "proposals", "list", "--json")
    assert listed.exit_code == 0, listed.output
    rows = json.loads(listed.output)["data"]["rows"]
    assert [r["id"] for r in rows] == [third, second, first] and {r["agent"] for r in rows} == {"bot"}

    assert cli(db, "--actor", "mira", "proposals", "approve", first, "--json").exit_code == 0
    assert cli(db, "--actor", "mira", "proposals", "reject", second, "--json").exit_code == 0
    edited = cli(
        db, "--actor", "mira", "proposals", "edit", third, "--text", "likes summer rain", "--tag", "weather"
    )
    assert edited.exit_code == 0, edited.output

    history = json.loads(cli(db, "--actor", "mira", "history", third, "--json").output)
    assert [(h["actor"], h["proposal"]) for h in history] == [
        ("bot", "proposed"),
        ("mira", "approved with edits"),
    ]
    assert history[1]["after"]["text"] == "likes summer rain" and history[1]["after"]["tags"] == ["weather"]
    remaining = json.loads(cli(db, "--actor", "mira", "proposals", "list", "--json").output)
    assert remaining["data"]["rows"] == []


def test_consent_and_roles_from_the_environment(db):
    proposal = propose(db, "likes hiking")
    env = {"MEMQL_ROLE": "agent", "MEMQL_CONSENT": "read_write", "MEMQL_ACTOR": "bot"}
    refused = cli(db, "proposals", "approve", proposal, "--json", env=env)  # its own: an agent never decides
    assert refused.exit_code == 1
    assert [d["rule"] for d in json.loads(refused.output)["diagnostics"]] == ["proposal.approver"]
    elsewhere = cli(db, "proposals", "approve", proposal, "--json", env={**env, "MEMQL_ACTOR": "helper"})
    assert elsewhere.exit_code == 0  # another agent's proposal is, to it, not there
    assert [w["rule"] for w in json.loads(elsewhere.output)["warnings"]] == ["target.not_found"]
    as_proposer = cli(db, "--actor", "bot", "--role", "agent", "proposals", "approve", proposal, "--json")
    assert as_proposer.exit_code == 1
    assert json.loads(as_proposer.output)["diagnostics"][0]["rule"] == "consent.write"


def test_bad_identities_and_edits_are_usage_errors(db):
    assert cli(db, "--role", "owner", "proposals", "list").exit_code == 2
    opened = cli(db, "--consent", "read", "proposals", "list")
    assert opened.exit_code == 2 and "consent applies to agents" in opened.output
    assert cli(db, "--role", "agent", "proposals", "list").exit_code == 2  # an agent needs an actor
    proposal = propose(db, "likes chess")
    assert cli(db, "proposals", "edit", proposal).exit_code == 2  # nothing to edit
    assert cli(db, "proposals", "edit", proposal, "--set", "confidence").exit_code == 2
    bad = cli(db, "proposals", "edit", proposal, "--set", "category=work", "--json")
    assert bad.exit_code == 1 and json.loads(bad.output)["diagnostics"][0]["rule"] == "category.namespace"
    fine = cli(db, "proposals", "edit", proposal, "--set", "confidence=0.9", "--json")
    assert fine.exit_code == 0, fine.output
