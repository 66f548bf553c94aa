"""A bargain settled in bare numbers moves a held sum (sums.as_sum), the agent saying a held name
by its first word is no change (rules._shortened), "Dana's your manager" names Dana for a later "she"
(rules_en._people); a sum by its period (value_shapes) and sums too far apart to be one thing's
(sums.sums_apart)."""

from __future__ import annotations

import pytest
from extract_helpers import NOW, extract, facts_of_turns

from memql.services.extract.value_shapes import values


def _rent(text: str, recent) -> set[tuple]:
    return {(f.attribute, f.value) for f in extract(text, recent).facts if f.said_in is None}


def test_a_bargain_in_bare_numbers_ends_on_the_last_one():
    recent = ["rent is killing me. $1,850 for a 1br in astoria", ("assistant", "Is your lease up soon?")]
    said = "renewal came in. they wanted 2,050, i pushed back with comps and we landed at 1,975"
    assert _rent(said, recent) == {("rent", "$1,975")}


def test_a_bare_number_far_from_the_held_sum_is_no_sum():
    recent = ["rent is killing me. $1,850 for a 1br in astoria", ("assistant", "Is your lease up soon?")]
    # 12 is no rent of a $1,850 one: neither half nor twice it
    assert ("rent", "$12") not in _rent("they changed the lease to 12 months, we landed at 12", recent)


def test_the_agent_saying_a_held_name_by_its_first_word_changes_nothing():
    turns = (
        ("Tom", "dana's moving over to the platform org. im reporting to raj okonkwo starting monday"),
        ("assistant", "So Raj is your new manager from Monday. How do you feel about Raj?"),
    )
    assert not any(attribute == "manager" for _, attribute, _ in facts_of_turns(*turns))


def test_a_name_before_an_is_with_your_is_a_person_a_later_she_means():
    turns = (
        ("assistant", "Let's fix that. Dana's your manager, right? What do you want to get out of it?"),
        ("Tom", "yeah shes my manager. mainly want to ask about the promo cycle"),
    )
    assert ("Tom", "manager", "Dana") in facts_of_turns(*turns)
    # a possessive is no "is": "Dana's office" names no one for "she"
    turns = (("assistant", "Is Dana's office on 4?"), ("Tom", "yeah shes my manager"))
    assert ("Tom", "manager", "Dana") not in facts_of_turns(*turns)


def test_a_sum_by_its_period_is_cut_before_whom_it_is_paid_to():
    assert _rent("insurance is 142/mo thru state farm too", ()) == {("insurance", "142/mo")}
    # a small count by a period is no sum
    assert not any(attribute == "gym" for attribute, _ in _rent("i go to the gym 3 a month", ()))


def test_a_sum_five_times_apart_is_no_new_value_of_the_held_one():
    recent = [
        "buyout is 17.2k which seems high for 41k miles. insurance is 142/mo thru state farm too",
        ("assistant", "Do you need to update your insurance?"),
    ]
    said = "already did, moved to geico too, cx-5 is $118 a month w them"
    got = {(f.attribute, f.value) for f in extract(said, recent).facts if f.said_in is None}
    assert got == {("insurance", "$118/mo")}  # the insurance's 142, never the buyout's 17.2k


@pytest.mark.parametrize(
    "text, shape",
    [
        ("insurance is 142/mo thru state farm", ("money", "142")),
        ("it is 5.99 a month", ("money", "5.99")),
        ("1,850 per month", ("money", "1,850")),
        ("房租3200一个月", ("money", "3200")),
        # a count by its period is no sum
        ("i go 5 a month", ("number", "5")),
        ("3 times a month", ("number", "3")),
    ],
)
def test_a_sum_by_its_period(text, shape):
    assert shape in [(v.kind, v.value) for v in values(text, NOW)]
