"""Promote and Demote (DESIGN §5): weight up or down, clamped to [0, 1]; Promote schedules reminders from an
RRULE (next_remind_at); Demote archives (kept, out of default retrieval). Refused on locked records."""

from __future__ import annotations

from datetime import timedelta

import pytest

# --- Promote --------------------------------------------------------------------------------------


def test_promote_sets_the_weight(m, db):
    m.encode("note", weight=0.3)
    result = m.promote("1", weight=0.9)
    assert result.success and result.op == "Promote"
    assert result.affected_ids == ["1"] and result.data == {"promoted": 1}
    assert db.record(m, "1").weight == 0.9


def test_promote_by_a_delta(m, db):
    m.encode("note", weight=0.3)
    m.promote("1", delta=0.25)
    assert db.record(m, "1").weight == 0.55


def test_promote_clamps_at_one(m, db):
    m.encode("note", weight=0.8)
    m.encode("other", weight=1.0)
    assert m.promote(["1", "2"], delta=0.5).success
    assert db.record(m, "1").weight == 1.0 and db.record(m, "2").weight == 1.0


def test_promote_weight_is_audited(m):
    m.encode("note", weight=0.3)
    m.promote("1", delta=0.2)
    event = m.history("1")[-1]
    assert event["op"] == "Promote" and event["before"]["weight"] == 0.3 and event["after"]["weight"] == 0.5


def test_promote_with_a_negative_delta_warns(m, db, warned):
    m.encode("note", weight=0.5)
    result = m.promote("1", delta=-0.2)
    assert result.success and warned(result) == ["weight.direction"]
    assert db.record(m, "1").weight == 0.3


def test_weekly_reminder_from_a_wednesday_falls_on_the_next_monday(m, db, t0):
    assert t0.weekday() == 2  # the pinned clock is a Wednesday
    m.encode("weekly report", weight=0.4)
    result = m.promote("1", remind="FREQ=WEEKLY;BYDAY=MO")
    monday = t0 + timedelta(days=5)
    assert result.success and result.data == {"promoted": 1, "next_remind_at": {"1": monday}}
    r = db.record(m, "1")
    assert r.remind_rrule == "FREQ=WEEKLY;BYDAY=MO" and r.next_remind_at == monday
    assert r.remind_until is None
    assert r.weight == 0.4  # a reminder alone leaves the weight


def test_reminder_rrule_prefix_and_case_are_normalised(m, db, t0):
    m.encode("standup")
    m.promote("1", remind="rrule:freq=daily")
    r = db.record(m, "1")
    assert r.remind_rrule == "FREQ=DAILY" and r.next_remind_at == t0 + timedelta(days=1)


def test_reminder_with_weight_in_one_promote(m, db, t0):
    m.encode("pay rent", weight=0.5)
    m.promote("1", delta=0.3, remind="FREQ=MONTHLY;BYMONTHDAY=1")
    r = db.record(m, "1")
    assert r.weight == 0.8
    assert r.next_remind_at == t0.replace(month=4, day=1)


def test_reminder_past_its_until_is_not_scheduled(m, db, t0):
    m.encode("one-off")
    result = m.promote("1", remind="FREQ=WEEKLY;BYDAY=MO", until="2026-03-06T00:00:00Z")
    assert result.data["next_remind_at"] == {"1": None}
    r = db.record(m, "1")
    assert r.next_remind_at is None and r.remind_until == t0.replace(day=6, hour=0)


def test_due_reminders_and_advancing_them(m, clock, db, t0):
    m.encode("weekly report")
    m.encode("no reminder")
    m.promote("1", remind="FREQ=WEEKLY;BYDAY=MO")
    assert m.due().data == {"due": []}
    clock.set(t0 + timedelta(days=5))  # Monday 10:00
    due = m.due()
    assert due.success and due.affected_ids == ["1"]
    assert due.data["due"] == [
        {"id": "1", "text": "weekly report", "due": t0 + timedelta(days=5), "rrule": "FREQ=WEEKLY;BYDAY=MO"}
    ]
    assert db.record(m, "1").next_remind_at == t0 + timedelta(days=5)  # peeking does not advance
    assert m.due(advance=True).affected_ids == ["1"]
    assert db.record(m, "1").next_remind_at == t0 + timedelta(days=12)
    assert m.due().data == {"due": []}


def test_promote_brings_an_archived_record_back(m, db, visible):
    m.encode("old idea")
    m.demote("1", archive=True)
    archived_weight = db.record(m, "1").weight
    m.promote("1", delta=0.1)
    r = db.record(m, "1")
    assert r.status == "active" and r.weight == round(archived_weight + 0.1, 6)
    assert visible(m) == ["1"]


