"""The typed builders (memql.lang.build): each one's IR is the hand-written IR it replaces, and it
validates; a bad value reaches the validator as a diagnostic, never as an exception from the builder."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memql.lang import build, validate

NOW = datetime(2026, 3, 4, 10, 0, tzinfo=UTC)

CASES = [
    (
        build.encode("Standup moves to 9:30", tags=["team"], weight=0.7, dedupe=False),
        {
            "op": "Encode",
            "args": {
                "payload": {"text": "Standup moves to 9:30"},
                "tags": ["team"],
                "weight": 0.7,
                "dedupe": False,
            },
        },
    ),
    (
        build.encode(payload={"text": "hi", "context": "before"}, type="turn", comment="a message"),
        {
            "op": "Encode",
            "args": {"payload": {"text": "hi", "context": "before"}, "type": "turn"},
            "_comment": "a message",
        },
    ),
    (
        build.retrieve("budget", k=5, order_by="time_desc", overrides={"alpha": 0.0}, include=["id"]),
        {
            "op": "Retrieve",
            "target": {
                "search": {
                    "intent": {"query": "budget"},
                    "overrides": {"alpha": 0.0, "k": 5, "order_by": "time_desc"},
                }
            },
            "args": {"include": ["id"]},
        },
    ),
    (
        build.retrieve(
            filter={"status": "any", "limit": 10}, as_of="2026-03-01T00:00:00Z", meta={"dry_run": True}
        ),
        {
            "op": "Retrieve",
            "target": {"filter": {"status": "any", "limit": 10}},
            "args": {"as_of": "2026-03-01T00:00:00Z"},
            "meta": {"dry_run": True},
        },
    ),
    (build.retrieve(), {"op": "Retrieve", "target": {"filter": {}}, "args": {}}),
    (
        build.retrieve(target=build.by_search("cats", k=3, limit=3, filter={"has_tags": ["pets"]})),
        {
            "op": "Retrieve",
            "target": {
                "search": {"intent": {"query": "cats"}, "overrides": {"k": 3}, "limit": 3},
                "filter": {"has_tags": ["pets"]},
            },
            "args": {},
        },
    ),
    (
        build.summarize(ids=["1", "2"], focus="dates", max_tokens=64),
        {"op": "Summarize", "target": {"ids": ["1", "2"]}, "args": {"focus": "dates", "max_tokens": 64}},
    ),
    (
        build.update("7", text="Moved to 3pm", comment="fix"),
        {
            "op": "Update",
            "target": {"ids": ["7"]},
            "args": {"set": {"text": "Moved to 3pm"}},
            "_comment": "fix",
        },
    ),
    (
        build.label(["1", "2"], ["work"], mode="remove"),
        {"op": "Label", "target": {"ids": ["1", "2"]}, "args": {"tags": ["work"], "mode": "remove"}},
    ),
    (
        build.promote("3", weight_delta=0.1, remind={"rrule": "FREQ=DAILY"}, reason="hot"),
        {
            "op": "Promote",
            "target": {"ids": ["3"]},
            "args": {"weight_delta": 0.1, "remind": {"rrule": "FREQ=DAILY"}, "reason": "hot"},
        },
    ),
    (
        build.demote(build.by_filter(has_tags=["old"], limit=100), archive=True),
        {
            "op": "Demote",
            "target": {"filter": {"has_tags": ["old"], "limit": 100}},
            "args": {"archive": True},
        },
    ),
    (
        build.merge(["4", "6"], primary_id="4", consolidated_from=["mem_a"], comment="consolidate"),
        {
            "op": "Merge",
            "target": {"ids": ["4", "6"]},
            "args": {"primary_id": "4", "consolidated_from": ["mem_a"]},
            "_comment": "consolidate",
        },
    ),
    (
        build.delete("5", soft=False, reason="asked", meta={"confirmation": True}),
        {
            "op": "Delete",
            "target": {"ids": ["5"]},
            "args": {"soft": False, "reason": "asked"},
            "meta": {"confirmation": True},
        },
    ),
    (
        build.split("2", strategy="by_chunks", params={"by_chunks": {"num_chunks": 3}}),
        {
            "op": "Split",
            "target": {"ids": ["2"]},
            "args": {"strategy": "by_chunks", "params": {"by_chunks": {"num_chunks": 3}}},
        },
    ),
    (
        build.lock("19", mode="read_only", reason="signed"),
        {"op": "Lock", "target": {"ids": ["19"]}, "args": {"mode": "read_only", "reason": "signed"}},
    ),
    (
        build.expire("33", ttl="P2D", on_expire="archive"),
        {"op": "Expire", "target": {"ids": ["33"]}, "args": {"ttl": "P2D", "on_expire": "archive"}},
    ),
]


@pytest.mark.parametrize(("built", "expected"), CASES, ids=[c[1]["op"] + str(i) for i, c in enumerate(CASES)])
def test_a_builder_writes_the_ir_it_replaces_and_it_validates(built, expected):
    assert built == expected
    checked = validate(built, now=NOW)
    assert checked.valid, checked.errors
    assert checked.canonical == validate(expected, now=NOW).canonical


def test_every_verb_has_a_builder():
    verbs = {c[0]["op"] for c in CASES}
    assert verbs == {
        *("Encode", "Retrieve", "Summarize", "Update", "Label", "Promote"),
        *("Demote", "Merge", "Delete", "Split", "Lock", "Expire"),
    }


def test_a_workflow_of_built_steps_validates():
    program = build.workflow(
        [build.encode("rent is due"), build.promote(build.from_step(0), remind={"rrule": "FREQ=MONTHLY"})],
        name="remember rent",
    )
    assert list(program) == ["name", "workflow"]
    assert validate(program, now=NOW).valid


def test_ids_are_strings_in_a_list():
    assert build.by_ids("1") == {"ids": ["1"]}
    assert build.by_ids([1, 2]) == {"ids": ["1", "2"]}
    assert build.by_ids(("3",)) == {"ids": ["3"]}


@pytest.mark.parametrize(
    ("built", "rule_prefix"),
    [
        (build.update(None, text="x"), "target."),  # no ids at all: the builder passes that on
        (build.promote("1", weight="heavy"), "field."),
        (build.encode(), "encode."),  # no payload
        (build.expire("1", ttl="soon", on_expire="none"), ""),
        (build.label("1"), "label."),  # neither tags nor facets
    ],
)
def test_a_bad_value_becomes_a_diagnostic_not_an_exception(built, rule_prefix):
    checked = validate(built, now=NOW)
    assert not checked.valid
    assert any(d.rule.startswith(rule_prefix) for d in checked.errors), checked.errors
