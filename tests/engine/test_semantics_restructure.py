"""Merge and Split (DESIGN §5).

Merge: children fold into a primary (explicit, or auto: highest weight, then oldest); text merged
(deterministic dedup-merge offline); tags/facets unioned; weight max; children soft-deleted or kept,
linked merged_into. Refused with fewer than 2 records or any locked record.
Split: parent -> children by sentences, chunks or custom; children linked split_from, inherit
tags/facets/weight with inherit_all; parent archived. Refused on locked records.
"""

from __future__ import annotations

import json
from datetime import timedelta

import pytest

from memql.ports.models import LLMUsage

# --- Merge ----------------------------------------------------------------------------------------


def _three(m, clock):
    m.encode(
        "Meeting with Bob about the budget. Bob wants more money.",
        tags=["work", "Budget"],
        facets={"topic": "budget", "x": 1},
        weight=0.4,
    )
    clock.advance(timedelta(minutes=1))
    m.encode(
        "Meeting with Bob about the budget. Alice agrees.",
        tags=["budget", "q3"],
        facets={"topic": "finance", "y": 2},
        weight=0.7,
    )
    clock.advance(timedelta(minutes=1))
    m.encode("Budget review on Friday.", weight=0.7)


def test_merge_folds_children_into_the_primary(m, db, clock, t0):
    _three(m, clock)
    clock.advance(timedelta(hours=1))
    result = m.merge(["1", "2", "3"], primary="1")
    assert result.success and result.op == "Merge"
    assert result.affected_ids == ["1", "2", "3"]
    assert result.data == {"id": "1", "primary_id": "1", "merged_ids": ["2", "3"]}
    primary = db.record(m, "1")
    # text: the primary's first, then what the children add, repeated sentences once
    assert primary.text == (
        "Meeting with Bob about the budget. Bob wants more money. Alice agrees. Budget review on Friday."
    )
    assert primary.tags == ["work", "Budget", "q3"]  # union, case-insensitive duplicates dropped
    assert primary.facets == {"topic": "budget", "x": 1, "y": 2}  # the primary wins where facets disagree
    assert primary.weight == 0.7  # the maximum
    assert primary.status == "active" and primary.updated_at == t0 + timedelta(hours=1, minutes=2)
    assert primary.embedding_status == "pending"  # re-embedded
    for child in ("2", "3"):
        r = db.record(m, child)
        assert r.status == "deleted" and r.deleted_at == t0 + timedelta(hours=1, minutes=2)
    assert db.links(m) == {("2", "1", "merged_into"), ("3", "1", "merged_into")}


def test_merged_primary_is_found_by_the_childrens_words(m, clock, visible):
    _three(m, clock)
    m.merge(["1", "2", "3"], primary="1")
    assert visible(m, "Friday") == ["1"]
    assert visible(m, "Alice") == ["1"]
    assert visible(m) == ["1"]


def test_merge_auto_primary_is_the_highest_weight(m, db):
    m.encode("low", weight=0.2)
    m.encode("high", weight=0.9)
    m.encode("mid", weight=0.5)
    result = m.merge(["1", "2", "3"])
    assert result.data["primary_id"] == "2" and result.data["merged_ids"] == ["1", "3"]
    assert db.record(m, "2").text == "high low mid"
    assert db.record(m, "2").status == "active"


def test_merge_auto_primary_ties_go_to_the_oldest(m, clock):
    m.encode("newer in id but older in time", time="2020-01-01T00:00:00Z", weight=0.6)  # time is not age
    clock.advance(timedelta(days=1))
    m.encode("created later", weight=0.6)
    clock.set(clock.now() - timedelta(days=3))
    m.encode("created earliest", weight=0.6)
    assert m.merge(["1", "2", "3"]).data["primary_id"] == "3"


def test_merge_auto_primary_tie_on_weight_and_age_goes_to_the_lower_id(m):
    m.encode("first", weight=0.6)
    m.encode("second", weight=0.6)
    assert m.merge(["2", "1"]).data["primary_id"] == "1"


def test_merge_keeping_children(m, db, visible):
    m.encode("alpha", tags=["a"])
    m.encode("beta", tags=["b"])
    result = m.merge(["1", "2"], primary="1", keep_children=True)
    assert result.success
    assert db.record(m, "1").text == "alpha beta" and db.record(m, "1").tags == ["a", "b"]
    child = db.record(m, "2")
    assert child.status == "active" and child.deleted_at is None and child.text == "beta"
    assert db.links(m) == {("2", "1", "merged_into")}
    assert sorted(visible(m, "beta")) == ["1", "2"]


