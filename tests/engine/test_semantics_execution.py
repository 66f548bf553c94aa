"""Execution (DESIGN §3, §5, issue 3 items 2, 4, 5): one transaction per IR and per workflow; a refused
step rolls everything back and the result names it; dry runs at IR, workflow and step level show every
change and commit nothing; every op is audited; tenant and actor come from the session, never the IR;
confirmation rules for `all`, hard deletes and uncapped bulk writes."""

from __future__ import annotations

from datetime import timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from budgets import examples


def _wf(*steps, **extra):
    return {"workflow": list(steps), **extra}


def _encode(text, **args):
    return {"op": "Encode", "args": {"payload": {"text": text}, **args}}


# --- results and transactions ---------------------------------------------------------------------


def test_every_result_carries_stats(m):
    result = m.encode("x")
    assert result.stats.elapsed_ms >= 0 and result.stats.llm_calls == 0 and result.stats.llm_tokens == 0
    assert result.dry_run is False and result.preview is None and result.steps is None
    assert result.failed_step is None


def test_a_refused_op_changes_nothing_even_after_partial_work(m, db):
    # Delete checks every target's lock before deleting any: the free record must survive
    m.encode("free")
    m.encode("locked")
    m.lock("2")
    ops_before = len(db.operations(m))
    result = m.delete(["1", "2"])
    assert not result.success and result.op == "Delete"
    assert db.record(m, "1").status == "active"
    assert len(db.operations(m)) == ops_before  # a refused op leaves no audit entry


def test_invalid_input_never_raises(m):
    for bad in ("{not json", "[]", "null", {"op": "Fly"}, [{"op": "Encode"}], b"\xff\xfe"):
        result = m.execute(bad)
        assert result.success is False and result.diagnostics


# --- workflows ------------------------------------------------------------------------------------


def test_workflow_steps_chain_through_from_step(m, db):
    result = m.execute(
        _wf(
            _encode("Trip to Lisbon in May"),
            {"op": "Label", "target": {"from_step": 0}, "args": {"tags": ["travel"]}},
            {"op": "Promote", "target": {"from_step": 0}, "args": {"weight": 0.9}},
            {
                "op": "Retrieve",
                "target": {"search": {"intent": {"query": "Lisbon"}}},
                "args": {"include": ["id", "tags"]},
            },
        )
    )
    assert result.success and result.op == "Workflow"
    assert result.affected_ids == ["1"] and result.failed_step is None
    assert [s.op for s in result.steps] == ["Encode", "Label", "Promote", "Retrieve"]
    assert all(s.success for s in result.steps)
    assert result.steps[3].data["rows"] == [{"id": "1", "tags": ["travel"]}]
    r = db.record(m, "1")
    assert r.tags == ["travel"] and r.weight == 0.9
    workflow_id = result.data["workflow_id"]
    ops = db.operations(m)
    assert [(o["op"], o["step"], o["workflow_id"]) for o in ops] == [
        ("Encode", 0, workflow_id),
        ("Label", 1, workflow_id),
        ("Promote", 2, workflow_id),
        ("Retrieve", 3, workflow_id),
    ]
    assert {e["workflow_id"] for e in m.history("1")} == {workflow_id}


def test_from_step_narrowed_by_a_filter(m, db):
    m.encode("a", tags=["x"])
    m.encode("b")
    result = m.execute(
        _wf(
            {"op": "Label", "target": {"ids": ["1", "2"]}, "args": {"tags": ["seen"]}},
            {
                "op": "Promote",
                "target": {"from_step": 0, "filter": {"has_tags": ["x"]}},
                "args": {"weight": 1},
            },
        )
    )
    assert result.success and result.steps[1].affected_ids == ["1"]
    assert db.record(m, "1").weight == 1.0 and db.record(m, "2").weight == 0.5


