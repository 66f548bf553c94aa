"""Roles, consent and permissions (docs/engine.md, Permissions), one rule at a time, on both backends."""

from __future__ import annotations

from datetime import timedelta

import pytest

from memql.engine.context import EngineConfig


def _ids(result) -> list[str]:
    assert result.success, result.diagnostics
    return [row["id"] for row in result.data["rows"]]


def _rules(result) -> list[str]:
    return [d.rule for d in result.diagnostics]


@pytest.fixture
def team(memory):
    """alice (owner of everything), bob (user), an admin and two agents on one tenant."""
    alice = memory(actor="alice")
    return {
        "alice": alice,
        "bob": memory(actor="bob", share=alice),
        "admin": memory(actor="root", role="admin", share=alice),
        "reader": memory(actor="bot", role="agent", consent="read", share=alice),
        "writer": memory(actor="bot", role="agent", consent="read_write", share=alice),
    }


# --- identity --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"role": "owner"}, "role must be one of user, admin, agent"),
        ({"role": "agent", "consent": "all"}, "consent must be one of propose, read, read_write"),
        ({"consent": "read"}, "consent applies to agents"),
        ({"role": "agent", "actor": None}, "an agent session needs an actor"),
        ({"admin": True, "role": "agent"}, "admin=True contradicts role 'agent'"),
    ],
)
def test_contradictory_or_unknown_identities_are_refused_when_the_session_opens(memory, kwargs, message):
    with pytest.raises(ValueError, match=message):
        memory(**kwargs)


def test_an_agents_clearance_defaults_to_standard_and_an_explicit_one_overrides(memory):
    alice = memory()
    for level in ("standard", "sensitive", "restricted"):
        alice.encode(f"{level} note", sensitivity=level)
    assert _ids(memory(actor="bot", role="agent", consent="read", share=alice).retrieve(filter={})) == ["1"]
    cleared = memory(actor="bot", role="agent", consent="read", clearance="sensitive", share=alice)
    assert _ids(cleared.retrieve(filter={})) == ["2", "1"]
    assert _ids(memory(actor="root", admin=True, share=alice).retrieve(filter={})) == ["3", "2", "1"]


# --- consent ---------------------------------------------------------------------------------------


def test_consent_decides_which_verbs_an_agent_may_use(memory, team):
    team["alice"].encode("team offsite in May")
    propose = memory(actor="bot", role="agent", share=team["alice"])  # consent defaults to propose
    assert _ids(propose.retrieve(filter={})) == []  # propose-only: not the user's memory
    assert _rules(propose.summarize(filter={})) == ["consent.read"]
    refused = propose.label("1", ["x"])
    assert _rules(refused) == ["consent.write"] and "read_write" in refused.diagnostics[0].message
    assert _ids(team["reader"].retrieve(filter={})) == ["1"]
    assert team["reader"].summarize(filter={}).success
    for op in (team["reader"].label("1", ["x"]), team["reader"].delete("1"), team["reader"].unlock("1")):
        assert _rules(op) == ["consent.write"]
    assert team["writer"].label("1", ["x"]).affected_ids == ["1"]


def test_a_refused_workflow_step_rolls_back_the_whole_workflow(team, db):
    result = team["reader"].execute(
        [
            {"op": "Encode", "args": {"payload": {"text": "proposed by the reader"}}},
            {"op": "Label", "target": {"from_step": 0}, "args": {"tags": ["x"]}},
        ]
    )
    assert not result.success and result.failed_step == 1 and _rules(result) == ["consent.write"]
    assert db.ids(team["alice"]) == []


# --- read permissions ------------------------------------------------------------------------------


def test_read_levels(team):
    alice = team["alice"]
    alice.encode("public note", read_perm_level="public")
    alice.encode("team note", read_perm_level="team")
    alice.encode("private note", read_perm_level="private")
    alice.encode("custom note", read_perm_level="custom", read_whitelist=["bob"])
    alice.encode("team note the bot may read", read_perm_level="team", read_whitelist=["bot"])
    assert _ids(alice.retrieve(filter={})) == ["5", "4", "3", "2", "1"]  # the owner reads all
    assert _ids(team["admin"].retrieve(filter={})) == ["5", "4", "3", "2", "1"]
    assert _ids(team["bob"].retrieve(filter={})) == ["5", "4", "2", "1"]
    assert _ids(team["reader"].retrieve(filter={})) == ["5", "1"]  # team: agents only when whitelisted