def test_merged_children_can_be_restored(m, db):
    m.encode("alpha")
    m.encode("beta")
    m.merge(["1", "2"])
    assert m.restore("2").success
    assert db.record(m, "2").status == "active"


def test_merge_is_audited_for_primary_and_children(m):
    m.encode("alpha", weight=0.9)
    m.encode("beta")
    m.merge(["1", "2"])
    assert m.history("1")[-1]["op"] == "Merge"
    assert m.history("1")[-1]["after"]["text"] == "alpha beta"
    child_events = [(e["op"], e["change"]) for e in m.history("2")]
    assert child_events == [("Encode", "insert"), ("Merge", "update"), ("Merge", "link")]
    assert m.history("2")[-1]["after"] == {"dst": "1", "relation": "merged_into"}


def test_merge_through_a_filter(m, db):
    m.encode("draft one", tags=["draft"])
    m.encode("keep me")
    m.encode("draft two", tags=["draft"], weight=0.8)
    result = m.execute({"op": "Merge", "target": {"filter": {"has_tags": ["draft"], "limit": 10}}})
    assert result.data["primary_id"] == "3" and result.data["merged_ids"] == ["1"]
    assert db.record(m, "2").status == "active"


def test_merge_of_identical_texts_keeps_one_copy(m, db):
    m.encode("Same sentence.", weight=0.9)
    m.encode("Same sentence.", dedupe=False)
    m.merge(["1", "2"])
    assert db.record(m, "1").text == "Same sentence."


def test_merge_text_comes_from_the_llm_when_configured(memory, db):
    llm = _PartsLLM(json.dumps({"parts": ["Bob and Alice agreed the budget."]}))
    m = memory(llm=llm)
    m.encode("Bob proposed a budget.", weight=0.9, tags=["a"])
    m.encode("Alice agreed to it.", tags=["b"])
    result = m.merge(["1", "2"])
    assert result.success and result.stats.llm_calls == 1
    r = db.record(m, "1")
    assert r.text == "Bob and Alice agreed the budget." and r.tags == ["a", "b"]
    assert "Bob proposed a budget." in llm.requests[0].messages[1].content


@pytest.mark.parametrize(
    "ids",
    [
        ["1"],
        ["1", "1"],
        pytest.param(
            ["1", "001"],
        ),
    ],
)
def test_merge_needs_two_distinct_ids(m, rules, ids):
    m.encode("only")
    result = m.execute({"op": "Merge", "target": {"ids": ids}})
    assert not result.success and rules(result) == ["merge.too_few"]


def test_merge_needs_two_existing_records(m, db, rules):
    m.encode("only")
    result = m.merge(["1", "99"])
    assert not result.success and rules(result) == ["merge.too_few"]
    assert db.record(m, "1").status == "active"


def test_merge_through_a_filter_matching_one_record_is_refused(m, rules):
    m.encode("a", tags=["x"])
    m.encode("b")
    result = m.execute({"op": "Merge", "target": {"filter": {"has_tags": ["x"], "limit": 10}}})
    assert not result.success and rules(result) == ["merge.too_few"]


def test_merge_primary_must_be_a_target(m, rules):
    m.encode("a")
    m.encode("b")
    m.encode("c")
    result = m.merge(["1", "2"], primary="3")
    assert not result.success and rules(result) == ["merge.primary_not_in_target"]


@pytest.mark.parametrize("mode", ["read_only", "append_only"])
@pytest.mark.parametrize("locked", ["1", "2"], ids=["primary-locked", "child-locked"])
def test_merge_refused_when_any_record_is_locked(m, db, rules, mode, locked):
    m.encode("alpha", weight=0.9)
    m.encode("beta")
    m.lock(locked, mode=mode)
    result = m.merge(["1", "2"])
    assert not result.success and rules(result) == ["governance.locked"]
    assert db.record(m, "1").text == "alpha" and db.record(m, "2").status == "active"
    assert db.links(m) == set()


def test_merge_refused_when_a_record_is_deleted(m, db, rules):
    m.encode("alpha")
    m.encode("beta")
    m.delete("2")
    result = m.merge(["1", "2"])
    assert not result.success and rules(result) == ["governance.target_state"]
    assert db.record(m, "1").text == "alpha"


# --- Split ----------------------------------------------------------------------------------------

TEXT = "First sentence here. Second one follows! Third? Fourth."


