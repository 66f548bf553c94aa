"""`memql bench instructions` (memql.bench.instructions): plain instructions judged right, asked or misread;
the development half read right, and no instruction there turned into another verb."""

from __future__ import annotations

import json

from click.testing import CliRunner

from memql.bench import instructions
from memql.bench.sets import path
from memql.cognition.planner import make_planner
from memql.interfaces.cli import main

ITEMS = instructions.load(path("instructions-v1"))


def test_the_set_covers_both_languages_every_verb_and_halves():
    assert {i["lang"] for i in ITEMS} == {"en", "zh"}
    verbs = {v for i in ITEMS for v in (i["expect"].get("ops") or [i["expect"].get("op")]) if v}
    assert verbs == {
        "Encode", "Retrieve", "Summarize", "Update", "Label", "Promote", "Demote", "Delete", "Merge", "Split",
        "Lock", "Expire",
    }  # fmt: skip
    assert any(i["expect"].get("clarify") for i in ITEMS)
    halves = {h: [i for i in ITEMS if i["half"] == h] for h in ("dev", "heldout")}
    assert len(halves["dev"]) == len(halves["heldout"]) == len(ITEMS) // 2


def test_the_judge():
    item = {"expect": {"op": "Expire", "ids": ["11"], "args": {"ttl": "P3D"}}}
    expire = {"op": "Expire", "target": {"ids": ["11"]}, "args": {"ttl": "P3D", "on_expire": "soft_delete"}}
    assert instructions.judge(item, expire)[0] == "right"
    assert instructions.judge(item, None)[0] == "asked"
    encode = {"op": "Encode", "args": {"payload": {"text": "11 expire in 3 days"}}}
    assert instructions.judge(item, encode)[:2] == ("misread", ["Encode"])
    assert instructions.judge(item, {**expire, "target": {"ids": ["1"]}})[0] == "misread"
    assert instructions.judge({"expect": {"clarify": True}}, expire)[0] == "misread"
    assert instructions.judge({"expect": {"clarify": True}}, None)[0] == "right"


def test_the_rules_planner_reads_the_development_half():
    dev = [i for i in ITEMS if i["half"] == "dev"]
    outcomes = instructions.run(make_planner("rules"), dev)
    misread = [(o.text, o.why) for o in outcomes if o.verdict == "misread"]
    assert misread == []  # a planner that cannot read an instruction asks; it never plans another verb
    assert sum(o.verdict == "right" for o in outcomes) >= 0.95 * len(dev)


def test_the_command_reports_both_halves():
    result = CliRunner().invoke(main, ["bench", "instructions", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["all"]["n"] == len(ITEMS) and report["dev"]["n"] == report["heldout"]["n"]
    assert {"right", "asked", "misread"} <= set(report["heldout_zh"])