@pytest.mark.parametrize(
    ("args", "rule"),
    [
        ({"weight": 0.5, "weight_delta": 0.1}, "weight.exclusive"),
        ({}, "weight.missing"),
        ({"weight": 1.5}, "field.range"),
        ({"weight_delta": 2}, "field.range"),
        ({"remind": {"rrule": "FREQ=SOMETIMES"}}, "rrule.invalid"),
    ],
)
def test_promote_validation(m, db, rules, args, rule):
    m.encode("note")
    result = m.execute({"op": "Promote", "target": {"ids": ["1"]}, "args": args})
    assert not result.success and rules(result) == [rule]
    assert db.record(m, "1").weight == 0.5


@pytest.mark.parametrize("mode", ["read_only", "append_only"])
def test_promote_refused_on_a_locked_record(m, db, rules, mode):
    m.encode("note", weight=0.5)
    m.lock("1", mode=mode)
    result = m.promote("1", weight=0.9, remind="FREQ=DAILY")
    assert not result.success and rules(result) == ["governance.locked"]
    r = db.record(m, "1")
    assert r.weight == 0.5 and r.remind_rrule is None and r.next_remind_at is None


def test_promote_refused_on_a_deleted_record(m, rules):
    m.encode("note")
    m.delete("1")
    assert rules(m.promote("1", weight=1.0)) == ["governance.target_state"]


# --- Demote ---------------------------------------------------------------------------------------


def test_demote_sets_the_weight(m, db):
    m.encode("note", weight=0.9)
    result = m.demote("1", weight=0.2)
    assert result.success and result.op == "Demote"
    assert result.affected_ids == ["1"] and result.data == {"demoted": 1}
    assert db.record(m, "1").weight == 0.2 and db.record(m, "1").status == "active"


def test_demote_by_a_delta_clamps_at_zero(m, db):
    m.encode("a", weight=0.5)
    m.encode("b", weight=0.1)
    m.demote(["1", "2"], delta=-0.3)
    assert db.record(m, "1").weight == 0.2 and db.record(m, "2").weight == 0.0


def test_demote_archive_keeps_the_record_out_of_default_retrieval(m, db, visible, warned):
    m.encode("quarterly plan", weight=0.7, tags=["plan"])
    m.encode("quarterly review")
    result = m.demote("1", archive=True)
    assert result.success and result.affected_ids == ["1"]
    r = db.record(m, "1")
    assert r.status == "archived" and r.deleted_at is None and r.text == "quarterly plan"  # kept
    assert r.weight <= 0.7  # archiving never raises the priority
    assert visible(m) == ["2"]
    assert visible(m, "quarterly") == ["2"]
    assert visible(m, filter={"has_tags": ["plan"]}) == []
    hidden = m.retrieve(ids="1")
    assert hidden.data["rows"] == [] and warned(hidden) == ["target.hidden"]
    assert visible(m, filter={"status": "archived"}) == ["1"]
    assert sorted(visible(m, filter={"status": "any"})) == ["1", "2"]
    assert visible(m, "quarterly", filter={"status": "archived"}) == ["1"]


def test_demote_archive_is_audited(m):
    m.encode("note")
    m.demote("1", archive=True)
    event = m.history("1")[-1]
    assert event["op"] == "Demote" and event["before"]["status"] == "active"
    assert event["after"]["status"] == "archived"


@pytest.mark.parametrize(
    ("args", "rule"),
    [
        ({"archive": True, "weight": 0.1}, "weight.exclusive"),
        ({"weight": 0.1, "weight_delta": -0.1}, "weight.exclusive"),
        ({}, "weight.missing"),
        ({"archive": False}, "weight.missing"),
    ],
)
def test_demote_validation(m, rules, args, rule):
    m.encode("note")
    result = m.execute({"op": "Demote", "target": {"ids": ["1"]}, "args": args})
    assert not result.success and rules(result) == [rule]


@pytest.mark.parametrize("mode", ["read_only", "append_only"])
@pytest.mark.parametrize("args", [{"archive": True}, {"weight": 0.1}], ids=["archive", "weight"])
def test_demote_refused_on_a_locked_record(m, db, rules, mode, args):
    m.encode("note", weight=0.5)
    m.lock("1", mode=mode)
    result = m.execute({"op": "Demote", "target": {"ids": ["1"]}, "args": args})
    assert not result.success and rules(result) == ["governance.locked"]
    r = db.record(m, "1")
    assert r.weight == 0.5 and r.status == "active"


def test_demote_refused_on_a_deleted_record(m, rules):
    m.encode("note")
    m.delete("1")
    assert rules(m.demote("1", archive=True)) == ["governance.target_state"]
