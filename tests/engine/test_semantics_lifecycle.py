"""Delete, Lock and Expire, with the sweeper and restore (DESIGN §5).

Delete: soft -> status deleted, recoverable within the window; hard -> row, index entries and orphan
links removed; older_than / time_range narrow the target. Refused on locked records; hard needs
confirmation.
Lock: read_only / append_only with reason, policy and expiry; only the locker, a listed reviewer or an
admin may change or lift it.
Expire: expire_at + on_expire; past it a record is never returned by default reads (lazy), and the
sweeper applies the action. Refused with an infinite horizon.
"""

from __future__ import annotations

from datetime import timedelta

import pytest

WINDOW = timedelta(days=30)  # EngineConfig.recovery_window

# --- Delete: soft, restore, purge -----------------------------------------------------------------


def test_soft_delete(m, db, clock, t0, visible):
    m.encode("old plan", tags=["plan"])
    m.encode("new plan", tags=["plan"])
    clock.advance(timedelta(hours=1))
    result = m.delete("1", reason="superseded")
    assert result.success and result.op == "Delete" and result.affected_ids == ["1"]
    assert result.data == {"deleted": 1, "hard": False, "restorable_until": t0 + timedelta(hours=1) + WINDOW}
    r = db.record(m, "1")
    assert r.status == "deleted" and r.deleted_at == t0 + timedelta(hours=1) and r.text == "old plan"
    assert visible(m) == ["2"] and visible(m, "plan") == ["2"]
    assert visible(m, filter={"status": "deleted"}) == ["1"]
    assert db.search(m, "old") == ["1"]  # still indexed: it can come back
    event = m.history("1")[-1]
    assert event["op"] == "Delete" and event["after"]["status"] == "deleted"


def test_soft_delete_of_a_deleted_record_warns_and_changes_nothing(m, db, clock, t0, warned):
    m.encode("x")
    m.delete("1")
    clock.advance(timedelta(days=1))
    result = m.delete("1")
    assert result.success and result.affected_ids == [] and warned(result) == ["target.hidden"]
    assert db.record(m, "1").deleted_at == t0  # the window is not extended


def test_restore_within_the_window(m, db, clock, t0, visible):
    m.encode("oops")
    m.delete("1")
    clock.advance(WINDOW - timedelta(seconds=1))
    result = m.restore("1")
    assert result.success and result.op == "Restore"
    assert result.affected_ids == ["1"] and result.data == {"restored": "1"}
    r = db.record(m, "1")
    assert r.status == "active" and r.deleted_at is None
    assert visible(m, "oops") == ["1"]
    event = m.history("1")[-1]
    assert event["op"] == "Restore" and event["before"]["status"] == "deleted"


def test_restore_after_the_window_is_refused(m, db, clock, rules):
    m.encode("oops")
    m.delete("1")
    clock.advance(WINDOW)
    result = m.restore("1")
    assert not result.success and rules(result) == ["restore.window"]
    assert db.record(m, "1").status == "deleted"


def test_restore_refusals(m, rules):
    m.encode("alive")
    assert rules(m.restore("1")) == ["governance.target_state"]
    assert rules(m.restore("42")) == ["target.not_found"]


def test_restore_is_scoped_to_the_tenant(memory, db, rules):
    a = memory(tenant="a")
    b = memory(tenant="b", share=a)
    a.encode("mine")
    a.delete("1")
    assert rules(b.restore("1")) == ["target.not_found"]
    assert db.record(a, "1").status == "deleted"


def test_sweeper_purges_soft_deletions_after_the_window_only(m, db, clock):
    m.encode("early")
    m.encode("keeper")
    m.encode("late")
    m.merge(["2", "1"], primary="2")  # 1 deleted, linked merged_into 2
    clock.advance(timedelta(days=2))
    m.delete("3")
    clock.advance(WINDOW - timedelta(days=1))  # 1 is past the window, 3 is not
    result = m.sweep()
    assert result.success and result.op == "Sweep"
    assert result.affected_ids == ["1"] and result.data == {
        "expired": {},
        "purged": ["1"],
        "held_by_lock": [],
    }
    assert db.record(m, "1") is None
    assert db.search(m, "early") == ["2"]  # only the primary, which absorbed the text
    assert db.links(m, "1", "2") == set()
    assert db.record(m, "3").status == "deleted"
    assert m.history("1")[-1]["op"] == "Sweep" and m.history("1")[-1]["change"] == "delete"
    assert m.sweep().affected_ids == []
    clock.advance(timedelta(days=1))
    assert m.sweep().data["purged"] == ["3"]