def test_workflow_spellings_are_equivalent(m, db):
    m.execute([_encode("one")])
    m.execute({"workflow": [_encode("two")]})
    m.execute({"name": "official", "steps": [{"name": "s", "ir": _encode("three")}]})
    assert [db.record(m, i).text for i in db.ids(m)] == ["one", "two", "three"]


def test_a_refused_step_rolls_back_the_whole_workflow_and_is_named(m, db):
    m.encode("protected", tags=["keep"])
    m.lock("1")
    ops_before = db.operations(m)
    history_before = m.history("1")
    result = m.execute(
        _wf(
            _encode("new thing"),
            {"op": "Label", "target": {"from_step": 0}, "args": {"tags": ["x"]}},
            {"op": "Label", "target": {"ids": ["1"]}, "args": {"tags": ["more"]}},  # refused: locked
            _encode("never runs"),
        )
    )
    assert not result.success and result.op == "Workflow"
    assert result.failed_step == 2
    (diag,) = result.diagnostics
    assert (diag.rule, diag.path, diag.severity) == ("governance.locked", "/workflow/2/target", "error")
    assert [s.op for s in result.steps] == ["Encode", "Label", "Label"]  # step 3 never ran
    assert [s.success for s in result.steps] == [True, True, False]
    assert result.steps[0].data["rolled_back"] is True and result.steps[1].data["rolled_back"] is True
    assert result.affected_ids == []
    # no trace of the earlier steps
    assert db.ids(m) == ["1"] and db.record(m, "1").tags == ["keep"]
    assert db.operations(m) == ops_before
    assert m.history("1") == history_before
    assert m.encode("new thing").id == "2"  # not deduplicated against a rolled-back record


def test_a_step_can_act_on_what_an_earlier_read_returned(m, db):
    m.encode("stale cache entry")
    m.encode("fresh data")
    result = m.execute(
        _wf(
            {"op": "Retrieve", "target": {"search": {"intent": {"query": "stale"}}}},
            {"op": "Delete", "target": {"from_step": 0}},
        )
    )
    assert result.success and result.steps[1].affected_ids == ["1"]
    assert [db.record(m, i).status for i in ("1", "2")] == ["deleted", "active"]


def test_a_refusal_in_the_first_step_names_step_zero(m, rules):
    result = m.execute(_wf({"op": "Merge", "target": {"ids": ["1", "2"]}}, _encode("x")))
    assert result.failed_step == 0 and rules(result) == ["merge.too_few"]


def test_an_invalid_step_runs_nothing(m, db, rules):
    result = m.execute(_wf(_encode("first"), {"op": "Label", "target": {"ids": ["1"]}, "args": {}}))
    assert not result.success and rules(result) == ["label.empty"]
    assert result.diagnostics[0].path.endswith("/1/args")
    assert db.ids(m) == []


@pytest.mark.parametrize(
    ("program", "rule"),
    [
        (
            _wf({"op": "Label", "target": {"from_step": 1}, "args": {"tags": ["a"]}}, _encode("x")),
            "workflow.ref_forward",
        ),
        ({"op": "Label", "target": {"from_step": 0}, "args": {"tags": ["a"]}}, "workflow.ref_outside"),
        (_wf(), "workflow.empty"),
    ],
)
def test_workflow_reference_rules(m, rules, program, rule):
    result = m.execute(program)
    assert not result.success and rules(result) == [rule]


# --- dry runs -------------------------------------------------------------------------------------


@pytest.mark.parametrize("how", ["meta", "argument"])
def test_dry_run_of_an_ir_previews_and_commits_nothing(m, db, t0, how):
    m.encode("note", tags=["a"], weight=0.5)
    ops_before = db.operations(m)
    ir = {"op": "Label", "target": {"ids": ["1"]}, "args": {"tags": ["b"]}}
    result = m.execute({**ir, "meta": {"dry_run": True}}) if how == "meta" else m.execute(ir, dry_run=True)
    assert result.success and result.dry_run and result.affected_ids == ["1"]
    (change,) = result.preview
    assert change.record_id == "1" and change.kind == "update"
    assert change.before == {"tags": ["a"], "updated_at": t0}
    assert change.after == {"tags": ["a", "b"], "updated_at": t0}
    assert db.record(m, "1").tags == ["a"]
    assert db.operations(m) == ops_before


