"""From conversation to context: a day moved by an amount ("pushed back two days") and a time that recurs
corrected ("it's at 3pm") lead with the current value; the old one shows only as history or as of then."""

from __future__ import annotations

from conversation_helpers import conversation, current


def test_a_day_pushed_back_by_an_amount_is_the_current_one(memory):
    m = memory(actor="sam")
    conv = conversation(
        m,
        [
            ("user", "My sister Lina flies in next Wednesday!", "2026-06-04T09:00:00Z"),
            ("assistant", "Exciting!", "2026-06-04T09:00:05Z"),
            ("user", "Lina's flight got pushed back two days.", "2026-06-06T09:00:00Z"),
        ],
    )
    text = conv.context("When does Lina arrive?", budget_tokens=300).text
    assert "June 12" in current(text) and "2026-06-10" not in current(text)
    then = conv.context("When does Lina arrive?", budget_tokens=300, as_of="2026-06-05T00:00:00Z").text
    assert "2026-06-10" in then and "June 12" not in then


def test_a_weekly_lesson_corrected_to_another_time(memory):
    m = memory(actor="amy")
    conv = conversation(
        m,
        [
            ("user", "My daughter's piano lesson is every Saturday at 10am.", "2026-02-07T09:00:00Z"),
            ("user", "Sorry, I misremembered, it's at 3pm.", "2026-02-07T20:00:00Z"),
        ],
    )
    text = conv.context("When is the piano lesson?", budget_tokens=300).text
    assert "3pm" in current(text) and "10am" not in current(text)


def test_a_question_about_one_relative_brings_no_new_value_of_another(memory):
    """The parents' old home is shown (a line about homes) and labelled; their new one is not brought in
    for a question about the in-laws, as it is for one about the parents."""
    m = memory(actor="jen", embedder="none")
    conv = conversation(
        m,
        [
            ("user", "My parents live in Ohio.", "2026-02-14T09:00:00Z"),
            ("user", "My in-laws live in Florida.", "2026-02-14T09:01:00Z"),
            ("user", "My parents sold their house and moved to Arizona.", "2026-07-14T09:00:00Z"),
        ],
    )
    parents = conv.context("Where do my parents live?", budget_tokens=300).text
    assert "jen's parents' residence: Arizona" in parents and "Ohio" not in current(parents)
    in_laws = conv.context("Where do my in-laws live?", budget_tokens=300).text
    assert "jen's in laws' residence: Florida" in in_laws
    assert "residence: Arizona" not in in_laws