# --- Delete: hard ---------------------------------------------------------------------------------


def test_hard_delete_needs_confirmation(m, db, rules):
    m.encode("secret")
    result = m.delete("1", hard=True)
    assert not result.success and rules(result) == ["confirm.hard_delete"]
    assert db.record(m, "1").status == "active"


def test_hard_delete_removes_row_index_entries_and_links(m, db, visible):
    m.encode("zebra stripes", weight=0.9)
    m.encode("zebra crossing")
    m.encode("unrelated horse")
    m.merge(["1", "2"], keep_children=True)  # 2 -> 1 merged_into
    m.summarize(ids=["2", "3"])  # 4 summarizes 2 and 3
    assert db.links(m, "2") == {("2", "1", "merged_into"), ("4", "2", "summarizes")}
    result = m.delete("2", hard=True, confirm=True)
    assert result.success and result.affected_ids == ["2"] and result.data == {"deleted": 1, "hard": True}
    assert db.record(m, "2") is None
    assert "2" not in db.search(m, "crossing")
    assert "2" not in visible(m, "crossing", filter={"status": "any"})
    assert db.links(m, "2") == set()
    assert db.links(m) == {("4", "3", "summarizes")}
    assert m.history("2")[-1]["change"] == "delete" and m.history("2")[-1]["after"] == {}


def test_hard_delete_of_a_soft_deleted_record_purges_it_now(m, db):
    m.encode("x")
    m.delete("1")
    assert m.delete("1", hard=True, confirm=True).affected_ids == ["1"]
    assert db.record(m, "1") is None


def test_hard_delete_dry_run_needs_no_confirmation_and_keeps_the_record(m, db):
    m.encode("secret")
    result = m.execute(
        {"op": "Delete", "target": {"ids": ["1"]}, "args": {"soft": False}, "meta": {"dry_run": True}}
    )
    assert result.success and result.dry_run
    (change,) = result.preview
    assert change.record_id == "1" and change.kind == "delete" and change.after == {}
    assert change.before["text"] == "secret"
    assert db.record(m, "1").status == "active"


# --- Delete: narrowing ----------------------------------------------------------------------------


def test_older_than_narrows_a_filter(m, db, clock):
    m.encode("ancient", time="2025-12-01T00:00:00Z")
    m.encode("last month")
    clock.advance(timedelta(days=40))
    m.encode("today")
    result = m.execute({"op": "Delete", "target": {"filter": {"limit": 50}}, "args": {"older_than": "P30D"}})
    assert sorted(result.affected_ids) == ["1", "2"]
    assert [db.record(m, i).status for i in ("1", "2", "3")] == ["deleted", "deleted", "active"]


def test_older_than_narrows_ids(m, db, clock):
    m.encode("old")
    clock.advance(timedelta(days=10))
    m.encode("new")
    result = m.execute({"op": "Delete", "target": {"ids": ["1", "2"]}, "args": {"older_than": "P1W"}})
    assert result.affected_ids == ["1"]
    assert db.record(m, "2").status == "active"


def test_time_range_narrows_the_target(m, db):
    m.encode("january", time="2026-01-15T00:00:00Z", tags=["log"])
    m.encode("february", time="2026-02-15T00:00:00Z", tags=["log"])
    m.encode("march", time="2026-03-01T00:00:00Z", tags=["log"])
    m.encode("february untagged", time="2026-02-16T00:00:00Z")
    result = m.execute(
        {
            "op": "Delete",
            "target": {"filter": {"has_tags": ["log"], "limit": 50}},
            "args": {"time_range": {"start": "2026-02-01T00:00:00Z", "end": "2026-02-28T23:59:59Z"}},
        }
    )
    assert result.affected_ids == ["2"]
    assert [db.record(m, i).status for i in ("1", "2", "3", "4")] == ["active", "deleted", "active", "active"]


