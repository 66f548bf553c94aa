"""The rules planner's safety and its use of the store: clarifications instead of guesses, properties
over generated instructions (always valid, never a guessed delete), tags in use, combinations, negation."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from budgets import examples
from memql.cognition.planner import PlanContext, make_planner
from memql.lang import RULES, validate

NOW = datetime(2026, 3, 4, 10, 0, tzinfo=UTC)
CONTEXT = PlanContext(
    now=NOW,
    tags=("budget", "launch", "meeting", "travel", "预算", "会议", "旅行"),
    recent_ids=("7", "6", "5"),
    types=("note", "task"),
)
PLANNER = make_planner("rules")


def plan(text: str, context: PlanContext = CONTEXT):
    return PLANNER.plan(text, context=context)


# --- clarifications -----------------------------------------------------------------------------------

CLARIFY = [
    ("Delete everything", "target"),
    ("删除所有记录", "target"),
    ("Delete it", "target"),
    ("Delete the notes about the tax return", "target"),
    ("Delete or archive the old notes", "operation"),
    ("Tag the launch notes", "tags"),
    ("Merge record 3", "records"),
    ("Update the budget notes", "value"),
    ("Expire the budget notes", "horizon"),
    ("Do the thing", "operation"),
    ("", "instruction"),
    ("   ", "instruction"),
]


@pytest.mark.parametrize(("text", "missing"), CLARIFY, ids=[t or "empty" for t, _ in CLARIFY])
def test_what_cannot_be_read_safely_asks_instead_of_guessing(text, missing):
    made = plan(text)
    assert made.program is None and not made.ok and made.confidence == 0.0
    assert [d.rule for d in made.diagnostics] == ["plan.clarify"]
    assert made.diagnostics[0].severity == "error"
    assert made.diagnostics[0].message.startswith(f"missing {missing}")


def test_a_delete_without_a_readable_target_never_falls_back_to_a_search_or_the_latest_record():
    for text in ("Delete it", "Delete this", "Remove the document", "Delete the notes about the tax return"):
        assert plan(text).program is None, text
    # the same words for a harmless write do find records
    assert plan("Tag the notes about the tax return as 'tax'").program["target"]["search"]


def test_clarifications_and_plan_rules_are_catalogued():
    for rule in ("plan.clarify", "plan.assumption", "plan.skipped", "plan.needs_confirmation"):
        assert rule in RULES


def test_an_oversized_instruction_is_refused_with_a_diagnostic():
    made = plan("remember " + "x" * 5000)
    assert made.program is None and made.diagnostics[0].message.startswith("missing instruction")


# --- generated instructions -------------------------------------------------------------------------


VOCABULARY = (
    "delete remove tag label save remember find search summarize lock unlock merge split archive expire "
    "promote demote update change the a my notes record 3 and then first it them all everything budget "
    "launch 'x' yesterday last week in 30 days permanently into sentences as urgent priority high of "
    "删除 记录 标记 为 锁定 合并 拆分 先 再 然后 会议 预算 昨天 上周 30天后 过期 提醒我 每周一"
)
WORDS = st.sampled_from(VOCABULARY.split())


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(WORDS, min_size=0, max_size=14).map(" ".join))
def test_any_instruction_gives_a_valid_canonical_plan_or_a_clarification(text):
    made = plan(text)
    if made.program is None:
        assert made.diagnostics and made.diagnostics[0].severity == "error"
        return
    checked = validate(made.program, now=NOW)
    assert checked.valid, (text, checked.diagnostics)
    assert checked.canonical == made.program
    deletes = [s for s in made.program.get("workflow", [made.program]) if s["op"] == "Delete"]
    for step in deletes:  # a delete is never aimed by a guess
        assert "search" not in step["target"]
        assert step["target"] != {"ids": [CONTEXT.recent_ids[0]]} or "7" in text
    if any(s["op"] == "Delete" and not s["args"]["soft"] for s in deletes) or any(
        s["op"] == "Lock" or s.get("target", {}).get("all")
        for s in made.program.get("workflow", [made.program])
    ):
        assert made.destructive and (made.program.get("meta") or {}).get("dry_run") is True


# --- tags in the store --------------------------------------------------------------------------------


def test_tags_no_record_carries_together_narrow_to_a_combination_that_exists():
    text = "Remove the outdated budget estimates from the finance meeting notes"
    tags = ("budget", "finance", "outdated", "meeting")
    combos = (frozenset({"finance", "budget", "meeting"}), frozenset({"outdated", "travel"}))
    narrowed = plan(text, PlanContext(now=NOW, tags=tags, tag_sets=combos))
    assert narrowed.program["target"]["filter"]["has_tags"] == ["budget", "finance", "meeting"]
    as_said = plan(text, PlanContext(now=NOW, tags=tags))  # without the combinations: every tag named
    assert as_said.program["target"]["filter"]["has_tags"] == ["outdated", "budget", "finance", "meeting"]


def test_among_equal_combinations_the_most_specific_wins():
    context = PlanContext(
        now=NOW,
        tags=("meeting", "launch"),
        tag_sets=(frozenset({"meeting"}), frozenset({"meeting", "x"}), frozenset({"launch"})),
    )
    assert plan("Lock the launch meeting notes", context).program["target"]["filter"]["has_tags"] == [
        "launch"
    ]


def test_a_negated_tag_excludes_records():
    context = PlanContext(now=NOW, tags=("budget", "essential"))
    assert plan("Lock all notes except the budget ones", context).program["target"]["filter"] == {
        "not_tags": ["budget"],
        "limit": 100,
    }
    archived = plan("Archive the non-essential notes", context).program
    assert archived["target"]["filter"]["not_tags"] == ["essential"]


def test_tags_match_by_stem_and_spelling():
    context = PlanContext(now=NOW, tags=("test_data", "API Testing", "capacity", "capacity planning"))
    target = plan("Lock the test data about API testing", context).program["target"]["filter"]
    assert target["has_tags"] == ["test_data", "API Testing"]
    longest = plan("Lock the capacity planning notes", context).program["target"]["filter"]
    assert longest["has_tags"] == ["capacity planning"]  # "capacity" inside it is not a second tag