def test_split_by_sentences(m, db, t0):
    m.encode(TEXT, type="note", tags=["t"], facets={"topic": "s"}, weight=0.9, time="2026-01-02T03:04:05Z")
    result = m.split("1")
    assert result.success and result.op == "Split"
    assert result.affected_ids == ["1", "2", "3", "4", "5"]
    assert result.data == {"children": {"1": ["2", "3", "4", "5"]}}
    parent = db.record(m, "1")
    assert parent.status == "archived" and parent.text == TEXT
    texts = [db.record(m, i).text for i in ("2", "3", "4", "5")]
    assert texts == ["First sentence here.", "Second one follows!", "Third?", "Fourth."]
    for i in ("2", "3", "4", "5"):
        child = db.record(m, i)
        assert child.tags == ["t"] and child.facets == {"topic": "s"} and child.weight == 0.9
        assert child.kind == "note" and child.time == parent.time and child.status == "active"
        assert child.created_at == t0 and child.embedding_status == "pending"
    assert db.links(m) == {(i, "1", "split_from") for i in ("2", "3", "4", "5")}


def test_split_parent_leaves_default_reads_and_children_are_found(m, visible):
    m.encode("Alpha goes first. Beta comes second.")
    m.split("1")
    assert visible(m) == ["3", "2"]
    assert visible(m, "Beta") == ["3"]
    assert visible(m, filter={"status": "archived"}) == ["1"]


def test_split_by_sentences_groups(m, db):
    m.encode("One. Two. Three. Four. Five.")
    m.split("1", max_sentences=2)
    assert [db.record(m, i).text for i in ("2", "3", "4")] == ["One. Two.", "Three. Four.", "Five."]


def test_split_chinese_sentences(m, db):
    m.encode("这是第一句。这是第二句！第三句？")
    m.split("1", lang="zh")
    assert [db.record(m, i).text for i in ("2", "3", "4")] == ["这是第一句。", "这是第二句！", "第三句？"]


def test_split_by_chunk_size(m, db):
    m.encode("x" * 120)
    result = m.split("1", strategy="by_chunks", chunk_size=50)
    assert result.data == {"children": {"1": ["2", "3", "4"]}}
    assert [len(db.record(m, i).text) for i in ("2", "3", "4")] == [50, 50, 20]


def test_split_by_chunk_count(m, db):
    m.encode("word " * 60)
    result = m.split("1", strategy="by_chunks", num_chunks=3)
    children = result.data["children"]["1"]
    assert len(children) == 3
    joined = " ".join(db.record(m, i).text for i in children)
    assert joined.split() == ["word"] * 60


def test_split_custom_delimiters(m, db):
    m.encode("part one || part two || part three")
    result = m.split("1", strategy="custom", delimiters=["||"])
    assert result.data == {"children": {"1": ["2", "3", "4"]}}
    assert [db.record(m, i).text for i in ("2", "3", "4")] == ["part one", "part two", "part three"]


def test_split_custom_max_splits_keeps_the_tail_in_the_last_part(m, db):
    m.encode("a1 | b2 | c3 | d4 | e5")
    result = m.split("1", strategy="custom", delimiters=["|"], max_splits=3)
    children = result.data["children"]["1"]
    assert len(children) == 3
    texts = [db.record(m, i).text for i in children]
    assert texts[:2] == ["a1", "b2"]
    assert [w for w in texts[2].split() if w != "|"] == ["c3", "d4", "e5"]


def test_split_custom_topics_sets_the_topic_facet(m, db):
    m.encode("Travel: went to Paris. Food: ate croissants. Travel again: Rome.", facets={"mood": "happy"})
    result = m.split("1", strategy="custom", topics=["Travel", "Food"])
    assert result.data == {"children": {"1": ["2", "3"]}}
    travel, food = db.record(m, "2"), db.record(m, "3")
    assert travel.text == "Travel: went to Paris. Travel again: Rome."
    assert travel.facets == {"mood": "happy", "topic": "Travel"}
    assert food.text == "Food: ate croissants." and food.facets == {"mood": "happy", "topic": "Food"}


def test_split_custom_instruction_without_an_llm_falls_back_to_paragraphs(m, db):
    m.encode("First paragraph about cats.\n\nSecond paragraph about dogs.")
    result = m.split("1", strategy="custom", instruction="one part per animal")
    assert result.success and result.stats.llm_calls == 0
    children = result.data["children"]["1"]
    texts = [db.record(m, i).text for i in children]
    assert texts == ["First paragraph about cats.", "Second paragraph about dogs."]


class _PartsLLM:
    def __init__(self, reply: str) -> None:
        self.usage = LLMUsage()
        self.reply = reply
        self.requests = []

    def chat(self, request):
        self.usage.calls += 1
        self.usage.prompt_tokens += 10
        self.usage.completion_tokens += 5
        self.requests.append(request)
        return self.reply


