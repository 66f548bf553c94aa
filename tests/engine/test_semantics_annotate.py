"""Update and Label (DESIGN §5).

Update: the fields in `set` change, the id is kept, old values stay in the audit log, a new text is
re-indexed and re-embedded; refused on read_only locks, on append_only locks unless it appends, and on
expired or deleted targets.
Label: tags/facets added, replaced or removed, deduplicated; refused on read_only locks.
"""

from __future__ import annotations

from datetime import timedelta

import pytest

# --- Update ---------------------------------------------------------------------------------------


def test_update_text_keeps_the_id_and_reindexes(m, db, clock, t0, visible):
    m.encode("Dentist on Tuesday", tags=["health"])
    before = db.record(m, "1")
    clock.advance(timedelta(hours=1))
    result = m.update("1", text="Dentist moved to Thursday")
    assert result.success and result.op == "Update"
    assert result.affected_ids == ["1"] and result.data == {"updated": 1}
    after = db.record(m, "1")
    assert after.id == "1" and after.text == "Dentist moved to Thursday"
    assert after.created_at == t0 and after.updated_at == t0 + timedelta(hours=1)
    assert "thursday" in after.keywords and "tuesday" not in after.keywords
    assert after.content_hash != before.content_hash
    assert after.embedding_status == "pending"  # re-embed when the text changes
    assert after.tags == ["health"] and after.weight == before.weight
    assert visible(m, "Thursday") == ["1"]
    assert visible(m, "Tuesday") == []
    assert db.ids(m) == ["1"]


def test_update_keeps_the_old_values_in_the_audit_log(m, clock, t0):
    m.encode("v1", weight=0.2)
    clock.advance(timedelta(minutes=5))
    m.update("1", text="v2", weight=0.9)
    insert, update = m.history("1")
    assert insert["change"] == "insert"
    assert update["op"] == "Update" and update["change"] == "update" and update["actor"] == "alice"
    assert update["time"] == t0 + timedelta(minutes=5)
    assert update["before"]["text"] == "v1" and update["after"]["text"] == "v2"
    assert update["before"]["weight"] == 0.2 and update["after"]["weight"] == 0.9


def test_update_facets_merge_by_key_and_tags_replace(m, db):
    m.encode("note", tags=["a", "b"], facets={"topic": "old", "room": "B2"})
    m.update("1", facets={"topic": "new", "floor": 3}, tags=["c"], location="Berlin")
    r = db.record(m, "1")
    assert r.facets == {"topic": "new", "room": "B2", "floor": 3, "location": "Berlin"}
    assert r.tags == ["c"]


def test_update_plain_fields(m, db, t0):
    m.encode("note")
    m.update(
        "1", type="event", time="2026-04-01T08:00:00Z", weight=0.75, category="a2p:context", confidence=0.4
    )
    r = db.record(m, "1")
    assert r.kind == "event" and r.time == t0.replace(month=4, day=1, hour=8)
    assert r.weight == 0.75 and r.category == "a2p:context" and r.confidence == 0.4
    assert r.text == "note"


def test_update_ttl_sets_the_expiry_from_now(m, db, t0):
    m.encode("coupon")
    m.update("1", ttl="P2D")
    r = db.record(m, "1")
    assert r.expire_at == t0 + timedelta(days=2) and r.on_expire == "soft_delete"


def test_update_of_several_records(m, db):
    for text in ("one", "two", "three"):
        m.encode(text)
    result = m.update(["1", "3"], weight=0.1)
    assert result.affected_ids == ["1", "3"] and result.data == {"updated": 2}
    assert [db.record(m, i).weight for i in ("1", "2", "3")] == [0.1, 0.5, 0.1]


def test_update_of_an_unknown_id_changes_nothing_and_warns(m, db, warned):
    m.encode("one")
    result = m.update("9", text="nine")
    assert result.success and result.affected_ids == [] and result.data == {"updated": 0}
    assert warned(result) == ["target.not_found"]
    assert db.record(m, "1").text == "one"


def test_update_through_a_filter(m, db):
    m.encode("a", tags=["x"])
    m.encode("b")
    result = m.execute(
        {
            "op": "Update",
            "target": {"filter": {"has_tags": ["x"], "limit": 10}},
            "args": {"set": {"weight": 1}},
        }
    )
    assert result.affected_ids == ["1"]
    assert db.record(m, "1").weight == 1.0 and db.record(m, "2").weight == 0.5


@pytest.mark.parametrize(
    ("args", "rule"),
    [
        ({"set": {}}, "update.empty"),
        ({}, "update.empty"),
        ({"set": {"embedding": [0.1]}}, "update.embedding"),
    ],
)
def test_update_validation(m, rules, args, rule):
    m.encode("x")
    result = m.execute({"op": "Update", "target": {"ids": ["1"]}, "args": args})
    assert not result.success and rules(result) == [rule]


