"""Spellings the Text2Mem reference (its models, adapter, schema and bench-generator prompts) produces for
Lock, Expire and time ranges: each is rewritten to memql's canonical form with a compat.alias warning,
refused in strict mode, and the lock aliases govern as the reference's modes did (both backends)."""

from __future__ import annotations

import pytest
from ir_samples import NOW

from memql.lang import validate

IDS = {"ids": ["1"]}
WRITES_BUT_DELETE = ["Update", "Label", "Promote", "Demote", "Merge", "Split", "Expire"]


def canonical_with_aliases(ir: dict) -> tuple[dict, list[str]]:
    result = validate(ir, now=NOW)
    assert result.valid, result.diagnostics
    assert validate(ir, now=NOW, strict=True).valid is False  # a variant, not an official spelling
    again = validate(result.canonical, now=NOW)
    assert again.canonical == result.canonical and again.warnings == []
    return result.canonical, [w.rule for w in result.warnings]


@pytest.mark.parametrize(
    ("args", "canonical"),
    [
        ({"mode": "no_delete"}, {"mode": "read_only", "policy": {"allow": WRITES_BUT_DELETE}}),
        (
            {"mode": "custom", "policy": {"deny": ["Update", "Delete"]}},
            {
                "mode": "read_only",
                "policy": {
                    "allow": ["Label", "Promote", "Demote", "Merge", "Split", "Expire"],
                    "deny": ["Update", "Delete"],
                },
            },
        ),
        (
            {"mode": "custom", "policy": {"allow": ["Label"]}},
            {"mode": "read_only", "policy": {"allow": ["Label"]}},
        ),
        ({"mode": "disabled"}, {"mode": "unlock"}),
    ],
)
def test_reference_lock_modes(args, canonical):
    got, warnings = canonical_with_aliases({"op": "Lock", "target": IDS, "args": args})
    assert got["args"] == canonical and warnings == ["compat.alias"]


def test_custom_lock_without_a_policy_is_still_refused():
    result = validate({"op": "Lock", "target": IDS, "args": {"mode": "custom"}})
    assert [(d.path, d.rule) for d in result.errors] == [("/args/mode", "field.enum")]


@pytest.mark.parametrize(
    ("given", "ttl"),
    [
        ({"duration": "90 days"}, "P90D"),
        ({"duration": "3周"}, "P3W"),
        ({"duration": "P2M"}, "P2M"),
        ({"time_delta": {"days": 90}}, "P90D"),
        ({"time_delta": {"weeks": 1, "hours": 12}}, "P1WT12H"),
    ],
)
def test_expire_durations_become_ttl(given, ttl):
    got, warnings = canonical_with_aliases(
        {"op": "Expire", "target": IDS, "args": {**given, "on_expire": "archive"}}
    )
    assert got["args"] == {"ttl": ttl, "on_expire": "archive"} and warnings == ["compat.alias"]


def test_unreadable_durations_stay_unknown():
    result = validate({"op": "Expire", "target": IDS, "args": {"duration": "a while", "on_expire": "none"}})
    assert ("/args/duration", "field.unknown") in [(d.path, d.rule) for d in result.errors]


def test_expire_reason_is_kept_as_the_comment():
    args = {"ttl": "P30D", "on_expire": "soft_delete", "reason": "stale"}
    got, warnings = canonical_with_aliases({"op": "Expire", "target": IDS, "args": args})
    assert got["_comment"] == "stale" and "reason" not in got["args"] and warnings == ["compat.alias"]


@pytest.mark.parametrize(
    ("nested", "flat"),
    [
        (
            {"absolute": {"start": "2025-10-01T00:00:00Z", "end": "2025-10-21T00:00:00Z"}},
            {"start": "2025-10-01T00:00:00Z", "end": "2025-10-21T00:00:00Z"},
        ),
        (
            {"relative": {"relative": "last", "amount": 7, "unit": "days"}},
            {"relative": "last", "amount": 7, "unit": "days"},
        ),
        (
            {"relative": {"direction": "next", "amount": 2, "unit": "weeks"}},
            {"relative": "next", "amount": 2, "unit": "weeks"},
        ),
    ],
)
def test_nested_time_ranges_are_flattened(nested, flat):
    got, warnings = canonical_with_aliases({"op": "Retrieve", "target": {"filter": {"time_range": nested}}})
    assert got["target"]["filter"]["time_range"] == flat and warnings == ["compat.alias"]
    deleted, _ = canonical_with_aliases({"op": "Delete", "target": IDS, "args": {"time_range": nested}})
    assert deleted["args"]["time_range"] == flat


def test_no_delete_lock_refuses_only_delete(m, rules):
    record = m.encode("budget draft", tags=["q4"]).id
    assert m.execute({"op": "Lock", "target": {"ids": [record]}, "args": {"mode": "no_delete"}}).success
    assert m.update(record, text="budget final").success
    assert m.label(record, ["final"]).success
    refused = m.delete(record)
    assert not refused.success and rules(refused) == ["governance.locked"]


def test_custom_deny_lock_refuses_only_what_it_denies(m, rules):
    record = m.encode("incident notes").id
    lock = {"mode": "custom", "policy": {"deny": ["Update"]}}
    assert m.execute({"op": "Lock", "target": {"ids": [record]}, "args": lock}).success
    assert rules(m.update(record, text="edited")) == ["governance.locked"]
    assert m.promote(record, weight=0.9).success
    assert m.execute({"op": "Lock", "target": {"ids": [record]}, "args": {"mode": "disabled"}}).success
    assert m.update(record, text="edited").success