def test_relative_time_range(m, db, clock):
    m.encode("two months ago", time="2026-01-04T10:00:00Z")
    m.encode("last week", time="2026-02-27T10:00:00Z")
    result = m.execute(
        {
            "op": "Delete",
            "target": {"filter": {"limit": 10}},
            "args": {"time_range": {"relative": "last", "amount": 2, "unit": "weeks"}},
        }
    )
    assert result.affected_ids == ["2"]


def test_older_than_and_time_range_together_are_refused(m, rules):
    result = m.execute(
        {
            "op": "Delete",
            "target": {"ids": ["1"]},
            "args": {
                "older_than": "P1D",
                "time_range": {"start": "2026-01-01T00:00:00Z", "end": "2026-02-01T00:00:00Z"},
            },
        }
    )
    assert not result.success and rules(result) == ["delete.time_conflict"]


@pytest.mark.parametrize("mode", ["read_only", "append_only"])
@pytest.mark.parametrize("hard", [False, True], ids=["soft", "hard"])
def test_delete_refused_on_locked_records(m, db, rules, mode, hard):
    m.encode("free")
    m.encode("protected")
    m.lock("2", mode=mode)
    result = m.delete(["1", "2"], hard=hard, confirm=True)
    assert not result.success and rules(result) == ["governance.locked"]
    assert db.record(m, "1").status == "active" and db.record(m, "2").status == "active"


# --- Lock -----------------------------------------------------------------------------------------


def test_lock_sets_mode_reason_policy_and_locker(m, db, t0):
    m.encode("contract")
    policy = {"allow": ["Label"], "reviewers": ["bob"], "expires": "2026-04-01T00:00:00Z"}
    result = m.lock("1", mode="read_only", reason="legal hold", policy=policy)
    assert result.success and result.op == "Lock"
    assert result.affected_ids == ["1"] and result.data == {"mode": "read_only", "locked": 1}
    r = db.record(m, "1")
    assert (r.lock_mode, r.lock_reason, r.lock_by) == ("read_only", "legal hold", "alice")
    assert r.lock_policy == {"allow": ["Label"], "reviewers": ["bob"], "expires": "2026-04-01T00:00:00Z"}
    assert r.lock_until == t0.replace(month=4, day=1, hour=0)
    (row,) = m.retrieve(ids="1", include=["lock"]).data["rows"]
    assert row["lock"]["mode"] == "read_only" and row["lock"]["by"] == "alice"
    event = m.history("1")[-1]
    assert event["op"] == "Lock" and event["after"]["lock_mode"] == "read_only"


WRITES = {
    "Update": {"set": {"weight": 0.9}},
    "Update-append": {"set": {"text": "diary entry, continued"}},
    "Label-add": {"tags": ["x"]},
    "Label-replace": {"tags": ["x"], "mode": "replace"},
    "Label-remove": {"tags": ["a"], "mode": "remove"},
    "Promote": {"weight": 0.9},
    "Demote": {"archive": True},
    "Delete": {},
    "Split": {},
    "Expire": {"ttl": "P1D", "on_expire": "archive"},
}


def _write(m, name):
    op = name.split("-")[0]
    return m.execute({"op": op, "target": {"ids": ["1"]}, "args": WRITES[name]})


@pytest.mark.parametrize("name", list(WRITES))
def test_read_only_refuses_every_write(m, db, rules, name):
    m.encode("diary entry. second sentence.", tags=["a"])
    m.lock("1", mode="read_only")
    before = db.record(m, "1")
    result = _write(m, name)
    assert not result.success and rules(result) == ["governance.locked"]
    assert db.record(m, "1") == before
    assert db.ids(m) == ["1"]