def test_a_blacklist_excludes_at_every_level_but_never_the_owner_or_an_admin(team):
    alice = team["alice"]
    for level in ("public", "team", "custom"):
        alice.encode(f"{level} note", read_perm_level=level, read_whitelist=["bob"], read_blacklist=["bob"])
    assert _ids(team["bob"].retrieve(filter={})) == []
    assert len(_ids(team["admin"].retrieve(filter={}))) == len(_ids(alice.retrieve(filter={}))) == 3
    alice.encode("alice blacklisted herself", read_perm_level="public", read_blacklist=["alice"])
    assert "4" in _ids(alice.retrieve(filter={}))


def test_an_unreadable_record_is_absent_for_writes_and_a_readable_unwritable_one_is_refused(team, db):
    alice = team["alice"]
    alice.encode("private plan", read_perm_level="private")
    alice.encode("shared plan", write_perm_level="owner_only")
    hidden = team["bob"].update("1", text="mine now")
    assert (
        hidden.success
        and hidden.affected_ids == []
        and [w.rule for w in hidden.warnings] == ["target.not_found"]
    )
    refused = team["bob"].update("2", text="mine now")
    assert _rules(refused) == ["permission.write"]
    assert "record 2" in refused.diagnostics[0].message and "owner_only" in refused.diagnostics[0].message
    assert db.record(alice, "2").text == "shared plan"
    # through a filter too: one unwritable record refuses the op (nothing half-applied)
    alice.encode("another shared plan")
    labelled = team["bob"].execute(
        {"op": "Label", "target": {"filter": {"limit": 10}}, "args": {"tags": ["x"]}}
    )
    assert _rules(labelled) == ["permission.write"] and db.record(alice, "3").tags == []


def test_write_levels(team):
    alice, bob, writer = team["alice"], team["bob"], team["writer"]
    alice.encode("open", write_perm_level="open", write_blacklist=["bot"])
    alice.encode(
        "maintainer", write_perm_level="maintainer", write_whitelist=["bob"], write_blacklist=["bob"]
    )
    alice.encode("owner only", write_perm_level="owner_only")
    alice.encode("custom", write_perm_level="custom", write_whitelist=["bob", "bot"], write_blacklist=["bob"])
    alice.encode("whitelist without a level is custom", write_whitelist=["bot"])

    def writable(m):
        return [rid for rid in "12345" if m.label(rid, ["x"]).success]

    assert writable(bob) == ["1", "2"]  # maintainer: the list is complete, the blacklist does not apply
    assert writable(writer) == ["4", "5"]
    assert writable(team["admin"]) == writable(alice) == ["1", "2", "3", "4", "5"]


def test_an_ownerless_record_is_writable_by_anyone_allowed_to_write(memory):
    anonymous = memory(actor=None)
    anonymous.encode("no owner", write_perm_level="owner_only", write_blacklist=["carol"])
    assert memory(actor="bob", share=anonymous).label("1", ["x"]).success
    assert _rules(memory(actor="carol", share=anonymous).label("1", ["x"])) == ["permission.write"]
    assert memory(actor="bot", role="agent", consent="read_write", share=anonymous).label("1", ["y"]).success


def test_only_the_owner_or_an_admin_changes_owner_and_permission_fields(team, db):
    alice, bob = team["alice"], team["bob"]
    alice.encode("shared", write_perm_level="open")
    assert bob.update("1", text="edited by bob").success  # the content: anyone who may write
    refused = bob.update("1", read_perm_level="private")
    assert _rules(refused) == ["permission.owner"] and refused.diagnostics[0].path == "/args/set"
    assert _rules(bob.update("1", owner="bob")) == ["permission.owner"]
    assert alice.update("1", owner="bob").success
    assert db.record(alice, "1").owner == "bob"
    assert team["admin"].update("1", read_perm_level="private", read_whitelist=["carol"]).success
    assert _ids(alice.retrieve(filter={})) == []  # no longer hers, and private to bob