def test_dry_run_encode_previews_the_insert_and_consumes_no_id(m, db):
    result = m.execute(_encode("maybe", tags=["t"]), dry_run=True)
    assert result.success and result.dry_run and result.id == "1"
    (change,) = result.preview
    assert change.kind == "insert" and change.before == {}
    assert change.after["text"] == "maybe" and change.after["tags"] == ["t"]
    assert db.ids(m) == [] and db.operations(m) == []
    assert m.encode("real").id == "1"


def test_dry_run_of_a_merge_shows_every_change(m, db):
    m.encode("alpha", weight=0.9)
    m.encode("beta")
    result = m.execute({"op": "Merge", "target": {"ids": ["1", "2"]}, "meta": {"dry_run": True}})
    kinds = [(c.record_id, c.kind) for c in result.preview]
    assert kinds == [("1", "update"), ("2", "update"), ("2", "link")]
    assert result.preview[0].after["text"] == "alpha beta" and result.preview[1].after["status"] == "deleted"
    assert result.preview[2].after == {"dst": "1", "relation": "merged_into"}
    assert db.record(m, "2").status == "active" and db.links(m) == set()


def test_dry_run_all_needs_no_confirmation(m, db):
    m.encode("a")
    m.encode("b")
    result = m.execute({"op": "Delete", "target": {"all": True}, "meta": {"dry_run": True}})
    assert result.success and sorted(result.affected_ids) == ["1", "2"]
    assert [db.record(m, i).status for i in ("1", "2")] == ["active", "active"]


@pytest.mark.parametrize("how", ["meta", "argument"])
def test_dry_run_of_a_workflow_previews_every_step_and_commits_nothing(m, db, how):
    program = _wf(_encode("planned"), {"op": "Label", "target": {"from_step": 0}, "args": {"tags": ["x"]}})
    if how == "meta":
        result = m.execute({**program, "meta": {"dry_run": True}})
    else:
        result = m.execute(program, dry_run=True)
    assert result.success and result.dry_run
    assert all(s.dry_run for s in result.steps)
    assert [(c.record_id, c.kind) for c in result.preview] == [("1", "insert"), ("1", "update")]
    assert result.preview[1].after["tags"] == ["x"]
    assert db.ids(m) == [] and db.operations(m) == []


def test_a_dry_run_step_inside_a_workflow_is_previewed_then_undone(m, db):
    m.encode("existing", weight=0.5)
    result = m.execute(
        _wf(
            {"op": "Promote", "target": {"ids": ["1"]}, "args": {"weight": 0.9}, "meta": {"dry_run": True}},
            {"op": "Label", "target": {"ids": ["1"]}, "args": {"tags": ["committed"]}},
        )
    )
    assert result.success and result.dry_run is False
    dry, real = result.steps
    assert dry.dry_run and dry.preview[0].after["weight"] == 0.9
    assert not real.dry_run and real.preview is None
    r = db.record(m, "1")
    assert r.weight == 0.5 and r.tags == ["committed"]
    assert [o["op"] for o in db.operations(m)] == ["Encode", "Label"]  # the previewed step is not audited


def test_a_later_step_sees_the_state_without_the_dry_run_step(m, db):
    m.encode("existing", weight=0.5)
    result = m.execute(
        _wf(
            {"op": "Promote", "target": {"ids": ["1"]}, "args": {"weight": 0.9}, "meta": {"dry_run": True}},
            {"op": "Promote", "target": {"ids": ["1"]}, "args": {"weight_delta": 0.1}},
        )
    )
    assert result.success
    assert db.record(m, "1").weight == 0.6


