"""`memql export --format a2p`, `memql import`, `reclassify`, `consolidate`, `maintain promote` and the
notes in `memql history`, against a store on every backend."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from helpers_profile import A2P_PROFILE, CLI_CATEGORIES
from memql.interfaces.cli import main

FIXTURE = A2P_PROFILE
NOW = "2026-03-04T10:00:00+00:00"


@pytest.fixture
def store(new_location) -> str:
    return new_location()


def run(db: str, *args: str, stdin: str | None = None):
    return CliRunner().invoke(
        main,
        ["--db", db, "--tenant", "t", "--actor", "alice", "--now", NOW, *CLI_CATEGORIES, *args],
        input=stdin,
    )


def test_import_then_export_gives_the_profile_back(store, tmp_path):
    imported = run(store, "import", str(FIXTURE), "--json")
    assert imported.exit_code == 0, imported.output
    assert len(json.loads(imported.output)["imported"]) == 12
    out = tmp_path / "profile.json"
    exported = run(store, "export", "--format", "a2p", "--user", "alice", "--out", str(out))
    assert exported.exit_code == 0, exported.output
    assert out.read_text(encoding="utf-8") == FIXTURE.read_text(encoding="utf-8")
    to_stdout = run(store, "export", "--user", "alice")
    assert to_stdout.exit_code == 0 and to_stdout.output == FIXTURE.read_text(encoding="utf-8")


def test_a_bad_profile_exits_1_with_its_diagnostics_and_imports_nothing(store):
    bad = json.dumps({"memories": {"a2p:episodic": [{"content": "fine"}, {"id": "mem_x"}]}})
    result = run(store, "import", "-", "--json", stdin=bad)
    assert result.exit_code == 1
    out = json.loads(result.output)
    assert out["success"] is False and out["imported"] == []
    assert [(d["path"], d["rule"]) for d in out["diagnostics"]] == [
        ("/memories/a2p:episodic/1/content", "field.required")
    ]
    empty = run(store, "export")
    assert empty.exit_code == 0 and all(v == [] for v in json.loads(empty.output)["memories"].values())
    assert run(store, "import", "-", stdin="{nope").exit_code == 1


def test_an_unreadable_file_exits_2(store, tmp_path):
    assert run(store, "import", str(tmp_path / "absent.json")).exit_code == 2


def test_reclassify_consolidate_and_history_notes(store):
    workflow = json.dumps(
        [
            {"op": "Encode", "args": {"payload": {"text": "Likes jazz"}, "memory_type": "episodic"}},
            {
                "op": "Encode",
                "args": {"payload": {"text": "Likes electronic music"}, "memory_type": "episodic"},
            },
        ]
    )
    assert run(store, "exec", "-", stdin=workflow).exit_code == 0
    reclassified = run(store, "reclassify", "1", "--type", "semantic", "--note", "a taste", "--json")
    assert reclassified.exit_code == 0 and json.loads(reclassified.output)["op"] == "Update"
    consolidated = run(store, "consolidate", "1", "2", "--primary", "1", "--json")
    assert consolidated.exit_code == 0 and json.loads(consolidated.output)["op"] == "Merge"
    history = json.loads(run(store, "history", "1", "--json").output)
    assert [(e["op"], e["note"]) for e in history] == [
        ("Encode", None),
        ("Update", "reclassify: a taste"),
        ("Merge", "consolidate"),
    ]
    refused = run(store, "reclassify", "1", "--json")
    assert refused.exit_code == 1 and json.loads(refused.output)["diagnostics"][0]["rule"] == "update.empty"


def test_maintain_promote_dry_run_then_for_real(store):
    profile = {
        "memories": {
            "a2p:episodic": [
                {
                    "content": "User asked about Python async",
                    "confidence": 0.95,
                    "metadata": {"useCount": 11},
                },
                {"content": "User asked again about Python async"},
                {"content": "User asked about Python async today"},
            ]
        }
    }
    assert run(store, "import", "-", stdin=json.dumps(profile)).exit_code == 0
    dry = run(store, "maintain", "promote", "--dry-run", "--json")
    assert dry.exit_code == 0, dry.output
    plan = json.loads(dry.output)
    assert plan["dry_run"] is True and [p["id"] for p in plan["promoted"]] == ["1"]
    assert plan["preview"][0]["after"]["memory_type"] == "semantic"
    assert (
        json.loads(run(store, "maintain", "promote", "--dry-run", "--json").output)["promoted"]
        == plan["promoted"]
    )
    done = run(store, "maintain", "promote", "--json")
    assert done.exit_code == 0 and json.loads(done.output)["promoted"][0]["id"] == "1"
    again = json.loads(run(store, "maintain", "promote", "--json", "--min-similar", "1").output)
    assert again["promoted"] == []
    exported = json.loads(run(store, "export").output)
    assert [m["content"] for m in exported["memories"]["a2p:semantic"]] == ["User asked about Python async"]
