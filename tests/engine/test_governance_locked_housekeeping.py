"""Nothing writes a locked record, housekeeping included (issue 16, item 5a): advancing due reminders
leaves a locked record's reminder due and says it was held, as the sweep holds a locked record's expiry;
a Restore of a locked record is refused. Runs on every backend."""

from __future__ import annotations

from datetime import timedelta


def _due_reminders(m, clock):
    """Records 1 (to be locked) and 2, each with a daily reminder that is due two days later."""
    for text in ("Renew the passport", "Water the plants"):
        m.encode(text)
    m.promote(["1", "2"], remind="FREQ=DAILY")
    clock.advance(timedelta(days=2))
    assert sorted(m.due().affected_ids) == ["1", "2"]


def test_advancing_reminders_holds_a_read_only_locked_record(m, db, clock):
    _due_reminders(m, clock)
    m.lock("1", reason="legal hold")
    held_at = db.record(m, "1").next_remind_at
    moved_from = db.record(m, "2").next_remind_at

    done = m.due(advance=True)

    assert done.success and done.data["held_by_lock"] == ["1"]
    assert db.record(m, "1").next_remind_at == held_at  # untouched: still due
    assert db.record(m, "2").next_remind_at > moved_from  # the unlocked one moves on
    assert [h["op"] for h in m.history("1")] == ["Encode", "Promote", "Lock"]
    assert m.due().affected_ids == ["1"]  # what stays due is the held one


def test_an_append_only_lock_holds_the_reminder_too(m, db, clock):
    _due_reminders(m, clock)
    m.lock("1", mode="append_only")
    held_at = db.record(m, "1").next_remind_at
    assert m.due(advance=True).data["held_by_lock"] == ["1"]
    assert db.record(m, "1").next_remind_at == held_at


def test_the_reminder_moves_on_once_the_lock_lifts(m, db, clock):
    _due_reminders(m, clock)
    m.lock("1")
    m.due(advance=True)
    m.unlock("1")
    done = m.due(advance=True)
    assert done.data["held_by_lock"] == [] and done.affected_ids == ["1"]
    assert db.record(m, "1").next_remind_at > clock.now()


def test_a_restore_of_a_locked_record_is_refused(m, db):
    m.encode("Quarterly figures")
    m.lock("1", mode="append_only", policy={"allow": ["Delete"]})  # the lock lets a delete through
    assert m.delete("1").success
    refused = m.restore("1")
    assert not refused.success and refused.diagnostics[0].rule == "governance.locked"
    assert db.record(m, "1").status == "deleted"