@pytest.mark.parametrize("name", ["Update-append", "Label-add"])
def test_append_only_lets_appends_through(m, db, name):
    m.encode("diary entry", tags=["a"])
    m.lock("1", mode="append_only")
    assert _write(m, name).success
    r = db.record(m, "1")
    expected = {"Update-append": ("diary entry, continued", ["a"]), "Label-add": ("diary entry", ["a", "x"])}
    assert (r.text, r.tags) == expected[name]
    assert r.lock_mode == "append_only"


@pytest.mark.parametrize("name", [n for n in WRITES if n not in ("Update-append", "Label-add")])
def test_append_only_refuses_everything_else(m, db, rules, name):
    m.encode("diary entry. second sentence.", tags=["a"])
    m.lock("1", mode="append_only")
    before = db.record(m, "1")
    result = _write(m, name)
    assert not result.success and rules(result) == ["governance.locked"]
    assert db.record(m, "1") == before


def test_locked_records_can_still_be_read_and_summarized(m, visible):
    m.encode("Locked facts stay readable.")
    m.lock("1")
    assert visible(m, "readable") == ["1"]
    assert m.summarize(ids="1").success


def test_policy_allow_lets_an_op_through_a_read_only_lock(m, db, rules):
    m.encode("x", tags=["a"])
    m.lock("1", policy={"allow": ["Delete", "Label"]})
    assert rules(m.promote("1", weight=1)) == ["governance.locked"]  # not in allow
    assert m.label("1", ["b"], mode="replace").success
    assert m.delete("1").success
    r = db.record(m, "1")
    assert r.status == "deleted" and r.tags == ["b"] and r.weight == 0.5


def test_policy_deny_refuses_even_an_append(m, db, rules):
    m.encode("diary", tags=["a"])
    m.lock("1", mode="append_only", policy={"deny": ["Label"]})
    assert rules(m.label("1", ["b"])) == ["governance.locked"]
    assert m.update("1", text="diary, more").success
    assert db.record(m, "1").tags == ["a"]


def test_lock_policy_conflict_is_refused(m, rules):
    m.encode("x")
    result = m.lock("1", policy={"allow": ["Delete"], "deny": ["Delete"]})
    assert not result.success and rules(result) == ["lock.policy_conflict"]


def test_another_actor_may_not_change_or_lift_a_lock(memory, db, rules):
    alice = memory()
    bob = memory(actor="bob", share=alice)
    alice.encode("x")
    alice.lock("1", reason="mine")
    for result in (
        bob.unlock("1"),
        bob.lock("1", mode="append_only"),
        # meta.actor is a claim, not an identity: the session's actor is bob
        bob.execute(
            {"op": "Lock", "target": {"ids": ["1"]}, "args": {"mode": "unlock"}, "meta": {"actor": "alice"}}
        ),
    ):
        assert not result.success and rules(result) == ["governance.lock_owner"]
    r = db.record(alice, "1")
    assert (r.lock_mode, r.lock_by, r.lock_reason) == ("read_only", "alice", "mine")


def test_anonymous_sessions_may_not_lift_a_lock(memory, rules):
    alice = memory()
    anon = memory(actor=None, share=alice)
    alice.encode("x")
    alice.lock("1")
    assert rules(anon.unlock("1")) == ["governance.lock_owner"]


def test_the_locker_may_change_and_lift_the_lock(m, db):
    m.encode("x")
    m.lock("1", reason="first")
    assert m.lock("1", mode="append_only", reason="second").success
    r = db.record(m, "1")
    assert (r.lock_mode, r.lock_reason) == ("append_only", "second")
    result = m.unlock("1")
    assert result.success and result.data == {"mode": "unlock", "unlocked": 1}
    r = db.record(m, "1")
    assert (r.lock_mode, r.lock_reason, r.lock_policy, r.lock_until, r.lock_by) == (None,) * 5
    assert m.update("1", weight=0.9).success


def test_a_listed_reviewer_may_change_and_lift_the_lock(memory, db):
    alice = memory()
    bob = memory(actor="bob", share=alice)
    alice.encode("x")
    alice.lock("1", policy={"reviewers": ["bob"]})
    assert bob.lock("1", mode="append_only").success
    assert db.record(alice, "1").lock_by == "bob"
    assert bob.unlock("1").success
    assert db.record(alice, "1").lock_mode is None


