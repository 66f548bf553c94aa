"""The offline rule extractor on English, generalised constructions: a home somewhere, new contact
details, changes of status and new values, corrections after filler clauses, conditional plans and the
dates of the speaker's events — each with the sentences that must give no such fact."""

from __future__ import annotations

import pytest
from extract_helpers import facts, own


@pytest.mark.parametrize(
    "text, city",
    [
        ("We rent a flat in Berlin.", "Berlin"),
        ("I'm renting an apartment in Porto these days.", "Porto"),
        ("We bought a small house near Lyon.", "Lyon"),
        ("Big news: we moved to Lisbon at the start of the month!", "Lisbon"),
        ("Great news, I've moved to Seville.", "Seville"),
    ],
)
def test_a_home_somewhere_is_a_residence(text, city):
    assert own(text) == {("Mira", "residence", city)}


@pytest.mark.parametrize(
    "text",
    [
        "Do you rent a flat in Berlin?",
        "If we rent a flat in Berlin, we'll need a bike.",
        "My sister rents a flat in Berlin.",
        "We would rent a flat in Berlin.",
    ],
)
def test_a_home_not_the_speakers_or_not_real_is_no_residence_of_the_speaker(text):
    assert ("Mira", "residence", "Berlin") not in facts(text)


@pytest.mark.parametrize(
    "text, key, value",
    [
        ("I got a new number, it's 415-555-0199.", "phone", "415-555-0199"),
        ("I have a new email: mira@studio.com", "email", "mira@studio.com"),
        ("Please use mira@studio.com from now on.", "email", "mira@studio.com"),
        ("Reach me at +351 912 345 678 while I'm away.", "phone", "+351 912 345 678"),
        ("Email me at mira@studio.com instead.", "email", "mira@studio.com"),
        ("My phone number is 415-555-0132 if the courier needs it.", "phone", "415-555-0132"),
    ],
)
def test_new_contact_details(text, key, value):
    assert own(text) == {("Mira", key, value)}


@pytest.mark.parametrize(
    "text",
    [
        "I got a new bike, it's red.",  # no attribute of the speaker the vocabulary knows
        "Should I use mira@studio.com?",
        "Do you have a new number?",
    ],
)
def test_new_things_that_are_no_contact_give_no_fact(text):
    assert not {t for t in own(text) if t[1] in ("phone", "email")}


@pytest.mark.parametrize(
    "text, key, value",
    [
        ("I've gone fully vegan since June.", "diet", "vegan"),
        ("I went vegetarian last year.", "diet", "vegetarian"),
        ("I've become completely gluten-free.", "diet", "gluten-free"),
        ("I got promoted, I'm a senior designer now!", "job_title", "senior designer"),
        ("My new goal is 58 minutes.", "goal", "58 minutes"),
    ],
)
def test_changes_of_status_and_new_values(text, key, value):
    assert (("Mira", key, value)) in own(text)


@pytest.mark.parametrize(
    "text", ["Have you gone vegan?", "My brother has gone vegan.", "I might go vegan.", "I'm not vegan."]
)
def test_status_of_others_questions_and_maybes_are_not_the_speakers(text):
    assert ("Mira", "diet", "vegan") not in facts(text)


@pytest.mark.parametrize(
    "text",
    [
        "Actually no, I checked the card, it's March 24.",
        "Sorry, I misread it, it's March 24.",
        "Wait, I looked again, it is March 24.",
    ],
)
def test_a_correction_after_filler_clauses_binds_to_the_earlier_fact(text):
    recent = ("The dentist appointment is on March 18.",)
    assert ("Mira", "dentist.appointment", "2026-03-24") in facts(text, recent)


def test_a_later_clause_after_a_comma_states_a_definite_attribute():
    text = "They extended it again, the passport deadline is now August 5."
    assert own(text) == {("Mira", "passport.deadline", "2026-08-05")}


@pytest.mark.parametrize(
    "text", ["I'm moving to Lisbon if I get the job.", "I would live in Paris if I could."]
)
def test_a_plan_or_wish_with_a_trailing_condition_stays_conditional(text):
    assert not {t for t in own(text) if t[1] == "residence"}


@pytest.mark.parametrize(
    "text, key, value",
    [
        ("The contract signing is next Friday.", "contract_signing", "2026-03-06"),
        ("The party is on Saturday.", "party", "2026-03-07"),
        ("The final exam is on March 20.", "final_exam", "2026-03-20"),
    ],
)
def test_the_date_of_an_event_of_the_speakers(text, key, value):
    assert own(text) == {("Mira", key, value)}


@pytest.mark.parametrize(
    "text",
    ["The weather is nice today.", "Is the party on Saturday?", "If the party is on Saturday, I will come."],
)
def test_no_event_date_without_a_date_or_when_asked_or_supposed(text):
    assert own(text) == set()


@pytest.mark.parametrize(
    "text, fact",
    [
        ("my wife Sun-hee is a resident at Mercy General", ("Sun-hee", "employer", "Mercy General")),
        ("my friend Jean-Luc lives in Paris", ("Jean-Luc", "residence", "Paris")),
        ("Mary-Kate works at Google now", ("Mary-Kate", "employer", "Google")),
    ],
)
def test_a_hyphenated_given_name_is_one_name(text, fact):
    assert fact in facts(text)
