"""Plain instructions, read right: how a planner reads short, direct instructions as a user types them.

The set (`instructions-v1`, English and Chinese, every verb) is phrased the way people write to an agent,
not the way the Text2Mem Bench does: record numbers without "record", tags without quotes, "it" for the
newest record, "them" after a search, numbers that are periods, and instructions that cannot be read
without asking. Each item says what a right reading is:

- `op` (the first step's verb) or `ops` (the verbs of a workflow, in order);
- optionally `ids` (the first step's target ids), `tags` (of the Label step), `text` (words the written
  text must hold), `args` (values the first step's canonical args must have);
- or `clarify: true`: the planner must ask, not plan.

Scored per item: **right** (the reading above), **asked** (the planner asked where it should have planned:
not right, but not harmful), **misread** (a program that is not the reading: another verb, other records,
other tags). A planner that cannot read an instruction must ask; a misread is the failure that matters.
Halves: the items at even positions of each language are the development half, the odd ones held out.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from memql.bench.text2mem import steps_of
from memql.cognition.planner import PlanContext
from memql.lang import validate

# the store the instructions speak of: twelve records, the newest first
CONTEXT = PlanContext(
    now=datetime(2026, 3, 4, 10, 0, tzinfo=UTC),
    tags=("okr", "meeting", "garden", "会议", "花园"),
    recent_ids=tuple(str(i) for i in range(12, 0, -1)),
    types=("note", "task", "event"),
)


@dataclass(frozen=True)
class Outcome:
    id: str
    lang: str
    half: str  # dev | heldout
    text: str
    verdict: str  # right | asked | misread
    planned: list[str]  # the verbs planned (empty when the planner asked)
    why: str = ""  # for a misread: what differs


def load(path: Path) -> list[dict[str, Any]]:
    items = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    seen: dict[str, int] = {}
    for item in items:
        position = seen.get(item["lang"], 0)
        seen[item["lang"]] = position + 1
        item["half"] = "dev" if position % 2 == 0 else "heldout"
    return items


def _texts(step: dict[str, Any]) -> str:
    return json.dumps(step.get("args", {}), ensure_ascii=False)


def judge(item: dict[str, Any], program: dict[str, Any] | None) -> tuple[str, list[str], str]:
    """(verdict, the verbs planned, why a misread is one) of one item's plan."""
    expect = item["expect"]
    if program is None:
        return ("right" if expect.get("clarify") else "asked"), [], ""
    steps = steps_of(program)
    ops = [s["op"] for s in steps]
    if expect.get("clarify"):
        return "misread", ops, "planned where it should have asked"
    wanted = expect.get("ops") or [expect["op"]]
    if ops != wanted:
        return "misread", ops, f"verbs {ops}, not {wanted}"
    first, args = steps[0], steps[0].get("args", {})
    ids = first.get("target", {}).get("ids")
    if "ids" in expect and sorted(ids or [], key=str) != sorted(expect["ids"]):
        return "misread", ops, f"records {ids}, not {expect['ids']}"
    if "tags" in expect:
        tags = next(s for s in steps if s["op"] == "Label").get("args", {}).get("tags")
        if sorted(tags or []) != sorted(expect["tags"]):
            return "misread", ops, f"tags {tags}, not {expect['tags']}"
    if "text" in expect and expect["text"].casefold() not in _texts(first).casefold():
        return "misread", ops, f"the text does not say {expect['text']!r}"
    for key, value in (expect.get("args") or {}).items():
        if args.get(key) != value:
            return "misread", ops, f"{key} is {args.get(key)!r}, not {value!r}"
    return "right", ops, ""


def run(planner: Any, items: Iterable[dict[str, Any]]) -> list[Outcome]:
    out = []
    for item in items:
        plan = planner.plan(item["text"], context=CONTEXT)
        program = plan.program if plan.ok else None
        if program is not None:  # judged in its canonical form (defaults written in)
            checked = validate(program, now=CONTEXT.now)
            program = checked.canonical if checked.valid and checked.canonical is not None else program
        verdict, ops, why = judge(item, program)
        out.append(Outcome(item["id"], item["lang"], item["half"], item["text"], verdict, ops, why))
    return out


def summary(outcomes: list[Outcome]) -> dict[str, Any]:
    def rates(group: list[Outcome]) -> dict[str, Any]:
        n = len(group)
        return {"n": n} | {
            v: round(sum(o.verdict == v for o in group) / n, 4) if n else 0.0
            for v in ("right", "asked", "misread")
        }

    report: dict[str, Any] = {"all": rates(outcomes)}
    for half in ("dev", "heldout"):
        report[half] = rates([o for o in outcomes if o.half == half])
        for lang in ("en", "zh"):
            report[f"{half}_{lang}"] = rates([o for o in outcomes if o.half == half and o.lang == lang])
    report["misread"] = [
        {"id": o.id, "text": o.text, "planned": o.planned, "why": o.why}
        for o in outcomes
        if o.verdict == "misread"
    ]
    report["asked"] = [{"id": o.id, "text": o.text} for o in outcomes if o.verdict == "asked"]
    return report