def test_an_update_that_sets_a_field_to_null_clears_it_or_is_refused_never_a_defect(m, db):
    """Null beside another change clears a field a record may lack (type, time, category, ...); a record
    always has a weight and tags, so null for those is refused where it stands (it reached the store, whose
    NOT NULL constraint failed: exec.internal)."""
    from memql.lang.ops.annotate import UpdateSet

    m.encode("release plan", tags=["release"], type="note")
    for name in sorted(set(UpdateSet.model_fields) - {"text"}):
        change = {name: None, "text": "release plan v2"}
        result = m.execute({"op": "Update", "target": {"ids": ["1"]}, "args": {"set": change}})
        assert "exec.internal" not in [d.rule for d in result.diagnostics], (name, result.diagnostics)
        if name in ("weight", "tags"):
            assert [(d.rule, d.path) for d in result.diagnostics] == [("field.type", f"/args/set/{name}")]
    record = db.record(m, "1")
    assert record.weight == 0.5 and record.tags == ["release"] and record.kind is None


def test_update_refused_on_read_only(m, db, rules):
    m.encode("fixed", tags=["a"])
    m.lock("1", mode="read_only", reason="legal hold")
    for change in ({"text": "fixed and more"}, {"weight": 0.9}, {"tags": ["b"]}):
        result = m.update("1", **change)
        assert not result.success and rules(result) == ["governance.locked"]
        assert result.diagnostics[0].path == "/target"
        assert "legal hold" in result.diagnostics[0].message
    r = db.record(m, "1")
    assert (r.text, r.weight, r.tags) == ("fixed", 0.5, ["a"])


def test_update_under_append_only_allows_appending_text(m, db, visible):
    m.encode("Day 1: rain.")
    m.lock("1", mode="append_only")
    result = m.update("1", text="Day 1: rain. Day 2: sun.")
    assert result.success
    assert db.record(m, "1").text == "Day 1: rain. Day 2: sun."
    assert visible(m, "sun") == ["1"]


@pytest.mark.parametrize(
    "change",
    [
        {"text": "Day 1: snow."},
        {"text": "Day 1:"},
        {"weight": 0.9},
        {"text": "Day 1: rain. More.", "tags": ["x"]},
    ],
    ids=["rewrite", "truncate", "other-field", "append-plus-field"],
)
def test_update_under_append_only_refuses_anything_but_an_append(m, db, rules, change):
    m.encode("Day 1: rain.")
    m.lock("1", mode="append_only")
    result = m.update("1", **change)
    assert not result.success and rules(result) == ["governance.locked"]
    r = db.record(m, "1")
    assert (r.text, r.weight, r.tags) == ("Day 1: rain.", 0.5, [])


def test_update_refused_on_a_deleted_record(m, db, rules):
    m.encode("gone")
    m.delete("1")
    result = m.update("1", text="back?")
    assert not result.success and rules(result) == ["governance.target_state"]
    assert db.record(m, "1").text == "gone"


def test_update_refused_on_an_expired_record(m, db, clock, rules):
    m.encode("stale")
    m.expire("1", ttl="PT1H", on_expire="none")
    clock.advance(timedelta(hours=1))  # expire_at == now: expired
    result = m.update("1", text="fresh")
    assert not result.success and rules(result) == ["governance.target_state"]
    assert "expired" in result.diagnostics[0].message
    assert db.record(m, "1").text == "stale"


def test_update_after_a_lock_is_lifted(m, db):
    m.encode("fixed")
    m.lock("1")
    m.unlock("1")
    assert m.update("1", text="changed").success
    assert db.record(m, "1").text == "changed"


# --- Label ----------------------------------------------------------------------------------------


def test_label_add_unions_tags_without_duplicates_ignoring_case(m, db):
    m.encode("note", tags=["Work", "urgent"])
    result = m.label("1", ["work", "Home", "URGENT", "later"])
    assert result.success and result.op == "Label"
    assert result.affected_ids == ["1"] and result.data == {"labelled": 1}
    assert db.record(m, "1").tags == ["Work", "urgent", "Home", "later"]


def test_label_add_is_idempotent(m, db):
    m.encode("note", tags=["a"])
    m.label("1", ["b"])
    m.label("1", ["b"])
    assert db.record(m, "1").tags == ["a", "b"]


def test_label_add_dedupes_case_variants_within_one_call(m, db):
    m.encode("note")
    m.label("1", ["Home", "home", "HOME"])
    assert db.record(m, "1").tags == ["Home"]


def test_label_add_facets_merge_keys(m, db):
    m.encode("note", facets={"topic": "travel", "room": "B2"})
    m.label("1", facets={"mood": "happy", "location": "Lisbon"})
    assert db.record(m, "1").facets == {
        "topic": "travel",
        "room": "B2",
        "mood": "happy",
        "location": "Lisbon",
    }


def test_label_replace_tags_keeps_facets(m, db):
    m.encode("note", tags=["a", "b"], facets={"topic": "t"})
    m.label("1", ["c", "d"], mode="replace")
    r = db.record(m, "1")
    assert r.tags == ["c", "d"] and r.facets == {"topic": "t"}