def test_an_admin_may_lift_any_lock(memory, db):
    alice = memory()
    root = memory(actor="root", admin=True, share=alice)
    alice.encode("x")
    alice.lock("1")
    assert root.unlock("1").success
    assert db.record(alice, "1").lock_mode is None


def test_unlocking_an_unlocked_record_warns(m, warned):
    m.encode("x")
    result = m.unlock("1")
    assert result.success and result.affected_ids == [] and warned(result) == ["target.hidden"]


def test_locking_a_deleted_record_is_refused(m, rules):
    m.encode("x")
    m.delete("1")
    assert rules(m.lock("1")) == ["governance.target_state"]


def test_lock_expiry_lifts_the_lock(memory, db, clock, t0):
    alice = memory()
    bob = memory(actor="bob", share=alice)
    root = memory(actor="root", admin=True, share=alice)
    alice.encode("x", tags=["a"])
    alice.lock("1", policy={"expires": "2026-03-04T12:00:00Z"})
    assert not bob.label("1", ["b"]).success
    clock.set(t0 + timedelta(hours=2))  # lock_until == now: lifted
    assert bob.label("1", ["b"]).success
    # no longer alice's to guard: locking again is placing a new lock, the owner's or an admin's say
    # (issue 16 item 9: bob, who may write the record, may not lock it)
    assert bob.lock("1", mode="append_only").diagnostics[0].rule == "permission.lock"
    assert root.lock("1", mode="append_only").success
    assert db.record(alice, "1").lock_by == "root"


def test_an_expired_lock_is_not_reported(m, clock, t0):
    m.encode("x")
    m.lock("1", policy={"expires": "2026-03-04T12:00:00Z"})
    clock.set(t0 + timedelta(hours=3))
    (row,) = m.retrieve(ids="1", include=["lock"]).data["rows"]
    assert row["lock"] is None


# --- Expire ---------------------------------------------------------------------------------------


def test_expire_with_a_ttl(m, db, t0):
    m.encode("coupon")
    result = m.expire("1", ttl="P7D", on_expire="archive")
    assert result.success and result.op == "Expire" and result.affected_ids == ["1"]
    assert result.data == {"expire_at": t0 + timedelta(days=7), "on_expire": "archive", "expiring": 1}
    r = db.record(m, "1")
    assert r.expire_at == t0 + timedelta(days=7) and r.on_expire == "archive" and r.status == "active"
    event = m.history("1")[-1]
    assert event["op"] == "Expire" and event["after"]["on_expire"] == "archive"


def test_expire_until_an_instant_with_an_offset_is_stored_in_utc(m, db, t0):
    m.encode("coupon")
    m.expire("1", until="2026-03-05T18:00:00+08:00", on_expire="soft_delete")
    assert db.record(m, "1").expire_at == t0.replace(day=5, hour=10)


def test_expire_ttl_months_are_calendar_months(m, db, clock, t0):
    clock.set(t0.replace(month=1, day=31))
    m.encode("subscription")
    m.expire("1", ttl="P1M", on_expire="none")
    assert db.record(m, "1").expire_at == t0.replace(month=2, day=28)


def test_expire_in_the_past_warns_and_hides_at_once(m, warned, visible):
    m.encode("stale")
    result = m.expire("1", until="2026-03-01T00:00:00Z", on_expire="none")
    assert result.success and warned(result) == ["expire.in_past"]
    assert visible(m) == []


def test_expired_records_are_hidden_from_default_reads_lazily(m, db, clock, visible, warned):
    m.encode("flash sale today", tags=["sale"])
    m.encode("permanent sale page", tags=["sale"])
    m.expire("1", ttl="PT1H", on_expire="archive")
    clock.advance(timedelta(minutes=59))
    assert sorted(visible(m, "sale")) == ["1", "2"]
    clock.advance(timedelta(minutes=1))  # expire_at == now
    assert visible(m, "sale") == ["2"]
    assert visible(m) == ["2"]
    assert visible(m, filter={"has_tags": ["sale"]}) == ["2"]
    hidden = m.retrieve(ids="1")
    assert hidden.data["rows"] == [] and warned(hidden) == ["target.hidden"]
    assert "expired" in hidden.warnings[0].message
    r = db.record(m, "1")
    assert r.status == "active"  # nothing was written: expiry is lazy until the sweeper runs
    assert sorted(visible(m, filter={"status": "any"})) == ["1", "2"]
    assert m.summarize(filter={"has_tags": ["sale"]}).data["source_ids"] == ["2"]