# --- derived records never widen who may read --------------------------------------------------------


def test_split_parts_keep_the_owner_sensitivity_and_permissions(team, db):
    alice = team["alice"]
    alice.encode("Alpha one. Beta two.", sensitivity="sensitive", read_perm_level="private")
    assert (
        team["admin"]
        .execute({"op": "Split", "target": {"ids": ["1"]}, "args": {"inherit_all": False}})
        .success
    )
    for part in ("2", "3"):
        record = db.record(alice, part)
        assert (record.owner, record.sensitivity, record.read_perm_level) == ("alice", "sensitive", "private")
    assert _ids(team["bob"].retrieve(filter={})) == []


def test_merge_takes_the_strictest_sensitivity_and_refuses_records_with_different_readers(team, db):
    alice = team["alice"]
    alice.encode("trip to Lisbon", sensitivity="standard")
    alice.encode("trip budget", sensitivity="restricted")
    alice.encode("private trip note", read_perm_level="private")
    assert alice.merge(["1", "2"]).success
    assert db.record(alice, "1").sensitivity == "restricted"
    refused = alice.merge(["1", "3"])
    assert _rules(refused) == ["permission.merge"]


def test_a_summary_is_never_more_readable_than_its_sources(team, db):
    alice = team["alice"]
    alice.encode("The offsite is in May.")
    alice.encode("The offsite budget is tight.", sensitivity="sensitive")
    public = alice.summarize(ids=["1"]).data["id"]
    mixed = alice.summarize(filter={}).data["id"]
    alice.encode("Only alice knows the venue.", read_perm_level="private")
    private = alice.summarize(filter={}).data["id"]
    assert (
        db.record(alice, public).read_perm_level is None
        and db.record(alice, public).sensitivity == "standard"
    )
    assert (
        db.record(alice, mixed).sensitivity == "sensitive" and db.record(alice, mixed).read_perm_level is None
    )
    assert (
        db.record(alice, private).read_perm_level == "private" and db.record(alice, private).owner == "alice"
    )
    assert private not in _ids(team["bob"].retrieve(filter={"type": "summary"}))


# --- dedup and history never reveal an unreadable record -----------------------------------------


def test_an_identical_encode_does_not_return_a_record_the_caller_may_not_read(team, db):
    team["alice"].encode("the safe code is 1234", read_perm_level="private")
    again = team["bob"].encode("the safe code is 1234")
    assert again.data == {"id": "2"} and "deduplicated" not in again.data
    assert team["alice"].encode("the safe code is 1234", read_perm_level="private").data == {
        "id": "1",
        "deduplicated": True,
    }


def test_history_of_a_record_the_caller_may_not_read_is_empty(team):
    team["alice"].encode("private", read_perm_level="private")
    assert len(team["alice"].history("1")) == 1
    assert team["bob"].history("1") == [] and team["reader"].history("1") == []


# --- housekeeping ------------------------------------------------------------------------------------


def test_restore_and_reminders_respect_consent_and_permissions(team, clock):
    alice = team["alice"]
    alice.encode("private", read_perm_level="private")
    alice.delete("1")
    assert _rules(team["bob"].restore("1")) == ["target.not_found"]  # as if absent
    assert _rules(team["reader"].restore("1")) == ["consent.write"]
    assert alice.restore("1").success
    alice.promote("1", remind="FREQ=DAILY")
    clock.advance(timedelta(days=2))
    assert [r["id"] for r in alice.due().data["due"]] == ["1"]
    assert team["bob"].due().data["due"] == []  # a reminder's text is a read
    assert _rules(team["reader"].due(advance=True)) == ["consent.write"]
    assert _rules(team["reader"].sweep()) == ["consent.write"]


# --- a2p categories --------------------------------------------------------------------------------