def test_from_step_to_a_dry_run_step_touches_no_committed_record(m, db):
    result = m.execute(
        _wf(
            {**_encode("only previewed"), "meta": {"dry_run": True}},
            _encode("committed"),
            {"op": "Label", "target": {"from_step": 0}, "args": {"tags": ["x"]}},
        )
    )
    if result.success:  # the reference resolves to nothing ...
        assert result.steps[2].affected_ids == []
        assert db.record(m, "1").text == "committed" and db.record(m, "1").tags == []
    else:  # ... or is refused, naming the step
        assert result.failed_step == 2 and db.ids(m) == []


# --- audit log and history ------------------------------------------------------------------------


def test_every_op_is_one_audited_operation(m, db, t0):
    m.encode("note")
    m.execute(
        {"op": "Label", "target": {"ids": ["1"]}, "args": {"tags": ["a"]}, "meta": {"trace_id": "tr-9"}}
    )
    m.retrieve("note")
    ops = db.operations(m)
    assert [o["op"] for o in ops] == ["Encode", "Label", "Retrieve"]
    label = ops[1]
    assert label["actor"] == "alice" and label["trace_id"] == "tr-9" and label["affected_ids"] == ["1"]
    assert label["ir"] == {
        "stage": "STO",
        "op": "Label",
        "target": {"ids": ["1"]},
        "args": {"tags": ["a"], "mode": "add"},
        "meta": {"trace_id": "tr-9"},
    }
    assert label["workflow_id"] is None and label["step"] is None


def test_history_lists_every_change_in_order(memory, clock, t0):
    m = memory()
    bob = memory(actor="bob", share=m)
    m.encode("draft", weight=0.5)
    clock.advance(timedelta(minutes=1))
    bob.update("1", text="draft v2")
    clock.advance(timedelta(minutes=1))
    m.label("1", ["x"])
    clock.advance(timedelta(minutes=1))
    m.lock("1", reason="final")
    clock.advance(timedelta(minutes=1))
    m.unlock("1")
    clock.advance(timedelta(minutes=1))
    m.delete("1")
    history = m.history("1")
    assert [(h["op"], h["change"], h["actor"]) for h in history] == [
        ("Encode", "insert", "alice"),
        ("Update", "update", "bob"),
        ("Label", "update", "alice"),
        ("Lock", "update", "alice"),
        ("Lock", "update", "alice"),
        ("Delete", "update", "alice"),
    ]
    assert [h["time"] for h in history] == [t0 + timedelta(minutes=i) for i in range(6)]
    assert [h["seq"] for h in history] == sorted(h["seq"] for h in history)
    assert history[1]["before"]["text"] == "draft" and history[1]["after"]["text"] == "draft v2"
    assert history[3]["after"]["lock_reason"] == "final" and history[4]["after"]["lock_mode"] is None
    assert history[5]["after"]["status"] == "deleted"


def test_history_accepts_padded_ids_and_is_tenant_scoped(memory):
    a = memory(tenant="a")
    b = memory(tenant="b", share=a)
    a.encode("x")
    assert len(a.history("001")) == 1
    assert b.history("1") == []


# --- tenant and actor come from the session -------------------------------------------------------


def test_the_ir_cannot_name_a_tenant(m, db, rules):
    result = m.execute({**_encode("x"), "meta": {"tenant": "other"}})
    assert not result.success and rules(result) == ["field.unknown"]
    assert db.ids(m) == []


def test_the_ir_actor_is_a_claim_not_an_identity(m, db):
    m.execute({**_encode("x"), "meta": {"actor": "mallory"}})
    m.execute({"op": "Lock", "target": {"ids": ["1"]}, "meta": {"actor": "mallory"}})
    r = db.record(m, "1")
    assert r.owner == "alice" and r.lock_by == "alice"
    assert {o["actor"] for o in db.operations(m)} == {"alice"}
    assert db.operations(m)[0]["ir"]["meta"] == {"actor": "mallory"}  # the claim is kept, audited