def test_status_expired_filter_finds_lazily_expired_records(m, clock, visible):
    m.encode("flash sale")
    m.expire("1", ttl="PT1H", on_expire="archive")
    clock.advance(timedelta(hours=2))
    assert visible(m, filter={"status": "expired"}) == ["1"]


@pytest.mark.parametrize(
    "write",
    [
        lambda m: m.update("1", text="x"),
        lambda m: m.label("1", ["x"]),
        lambda m: m.promote("1", weight=1),
        lambda m: m.demote("1", archive=True),
        lambda m: m.expire("1", ttl="P1D", on_expire="none"),
        lambda m: m.lock("1"),
        lambda m: m.split("1"),
    ],
    ids=["Update", "Label", "Promote", "Demote", "Expire", "Lock", "Split"],
)
def test_writes_on_an_expired_record_are_refused(m, clock, rules, write):
    m.encode("One. Two.")
    m.expire("1", ttl="PT1H", on_expire="none")
    clock.advance(timedelta(hours=1))
    assert rules(write(m)) == ["governance.target_state"]


def test_expired_records_can_still_be_deleted(m, db, clock):
    m.encode("stale")
    m.expire("1", ttl="PT1H", on_expire="none")
    clock.advance(timedelta(hours=2))
    assert m.delete("1", hard=True, confirm=True).success
    assert db.record(m, "1") is None


def _expiring(m, clock, action):
    m.encode("secret text about Bob", tags=["pii"], facets={"subject": "bob"}, weight=0.6)
    m.encode("unrelated keeper")
    m.expire("1", ttl="PT1H", on_expire=action)
    clock.advance(timedelta(hours=1))
    result = m.sweep()
    assert result.success and result.affected_ids == ["1"]
    assert result.data == {"expired": {action: ["1"]}, "purged": [], "held_by_lock": []}
    return result


def test_sweeper_soft_delete(m, db, clock, t0):
    _expiring(m, clock, "soft_delete")
    r = db.record(m, "1")
    assert r.status == "deleted" and r.deleted_at == t0 + timedelta(hours=1)
    assert m.history("1")[-1]["op"] == "Sweep"
    clock.advance(WINDOW)
    assert m.sweep().data["purged"] == ["1"]
    assert db.record(m, "1") is None


def test_sweeper_hard_delete(m, db, clock, visible):
    _expiring(m, clock, "hard_delete")
    assert db.record(m, "1") is None
    assert db.search(m, "secret") == []
    assert visible(m, filter={"status": "any"}) == ["2"]


def test_sweeper_demote(m, db, clock, visible):
    _expiring(m, clock, "demote")
    r = db.record(m, "1")
    assert r.status == "active" and r.weight == 0.3  # 0.6 - 0.3
    assert r.expire_at is None and r.on_expire is None
    assert sorted(visible(m)) == ["1", "2"]  # demoted, not hidden any more


def test_sweeper_archive(m, db, clock):
    _expiring(m, clock, "archive")
    r = db.record(m, "1")
    assert r.status == "archived" and r.text == "secret text about Bob" and r.deleted_at is None


def test_sweeper_anonymize(m, db, clock, visible):
    _expiring(m, clock, "anonymize")
    r = db.record(m, "1")
    assert r.text == "[anonymized]" and r.status == "active"
    assert r.facets == {} and r.keywords == [] and r.structured is None and r.url is None
    assert r.expire_at is None and r.on_expire is None
    assert db.search(m, "secret") == [] and db.search(m, "Bob") == []