def test_split_custom_instruction_uses_the_llm(memory, db):
    llm = _PartsLLM(json.dumps({"parts": ["cats purr", "dogs bark"]}))
    m = memory(llm=llm)
    m.encode("Cats purr and dogs bark.")
    result = m.split("1", strategy="custom", instruction="one part per animal")
    assert result.success and result.stats.llm_calls == 1 and result.stats.llm_tokens == 15
    assert [db.record(m, i).text for i in result.data["children"]["1"]] == ["cats purr", "dogs bark"]
    assert "one part per animal" in llm.requests[0].messages[0].content


def test_split_custom_with_an_unusable_llm_reply_falls_back(memory, db):
    m = memory(llm=_PartsLLM("not json"))
    m.encode("Cats purr. Dogs bark.")
    result = m.split("1", strategy="custom", instruction="one part per animal")
    assert result.success
    assert [db.record(m, i).text for i in result.data["children"]["1"]] == ["Cats purr.", "Dogs bark."]


def test_split_without_inherit_all(m, db):
    m.encode(
        "Alpha one. Beta two.", tags=["t"], facets={"topic": "s"}, weight=0.9, category="a2p:professional"
    )
    result = m.execute({"op": "Split", "target": {"ids": ["1"]}, "args": {"inherit_all": False}})
    assert result.success
    for i in ("2", "3"):
        child = db.record(m, i)
        assert child.tags == [] and child.facets == {} and child.weight == 0.5 and child.category is None
    assert db.links(m) == {("2", "1", "split_from"), ("3", "1", "split_from")}


def test_split_inherits_permissions_and_a2p_fields(m, db):
    m.encode("Alpha one. Beta two.", sensitivity="sensitive", memory_type="episodic", read_whitelist=["bob"])
    m.split("1")
    child = db.record(m, "2")
    assert child.sensitivity == "sensitive" and child.memory_type == "episodic"
    assert child.read_whitelist == ["bob"]


def test_split_of_a_single_part_still_yields_one_child(m, db, warned):
    # DESIGN §5: parent -> at least one child record; the parent is archived
    m.encode("Only one sentence here", tags=["t"])
    result = m.split("1")
    assert result.success and result.affected_ids == ["1", "2"] and result.data == {"children": {"1": ["2"]}}
    assert warned(result) == ["split.nothing"]
    assert db.record(m, "1").status == "archived"
    child = db.record(m, "2")
    assert child.text == "Only one sentence here" and child.tags == ["t"] and child.status == "active"
    assert db.links(m) == {("2", "1", "split_from")}


def test_split_is_audited(m):
    m.encode("Alpha one. Beta two.")
    m.split("1")
    assert [(e["op"], e["change"]) for e in m.history("1")] == [("Encode", "insert"), ("Split", "update")]
    assert m.history("1")[-1]["after"]["status"] == "archived"
    assert [(e["op"], e["change"]) for e in m.history("2")] == [("Split", "insert"), ("Split", "link")]


def test_splitting_an_already_split_record_creates_no_second_set_of_children(m, db):
    m.encode("Alpha one. Beta two.")
    m.split("1")
    m.split("1")
    assert db.ids(m) == ["1", "2", "3"]


@pytest.mark.parametrize(
    "args",
    [
        {"strategy": "custom"},
        {"strategy": "custom", "params": {"custom": {"max_splits": 3}}},
        {"strategy": "by_sentences", "params": {"by_chunks": {"num_chunks": 2}}},
    ],
    ids=["custom-no-params", "custom-no-how", "params-of-another-strategy"],
)
def test_split_params_validation(m, rules, args):
    m.encode("Alpha one. Beta two.")
    result = m.execute({"op": "Split", "target": {"ids": ["1"]}, "args": args})
    assert not result.success and rules(result) == ["split.params"]


@pytest.mark.parametrize("mode", ["read_only", "append_only"])
def test_split_refused_on_a_locked_record(m, db, rules, mode):
    m.encode("Alpha one. Beta two.")
    m.lock("1", mode=mode)
    result = m.split("1")
    assert not result.success and rules(result) == ["governance.locked"]
    assert db.ids(m) == ["1"] and db.record(m, "1").status == "active"


def test_split_refused_on_a_deleted_record(m, db, rules):
    m.encode("Alpha one. Beta two.")
    m.delete("1")
    assert rules(m.split("1")) == ["governance.target_state"]
    assert db.ids(m) == ["1"]