def test_writes_by_id_cannot_reach_another_tenant(memory, db, warned):
    a = memory(tenant="a")
    b = memory(tenant="b", share=a)
    a.encode("a's note", tags=["mine"])
    for result in (
        b.label("1", ["stolen"]),
        b.update("1", text="overwritten"),
        b.delete("1"),
        b.delete("1", hard=True, confirm=True),
        b.lock("1"),
        b.expire("1", ttl="PT1S", on_expire="hard_delete"),
    ):
        assert result.affected_ids == [] and "target.not_found" in warned(result)
    r = db.record(a, "1")
    assert (r.text, r.tags, r.status, r.lock_mode, r.expire_at) == (
        "a's note",
        ["mine"],
        "active",
        None,
        None,
    )
    assert b.merge(["1", "2"]).success is False


def test_bulk_writes_stay_in_their_tenant(memory, db):
    a = memory(tenant="a")
    b = memory(tenant="b", share=a)
    a.encode("a one", tags=["x"])
    b.encode("b one", tags=["x"])
    b.execute(
        {"op": "Delete", "target": {"all": True}, "args": {"soft": False}, "meta": {"confirmation": True}}
    )
    b.execute(
        {"op": "Label", "target": {"filter": {"has_tags": ["x"], "limit": 10}}, "args": {"tags": ["y"]}}
    )
    assert db.ids(b) == []
    assert db.record(a, "1").tags == ["x"] and db.record(a, "1").status == "active"


# --- confirmation rules and bulk-write caps --------------------------------------------------------


@pytest.mark.parametrize(
    ("op", "args"),
    [
        ("Label", {"tags": ["x"]}),
        ("Update", {"set": {"weight": 0.1}}),
        ("Promote", {"weight": 1}),
        ("Demote", {"archive": True}),
        ("Delete", {}),
        ("Expire", {"ttl": "P1D", "on_expire": "archive"}),
        ("Lock", {"mode": "read_only"}),
        ("Merge", {}),
        ("Split", {}),
    ],
)
def test_all_on_a_write_needs_confirmation(m, db, rules, op, args):
    m.encode("One apple. Two pears.")
    m.encode("Three plums. Four figs.")
    refused = m.execute({"op": op, "target": {"all": True}, "args": args})
    assert not refused.success and rules(refused) == ["confirm.all_write"]
    assert [db.record(m, i).updated_at for i in ("1", "2")] == [
        db.record(m, i).created_at for i in ("1", "2")
    ]
    confirmed = m.execute({"op": op, "target": {"all": True}, "args": args, "meta": {"confirmation": True}})
    assert confirmed.success and set(confirmed.affected_ids) >= {"1", "2"}


def test_hard_delete_through_a_filter_needs_confirmation_too(m, db, rules):
    m.encode("x", tags=["t"])
    ir = {"op": "Delete", "target": {"filter": {"has_tags": ["t"], "limit": 5}}, "args": {"soft": False}}
    assert rules(m.execute(ir)) == ["confirm.hard_delete"]
    assert m.execute({**ir, "meta": {"confirmation": True}}).success
    assert db.ids(m) == []


def test_a_write_through_a_filter_without_limit_is_capped_and_warned(m, db, warned):
    for i in range(101):
        m.encode(f"bulk note {i}", tags=["bulk"])
    result = m.execute(
        {"op": "Label", "target": {"filter": {"has_tags": ["bulk"]}}, "args": {"tags": ["seen"]}}
    )
    assert result.success and warned(result) == ["write.default_limit"]
    assert result.warnings[0].path == "/target/filter/limit"
    assert len(result.affected_ids) == 100
    tagged = [i for i, r in db.records(m).items() if "seen" in r.tags]
    assert len(tagged) == 100
    assert db.operations(m)[-1]["ir"]["target"]["filter"]["limit"] == 100  # the cap is in the audited IR