def test_label_replace_facets_keeps_tags(m, db):
    m.encode("note", tags=["a"], facets={"topic": "t", "room": "B2"})
    m.label("1", facets={"mood": "calm"}, mode="replace")
    r = db.record(m, "1")
    assert r.tags == ["a"] and r.facets == {"mood": "calm"}


def test_label_replace_dedupes_exact_duplicates(m, db):
    m.encode("note", tags=["a"])
    m.label("1", ["x", "x", " y ", "y"], mode="replace")
    assert db.record(m, "1").tags == ["x", "y"]


def test_label_replace_dedupes_case_variants(m, db):
    m.encode("note")
    m.label("1", ["Work", "work"], mode="replace")
    assert db.record(m, "1").tags == ["Work"]


def test_label_remove_tags_ignoring_case(m, db):
    m.encode("note", tags=["Work", "urgent", "home"], facets={"topic": "t"})
    m.label("1", ["work", "URGENT", "absent"], mode="remove")
    r = db.record(m, "1")
    assert r.tags == ["home"] and r.facets == {"topic": "t"}


def test_label_remove_facets_by_key(m, db):
    m.encode("note", tags=["a"], facets={"topic": "t", "room": "B2", "mood": "ok"})
    m.label("1", facets={"room": "anything", "topic": "t"}, mode="remove")
    r = db.record(m, "1")
    assert r.facets == {"mood": "ok"} and r.tags == ["a"]


def test_label_remove_everything_leaves_empty_lists(m, db):
    m.encode("note", tags=["a"])
    m.label("1", ["a"], mode="remove")
    assert db.record(m, "1").tags == []


def test_label_is_audited_with_before_and_after(m):
    m.encode("note", tags=["a"])
    m.label("1", ["b"])
    event = m.history("1")[-1]
    assert event["op"] == "Label" and event["change"] == "update"
    assert event["before"]["tags"] == ["a"] and event["after"]["tags"] == ["a", "b"]


def test_label_that_changes_nothing_leaves_no_event(m):
    m.encode("note", tags=["a"])
    m.label("1", ["A"])
    assert [e["change"] for e in m.history("1")] == ["insert"]


def test_label_through_a_filter_and_search(m, db):
    m.encode("apple pie", tags=["food"])
    m.encode("apple laptop", tags=["tech"])
    m.encode("banana", tags=["food"])
    m.execute(
        {"op": "Label", "target": {"filter": {"has_tags": ["food"], "limit": 5}}, "args": {"tags": ["eat"]}}
    )
    m.execute(
        {
            "op": "Label",
            "target": {
                "search": {"intent": {"query": "apple"}, "limit": 5},
                "filter": {"has_tags": ["tech"]},
            },
            "args": {"tags": ["gadget"]},
        }
    )
    assert [db.record(m, i).tags for i in ("1", "2", "3")] == [
        ["food", "eat"],
        ["tech", "gadget"],
        ["food", "eat"],
    ]


def test_label_empty_is_refused(m, rules):
    m.encode("note")
    for args in ({}, {"tags": []}, {"facets": {}}):
        result = m.execute({"op": "Label", "target": {"ids": ["1"]}, "args": args})
        assert not result.success and rules(result) == ["label.empty"]


@pytest.mark.parametrize("mode", ["add", "replace", "remove"])
def test_label_refused_on_read_only(m, db, rules, mode):
    m.encode("note", tags=["a"], facets={"topic": "t"})
    m.lock("1")
    result = m.label("1", ["b"], mode=mode)
    assert not result.success and rules(result) == ["governance.locked"]
    r = db.record(m, "1")
    assert r.tags == ["a"] and r.facets == {"topic": "t"}


def test_label_add_allowed_under_append_only(m, db):
    m.encode("note", tags=["a"])
    m.lock("1", mode="append_only")
    assert m.label("1", ["b"], facets={"mood": "ok"}).success
    r = db.record(m, "1")
    assert r.tags == ["a", "b"] and r.facets == {"mood": "ok"}


@pytest.mark.parametrize("mode", ["replace", "remove"])
def test_label_replace_and_remove_refused_under_append_only(m, db, rules, mode):
    m.encode("note", tags=["a"])
    m.lock("1", mode="append_only")
    result = m.label("1", ["a"], mode=mode)
    assert not result.success and rules(result) == ["governance.locked"]
    assert db.record(m, "1").tags == ["a"]


def test_label_add_cannot_overwrite_a_facet_under_append_only(m, db, rules):
    m.encode("note", facets={"topic": "travel"})
    m.lock("1", mode="append_only")
    result = m.label("1", facets={"topic": "food"})
    assert not result.success and rules(result) == ["governance.locked"]
    assert db.record(m, "1").facets == {"topic": "travel"}


def test_label_refused_on_a_deleted_record(m, rules):
    m.encode("note")
    m.delete("1")
    result = m.label("1", ["x"])
    assert not result.success and rules(result) == ["governance.target_state"]
