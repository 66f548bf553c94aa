"""A year that describes a thing dates no fact (times_found.py); a café order under one key however it is
named, and the drink one switches to (vocabulary_words.py, patterns_en.py)."""

from __future__ import annotations

import pytest
from extract_helpers import NOW, extract, facts, facts_of_turns


@pytest.mark.parametrize(
    "text",
    [
        "traded the civic in and got a used mazda cx-5, 2021, grey",
        "my civic is making a grinding noise. 2014, 160k miles",
    ],
)
def test_a_model_year_is_no_time_the_fact_began(text):
    (fact,) = [f for f in extract(text).facts if f.attribute == "car"]
    assert fact.valid_from == NOW


def test_a_year_after_a_preposition_still_dates_the_fact():
    (fact,) = extract("I moved to Lisbon in 2019").facts
    assert (fact.attribute, fact.valid_from.year) == ("residence", 2019)


@pytest.mark.parametrize(
    "text, value",
    [
        ("my usual coffee order is an oat flat white", "oat flat white"),
        ("my go-to order is a large oat flat white", "large oat flat white"),
        ("my usual coffee is a cortado", "cortado"),
        ("switched my coffee order to a cortado", "cortado"),
        ("I've switched to oat lattes now", "oat lattes"),
        ("im switching to matcha", "matcha"),
    ],
)
def test_a_cafe_order_is_one_key_however_named(text, value):
    assert ("Mira", "coffee_order", value) in facts(text)


def test_a_switch_to_a_new_drink_replaces_the_order():
    said = facts_of_turns(("Aisha", "my go-to order is a flat white"), ("Aisha", "im switching to matcha"))
    assert ("Aisha", "coffee_order", "matcha") in said


@pytest.mark.parametrize(
    "text", ["my Amazon order is late", "my order arrived", "the order is confirmed", "my coffee is cold"]
)
def test_an_order_that_is_no_drink_is_no_cafe_order(text):
    assert not any(a == "coffee_order" for _, a, _ in facts(text))