def test_a_write_through_a_filter_with_a_limit_is_not_warned(m, warned):
    m.encode("x", tags=["t"])
    result = m.execute(
        {"op": "Label", "target": {"filter": {"has_tags": ["t"], "limit": 1}}, "args": {"tags": ["y"]}}
    )
    assert result.success and warned(result) == []


def test_a_write_through_search_acts_on_every_match_up_to_its_limit(m, db):
    for i in range(30):
        m.encode(f"invoice number {i}")
    ir = {
        "op": "Label",
        "target": {"search": {"intent": {"query": "invoice"}, "limit": 50}},
        "args": {"tags": ["paid"]},
    }
    result = m.execute(ir)
    assert len(result.affected_ids) == 30
    assert all("paid" in r.tags for r in db.records(m).values())


def test_strict_mode_refuses_an_uncapped_bulk_write(memory, db, rules):
    m = memory(strict=True)
    m.encode("x", tags=["t"])
    result = m.execute({"op": "Label", "target": {"filter": {"has_tags": ["t"]}}, "args": {"tags": ["y"]}})
    assert not result.success and rules(result) == ["write.default_limit"]
    assert db.record(m, "1").tags == ["t"]


# --- property: a refused workflow and a dry run leave no trace ------------------------------------

_STEPS = st.sampled_from(
    [
        _encode("generated note. second sentence."),
        {"op": "Label", "target": {"ids": ["1", "2"]}, "args": {"tags": ["p"]}},
        {"op": "Label", "target": {"ids": ["2"]}, "args": {"tags": ["a"], "mode": "remove"}},
        {"op": "Update", "target": {"ids": ["2"]}, "args": {"set": {"text": "rewritten"}}},
        {"op": "Promote", "target": {"ids": ["1", "2"]}, "args": {"weight_delta": 0.4}},
        {"op": "Demote", "target": {"ids": ["2"]}, "args": {"weight_delta": -0.7}},
        {"op": "Demote", "target": {"ids": ["1"]}, "args": {"archive": True}},
        {"op": "Expire", "target": {"ids": ["2"]}, "args": {"ttl": "P1D", "on_expire": "archive"}},
        {"op": "Delete", "target": {"ids": ["1"]}},
        {"op": "Delete", "target": {"ids": ["2"]}, "args": {"soft": False}, "meta": {"confirmation": True}},
        {"op": "Merge", "target": {"ids": ["1", "2"]}, "args": {"soft_delete_children": False}},
        {"op": "Split", "target": {"ids": ["1"]}},
        {"op": "Summarize", "target": {"ids": ["1", "2"]}},
        {"op": "Retrieve", "target": {"filter": {}}},
    ]
)


def _state(db, m):
    return db.records(m), db.links(m), db.operations(m), [m.history(i) for i in ("1", "2", "3")]


@settings(
    max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(steps=st.lists(_STEPS, min_size=1, max_size=6))
def test_property_refused_workflows_and_dry_runs_leave_no_trace(memory, db, steps):
    m = memory()
    m.encode("First note. It has two sentences.", tags=["a"], weight=0.5)
    m.encode("Second note. Also two sentences.", tags=["a"], weight=0.5)
    m.encode("Locked note")
    m.lock("3")
    before = _state(db, m)
    refused = m.execute(_wf(*steps, {"op": "Label", "target": {"ids": ["3"]}, "args": {"tags": ["x"]}}))
    assert not refused.success
    assert refused.diagnostics[0].rule in ("governance.locked", "governance.target_state", "merge.too_few")
    assert _state(db, m) == before
    previewed = m.execute(_wf(*steps), dry_run=True)
    assert _state(db, m) == before
    committed = m.execute(_wf(*steps))
    assert committed.success == previewed.success
    if committed.success:
        assert [s.affected_ids for s in committed.steps] == [s.affected_ids for s in previewed.steps]
        assert all(0.0 <= r.weight <= 1.0 for r in db.records(m).values())
    else:
        assert committed.failed_step == previewed.failed_step
        assert _state(db, m) == before