def test_a_category_sets_the_sensitivity_floor(m, db, rules):
    assert m.encode("blood test on Friday", category="a2p:health").success
    assert m.encode("loves hiking", category="a2p:interests.outdoors").success
    kept = m.encode("sister lives in Porto", category="a2p:relationships", sensitivity="restricted")
    lowered = m.encode("salary review", category="a2p:financial.income", sensitivity="standard")
    assert [w.rule for w in lowered.warnings] == ["category.sensitivity"]
    assert lowered.warnings[0].path == "/args/sensitivity"
    assert [db.record(m, i).sensitivity for i in "1234"] == [
        "restricted",
        "standard",
        "restricted",
        "restricted",
    ]
    assert kept.success


@pytest.mark.parametrize(
    ("category", "rule"),
    [
        ("a2p:hobbies", "category.unknown"),
        ("work", "category.namespace"),
        ("ext:spotify", "category.namespace"),
    ],
)
def test_bad_categories_are_refused_by_the_language(m, db, rules, category, rule):
    result = m.encode("x", category=category)
    assert rules(result) == [rule] and result.diagnostics[0].path == "/args/category"
    assert db.ids(m) == []


def test_ext_categories_must_be_registered(memory, db, rules):
    config = EngineConfig(categories={"ext:acme:payroll": "restricted", "ext:acme:music": "standard"})
    m = memory(config=config)
    assert m.encode("payslip for May", category="ext:acme:payroll.slips").success
    assert m.encode("playlist", category="ext:acme:music").success
    refused = m.encode("unknown", category="ext:acme:payrol")
    assert rules(refused) == ["category.unregistered"] and refused.diagnostics[0].path == "/args/category"
    assert [db.record(m, i).sensitivity for i in "12"] == ["restricted", "standard"]
    assert rules(memory(share=m).encode("default config", category="ext:acme:music")) == [
        "category.unregistered"
    ]


@pytest.mark.parametrize(
    ("registry", "message"),
    [
        ({"a2p:x": "standard"}, "only ext:"),
        ({"ext:a:b": "secret"}, "sensitivity must be"),
        ({"ext:a": "standard"}, "ext:"),
    ],
)
def test_a_bad_category_registry_is_refused_at_configuration(registry, message):
    with pytest.raises(ValueError, match=message):
        EngineConfig(categories=registry)


def test_recategorising_re_derives_the_sensitivity_and_never_lowers_it_silently(m, db, warned):
    m.encode("bank appointment", category="a2p:financial")
    assert db.record(m, "1").sensitivity == "restricted"
    m.update("1", category="a2p:context")  # no longer financial, but nobody said it is less sensitive
    assert db.record(m, "1").sensitivity == "restricted"
    m.update("1", category="a2p:context", sensitivity="standard")  # said explicitly
    assert db.record(m, "1").sensitivity == "standard"
    m.update("1", category="a2p:relationships")
    assert db.record(m, "1").sensitivity == "sensitive"
    result = m.update("1", sensitivity="standard")  # below the category's
    assert warned(result) == ["category.sensitivity"] and db.record(m, "1").sensitivity == "sensitive"
    # each reclassification is an audited change; the refused lowering changed nothing
    assert [h["after"].get("category") for h in m.history("1")][1:] == [
        "a2p:context",
        None,
        "a2p:relationships",
    ]


def test_a_point_in_time_read_applies_who_may_read_the_record_now(team, clock, t0):
    alice, bob, bot = team["alice"], team["bob"], team["reader"]
    alice.encode("the launch is on Monday")
    alice.encode("the launch budget is 2M")
    clock.advance(timedelta(hours=1))
    then = (t0 + timedelta(minutes=30)).isoformat()
    assert _ids(bob.retrieve(filter={}, as_of=then)) == ["2", "1"]
    assert _ids(bot.retrieve(filter={}, as_of=then)) == ["2", "1"]
    alice.update("1", read_perm_level="private")
    alice.update("2", sensitivity="restricted")
    assert _ids(bob.retrieve(filter={}, as_of=then)) == ["2"]  # 1 was made private since: not even its past
    assert _ids(bob.retrieve("launch", as_of=then)) == ["2"]
    assert _ids(bot.retrieve(filter={}, as_of=then)) == []  # 2 is now beyond the agent's clearance
    assert _ids(alice.retrieve(filter={}, as_of=then)) == ["2", "1"]
