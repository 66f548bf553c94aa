"""The value a change names as the one it ends ("left Boise for Denver", 从上海搬到杭州) is history in a
context from the change on, though no earlier message made it a fact; before the change it is no
history; the delta carries its words (FactCandidate.replaces), on both backends."""

from __future__ import annotations

from datetime import UTC, datetime

from conversation_helpers import conversation

from memql.bench.state import outside_history


def test_a_value_a_change_names_as_ended_is_history_from_the_change(memory):
    m = memory(actor="Ellie", embedder="none")
    conv = conversation(
        m,
        [
            ("user", "my sister keeps bragging about the sunshine there lol", "2026-02-10T03:00:00Z"),
            ("user", "guess what my sister moved, she left boise for denver lol", "2026-05-22T22:00:00Z"),
            ("assistant", "Two moves in one family! Is she liking Denver?", "2026-05-22T22:00:01Z"),
        ],
    )
    (fact,) = m.facts.history("Ellie's sister", "residence").facts
    assert fact.value == "Denver"  # no fact of Boise is made up: only its words are kept
    now = conv.context("where does my sister live now?", budget_tokens=300).text
    assert "Denver" in outside_history(now)
    assert "boise" in now.casefold() and "boise" not in outside_history(now).casefold()
    may = datetime(2026, 5, 1, tzinfo=UTC)
    before = conv.context("where does my sister live?", budget_tokens=300, as_of=may).text
    assert "denver" not in outside_history(before).casefold()


def test_a_rent_raised_from_one_sum_to_another_in_chinese(memory):
    m = memory(actor="阿杰", embedder="none")
    conv = conversation(
        m,
        [
            ("user", "我真的会谢，房东又要涨租 这个一室户从5800涨到6300", "2026-03-03T13:10:00Z"),
            ("assistant", "一下涨500确实有点狠。", "2026-03-03T13:10:01Z"),
        ],
    )
    assert [f.value for f in m.facts.history("阿杰", "rent").facts] == ["6300"]
    text = conv.context("阿杰现在房租多少？", budget_tokens=300).text
    assert "6300" in outside_history(text) and "5800" not in outside_history(text)