def test_sweeper_none_marks_the_record_expired(m, db, clock, visible):
    _expiring(m, clock, "none")
    r = db.record(m, "1")
    assert r.status == "expired" and r.text == "secret text about Bob"
    assert visible(m) == ["2"]
    assert visible(m, filter={"status": "expired"}) == ["1"]


def test_sweeper_leaves_unexpired_records_and_is_idempotent(m, db, clock):
    m.encode("later")
    m.expire("1", ttl="P2D", on_expire="hard_delete")
    clock.advance(timedelta(days=1))
    assert m.sweep().affected_ids == []
    assert db.record(m, "1").status == "active"
    clock.advance(timedelta(days=1))
    assert m.sweep().affected_ids == ["1"]
    assert m.sweep().affected_ids == []


@pytest.mark.parametrize("action", ["hard_delete", "soft_delete", "anonymize"])
def test_sweeper_respects_a_lock_until_it_is_lifted(m, db, clock, action):
    m.encode("contract under legal hold")
    m.expire("1", ttl="PT1H", on_expire=action)
    m.lock("1", reason="legal hold")
    clock.advance(timedelta(hours=2))
    assert m.sweep().affected_ids == []
    r = db.record(m, "1")
    assert r is not None and r.status == "active" and r.text == "contract under legal hold"
    m.unlock("1")
    assert m.sweep().affected_ids == ["1"]


def test_sweeper_is_scoped_to_the_tenant(memory, db, clock):
    a = memory(tenant="a")
    b = memory(tenant="b", share=a)
    a.encode("a's note")
    a.expire("1", ttl="PT1H", on_expire="hard_delete")
    clock.advance(timedelta(hours=2))
    assert b.sweep().affected_ids == []
    assert db.record(a, "1") is not None


def test_a_record_archived_on_expiry_is_visible_as_archived(m, clock, visible):
    _expiring(m, clock, "archive")
    assert visible(m, filter={"status": "archived"}) == ["1"]


def test_a_record_soft_deleted_on_expiry_is_listed_and_restorable(m, clock, visible):
    _expiring(m, clock, "soft_delete")
    assert visible(m, filter={"status": "deleted"}) == ["1"]
    assert m.restore("1").success
    assert sorted(visible(m)) == ["1", "2"]


def test_anonymized_content_cannot_be_read_back(m, clock, t0):
    _expiring(m, clock, "anonymize")
    assert "secret text about Bob" not in repr(m.history("1"))
    then = m.retrieve(filter={}, as_of=(t0 + timedelta(minutes=1)).isoformat(), include=["id", "text"])
    assert all("secret" not in (row["text"] or "") for row in then.data["rows"])


@pytest.mark.parametrize(
    ("args", "rule"),
    [
        ({"on_expire": "archive"}, "expire.horizon"),
        ({"ttl": "P1D", "until": "2026-04-01T00:00:00Z", "on_expire": "archive"}, "expire.horizon"),
        ({"ttl": "PT0S", "on_expire": "archive"}, "expire.horizon"),
        ({"ttl": "P1D"}, "expire.on_expire"),
        ({"ttl": "forever", "on_expire": "archive"}, "duration.invalid"),
    ],
    ids=["no-horizon", "two-horizons", "zero-ttl", "no-action", "bad-duration"],
)
def test_expire_validation(m, db, rules, args, rule):
    m.encode("x")
    result = m.execute({"op": "Expire", "target": {"ids": ["1"]}, "args": args})
    assert not result.success and rules(result) == [rule]
    assert db.record(m, "1").expire_at is None


@pytest.mark.parametrize("mode", ["read_only", "append_only"])
def test_expire_refused_on_locked_records(m, db, rules, mode):
    m.encode("x")
    m.lock("1", mode=mode)
    assert rules(m.expire("1", ttl="P1D", on_expire="archive")) == ["governance.locked"]
    assert db.record(m, "1").expire_at is None


def test_expire_refused_on_deleted_records(m, rules):
    m.encode("x")
    m.delete("1")
    assert rules(m.expire("1", ttl="P1D", on_expire="archive")) == ["governance.target_state"]
