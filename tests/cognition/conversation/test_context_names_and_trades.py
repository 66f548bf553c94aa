"""A context for a question that names a person leads with that person's facts, not another named one's
whose attribute only shares a word (formation.fact_pieces); a thing traded in (把思域置换了) is history in
the message that replaced it (superseded.ending_clauses_last)."""

from __future__ import annotations

from conversation_helpers import conversation


def test_a_fact_of_another_named_person_does_not_answer_for_the_one_named(memory):
    m = memory(actor="Eli", embedder="none")
    conv = conversation(
        m,
        [
            ("user", "Our team lead is Priya.", "2026-05-01T09:00:00Z"),
            ("user", "Priya moved to the infra team, so Marcus is our lead now.", "2026-09-01T09:00:00Z"),
        ],
    )
    text = conv.context("Who is Eli's team lead?", budget_tokens=300).text
    assert "Eli's team lead: Marcus" in text
    assert "Priya's team" not in text  # Priya's own fact: the query asks of Eli
    # asked of Priya, her fact leads
    assert "Priya's team: infra team" in conv.context("Which team is Priya on?", budget_tokens=300).text


def test_a_car_traded_in_is_history_in_the_message_that_replaced_it(memory):
    m = memory(actor="小伊", embedder="none")
    conv = conversation(
        m,
        [
            ("user", "我开的是一辆15年的思域。", "2026-01-03T09:00:00Z"),
            ("user", "把思域置换了，换了台RAV4双擎。", "2026-04-03T09:00:00Z"),
        ],
    )
    text = conv.context("小伊开什么车？", budget_tokens=300).text
    assert "小伊's car: RAV4双擎" in text
    current = [line for line in text.splitlines() if "思域" in line]
    assert current and all(line.startswith("until ") or "history: 把思域置换了" in line for line in current)


def test_a_month_value_is_said_as_a_month_and_the_message_that_said_it_is_history(memory):
    m = memory(actor="Nat", embedder="none")
    conv = conversation(
        m,
        [
            ("user", "We're getting married next June.", "2026-07-14T09:00:00Z"),
            ("user", "We moved the wedding up to this December!", "2026-09-14T09:00:00Z"),
        ],
    )
    text = conv.context("When is Nat's wedding?", budget_tokens=300).text
    assert "Nat's wedding: December 2026 (2026-12)" in text
    said = next(line for line in text.splitlines() if "getting married next June" in line)
    assert said.startswith("until 2026-09-14: ")  # "June" in the message that stated June 2027
    zh = memory(actor="小娜", embedder="none")
    conv = conversation(
        zh,
        [
            ("user", "我们明年六月结婚。", "2026-07-14T09:00:00Z"),
            ("user", "婚期提前到今年12月了！", "2026-09-14T09:00:00Z"),
        ],
    )
    text = conv.context("小娜什么时候结婚？", budget_tokens=300).text
    assert "2026年12月 (2026-12)" in text
    said = next(line for line in text.splitlines() if "明年六月结婚" in line)
    assert said.startswith("until 2026-09-14: ")


def test_a_day_line_is_never_labelled_by_a_stale_day_its_year_begins_like(memory):
    # "jun 20" (a stale June 20) is no part of "12 Jun 2026:": the day lines stay as they are
    m = memory(actor="Zed", embedder="none")
    conv = conversation(
        m,
        [
            ("user", "The recital is Jun 20.", "2026-06-09T09:00:00Z"),
            ("user", "Recital moved to Jun 27.", "2026-06-12T09:00:00Z"),
        ],
    )
    lines = conv.context("When is Zed's recital?", budget_tokens=300).text.splitlines()
    assert "9 Jun 2026:" in lines and "12 Jun 2026:" in lines
    assert any(line.startswith("until 2026-06-12: ") and "The recital is Jun 20." in line for line in lines)
    assert any(
        line.endswith("Zed: Recital moved to Jun 27.") and not line.startswith("until") for line in lines
    )


def test_a_titled_name_ended_in_a_clause_is_history_in_the_message_that_replaced_it(memory):
    m = memory(actor="Abe", embedder="none")
    conv = conversation(
        m,
        [
            ("user", "Our pediatric dentist is Dr. Fox in Maple Grove.", "2026-01-20T09:00:00Z"),
            ("user", "We left Dr. Fox, the kids see Dr. Lam in Plymouth now.", "2026-06-20T09:00:00Z"),
        ],
    )
    text = conv.context("Who is the dentist of Abe's kids?", budget_tokens=300).text
    assert "the kids see Dr. Lam in Plymouth now. — history: We left Dr. Fox," in text


def test_a_change_after_an_emoji_is_read_and_the_one_it_ended_is_history(memory):
    m = memory(actor="Nate", embedder="none")
    conv = conversation(
        m,
        [
            ("user", "my manager Karen wants a self-review by friday.", "2026-01-26T09:00:00Z"),
            (
                "user",
                "Karen left the company 😬 new manager is Omar, from the Boston office.",
                "2026-04-06T09:00:00Z",
            ),
        ],
    )
    text = conv.context("Who is Nate's manager now?", budget_tokens=300).text
    assert "Nate's manager: Omar" in text
    said = [line for line in text.splitlines() if "Karen left the company" in line]
    # the emoji parts the clauses: the one that holds now is never inside the part read as history
    assert said and all("history: Karen left the company 😬 new manager" not in line for line in said)
