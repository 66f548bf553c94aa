"""`memql add | search | get | lineage | history`, the API's names with their older spellings as aliases,
and global options after the subcommand, on both backends: thin shells over the Memory methods of the
same names, JSON with --json, exit 0 (done) / 1 (absent or refused) / 2 (usage)."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from memql import Memory
from memql.interfaces.cli import main

NOW = "2026-03-04T10:00:00+00:00"


@pytest.fixture
def db(new_location) -> str:
    """A new, empty store (made, as a first write would: a read of a file that is not there is refused)."""
    location = new_location()
    Memory(location, embedder=None).close()
    return location


def cli(db: str, *args: str, stdin: str | None = None):
    runner = CliRunner()
    return runner.invoke(
        main, ["--db", db, "--tenant", "t", "--actor", "mira", "--now", NOW, *args], input=stdin
    )


def out(result) -> object:
    assert result.exit_code == 0, (result.exit_code, result.output)
    return json.loads(result.stdout)


def test_add_search_get_mirror_the_api(db):
    added = out(
        cli(db, "add", "Standup moves to 9:30", "--tag", "team", "--tag", "ops", "--type", "note", "--json")
    )
    first = added["data"]["id"]
    out(cli(db, "add", "Lisbon trip in May", "--tag", "travel", "--weight", "0.8", "--json"))

    found = out(cli(db, "search", "standup", "-k", "5", "--json"))
    assert [r["id"] for r in found["data"]["rows"]] == [first]
    tagged = out(cli(db, "search", "trip", "--tag", "travel", "--json"))
    assert [r["text"] for r in tagged["data"]["rows"]] == ["Lisbon trip in May"]

    record = out(cli(db, "get", first, "--json"))
    assert (record["text"], record["tags"], record["type"], record["owner"]) == (
        "Standup moves to 9:30",
        ["team", "ops"],
        "note",
        "mira",
    )
    with Memory(db, tenant="t", actor="mira", embedder="none") as memory:  # the API gives the same record
        assert memory.get(first)["text"] == record["text"] and memory.get("999") is None


def test_old_spellings_run_the_same_commands(db):
    encoded = out(cli(db, "encode", "Renew the passport", "--json"))  # alias of add
    retrieved = out(cli(db, "retrieve", "passport", "--json"))  # alias of search
    assert [r["id"] for r in retrieved["data"]["rows"]] == [encoded["data"]["id"]]
    executed = out(cli(db, "exec", "-", "--json", stdin='{"op": "Sweep"}'))  # alias of execute
    assert executed["op"] == "Sweep"
    help_text = cli(db, "--help").output
    assert "export-a2p" in help_text and "  export " not in help_text  # aliases are not listed twice
    assert "Also spelled: memql export." in cli(db, "export-a2p", "--help").output


def test_unknown_ids_say_so(db):
    for command in ("get", "lineage", "history"):
        result = cli(db, command, "404")
        assert result.exit_code == 1, (command, result.output)
        assert "no record 404 in this tenant" in result.stderr, command


def test_another_tenants_record_is_absent_not_shown(db):
    mine = out(cli(db, "add", "payroll numbers", "--json"))["data"]["id"]
    other = CliRunner().invoke(main, ["--db", db, "--tenant", "u", "--now", NOW, "get", mine])
    assert other.exit_code == 1 and f"no record {mine}" in other.stderr
    assert CliRunner().invoke(main, ["--db", db, "--tenant", "u", "history", mine]).exit_code == 1


def test_an_agent_reads_only_what_its_consent_covers(db):
    record = out(cli(db, "add", "likes jazz", "--json"))["data"]["id"]
    agent = ["--db", db, "--tenant", "t", "--actor", "bot", "--role", "agent"]
    proposing = CliRunner().invoke(main, [*agent, "--consent", "propose", "get", record])
    assert proposing.exit_code == 1 and f"no record {record}" in proposing.stderr  # not there, to it
    searching = CliRunner().invoke(main, [*agent, "--consent", "propose", "search", "jazz", "--json"])
    assert out(searching)["data"]["rows"] == []
    reading = CliRunner().invoke(main, [*agent, "--consent", "read", "get", record, "--json"])
    assert out(reading)["text"] == "likes jazz"
    adding = CliRunner().invoke(main, [*agent, "--consent", "propose", "add", "likes tea", "--json"])
    proposal = out(adding)["data"]["id"]
    pending = out(cli(db, "proposals", "list", "--json"))["data"]["rows"]  # an agent's add is a proposal
    assert [row["id"] for row in pending] == [proposal]


def test_lineage_lists_merge_links(db):
    a = out(cli(db, "add", "flights booked", "--json"))["data"]["id"]
    b = out(cli(db, "add", "flights booked, TAP", "--json"))["data"]["id"]
    merge = json.dumps({"op": "Merge", "target": {"ids": [a, b]}, "args": {"primary_id": a}})
    out(cli(db, "execute", "-", "--json", stdin=merge))
    links = out(cli(db, "lineage", b, "--json"))
    assert [(link["src"], link["relation"], link["dst"]) for link in links] == [(b, "merged_into", a)]
    assert out(cli(db, "lineage", a, "--json")) == links


def test_global_options_after_the_subcommand(db):
    stored = CliRunner().invoke(main, ["add", "late options", "--db", db, "--tenant", "t", "--json"])
    assert stored.exit_code == 0, stored.output
    record = json.loads(stored.stdout)["data"]["id"]
    got = CliRunner().invoke(main, ["get", record, "--json", f"--db={db}", "--tenant", "t"])
    assert got.exit_code == 0 and json.loads(got.stdout)["text"] == "late options"
    elsewhere = CliRunner().invoke(main, ["get", record, "--db", db, "--tenant", "other"])
    assert elsewhere.exit_code == 1  # --tenant after the subcommand counted


def test_a_subcommand_s_own_option_of_the_same_name_stays_its_own(db):
    # `keys create --tenant` is the key's tenant, not the session's
    made = CliRunner().invoke(
        main, ["keys", "create", "--tenant", "acme", "--actor", "ci", "--json", "--db", db]
    )
    assert made.exit_code == 0, made.output
    assert json.loads(made.stdout)["tenant"] == "acme"


def test_add_refused_is_exit_1_with_the_rule(db):
    result = cli(db, "add", "x", "--category", "work", "--json")
    assert result.exit_code == 1
    assert [d["rule"] for d in json.loads(result.stdout)["diagnostics"]] == ["category.namespace"]


def test_docs_cli_lists_every_command_and_each_old_spelling_runs():
    from pathlib import Path

    import click

    from memql.interfaces.cli.common import MemqlGroup

    text = (Path(__file__).resolve().parents[3] / "docs" / "cli.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"`memql ([a-z0-9-]+)", text))
    visible = {name for name, command in main.commands.items() if not command.hidden}
    assert visible - listed == set(), "commands missing from docs/cli.md"
    for old, new in MemqlGroup.aliases.items():
        assert f"`memql {old}`" in text, old
        context = click.Context(main)
        assert main.get_command(context, old) is main.commands[new]


def test_get_of_a_deleted_record_points_at_its_history(db):
    record = out(cli(db, "add", "old plan", "--json"))["data"]["id"]
    out(cli(db, "execute", "--json", stdin=json.dumps({"op": "Delete", "target": {"ids": [record]}})))
    gone = cli(db, "get", record)
    assert gone.exit_code == 1 and f"memql history {record}" in gone.stderr
    changes = [event["change"] for event in out(cli(db, "history", record, "--json"))]
    assert changes[0] == "insert" and len(changes) == 2
    again = out(cli(db, "execute", "--json", stdin=json.dumps({"op": "Delete", "target": {"ids": ["4040"]}})))
    assert again["success"] and [w["rule"] for w in again["warnings"]] == ["target.not_found"]


def test_remember_forms_facts_and_names_a_refusal(tmp_path):
    """`memql remember` (Memory.remember): JSON when piped, exit 1 with the diagnostic when refused."""
    db = str(tmp_path / "m.db")
    runner = CliRunner()

    def remember(*args: str) -> tuple[int, dict]:
        result = runner.invoke(main, ["--db", db, "--actor", "mira", "remember", *args])
        return result.exit_code, json.loads(result.stdout)

    code, first = remember("I live in Lisbon.", "--time", "2026-01-05")
    assert code == 0 and [(m["event"], m["text"]) for m in first["memories"]] == [
        ("ADD", "mira's residence: Lisbon")
    ]
    code, moved = remember("I moved to Porto.", "--tag", "home", "--speaker", "mira")
    assert code == 0 and moved["memories"][0]["superseded"] == [
        {"id": "1", "text": "mira's residence: Lisbon"}
    ]
    code, refused = remember("I moved to Faro.", "--time", "never ever")
    assert code == 1 and [(d["path"], d["rule"]) for d in refused["diagnostics"]] == [
        ("/time", "time.invalid")
    ]
