"""Cars by a make written in lower case, pet names given in lower case and renamed, a weigh-in with its
time between, a city left for another (owned.py, makes.py, pets.py, patterns_en.py, places_en.py)."""

from __future__ import annotations

import pytest
from extract_helpers import facts_of_turns


@pytest.mark.parametrize(
    "text, expected",
    [
        ("traded the civic in and got a used mazda cx-5, 2021, grey", ("Leon", "car", "mazda cx-5")),
        ("just got a new Honda Civic", ("Leon", "car", "Honda Civic")),
        ("got a tesla model 3 lol", ("Leon", "car", "tesla model 3")),
        ("weighed in this morning, 82.4 kg. goal is 75 by summer", ("Leon", "weight", "82.4 kg")),
        ("I left boise for denver", ("Leon", "residence", "Denver")),
        ("I left Google for Stripe", ("Leon", "employer", "Stripe")),
    ],
)  # fmt: skip
def test_cars_weighins_and_cities_left_for(text, expected):
    assert expected in facts_of_turns(("Leon", text))


@pytest.mark.parametrize(
    "text",
    ["my brother's borrowing the mazda this weekend", "my sister got a new kia", "got flowers for victoria"],
)
def test_no_car_or_home_of_someone_else_or_a_person_after_for(text):
    assert not any(a in ("car", "residence") for _, a, _ in facts_of_turns(("Leon", text)))


def test_a_pet_named_in_lower_case_then_renamed():
    named = ("Dani", "WE GOT A CAT 🐈 orange tabby from the shelter, 2 yrs old. we're calling him biscuit")
    assert ("Dani", "cat.name", "biscuit") in facts_of_turns(named)
    renamed = ("Dani", "small update, the cat has been renamed. apparently he's captain mochi now")
    assert ("Dani", "cat.name", "captain mochi") in facts_of_turns(named, renamed)


@pytest.mark.parametrize(
    "text", ["my cat is sick so I called him back later", "my dog bit me so I called him lazy"]
)
def test_a_word_after_called_him_is_no_name_unless_we_give_it(text):
    assert not any(a.endswith(".name") for _, a, _ in facts_of_turns(("Dani", text)))


@pytest.mark.parametrize("text", ["im a senior engineer rn", "I'm a senior engineer right now"])
def test_a_title_said_of_right_now(text):
    assert ("Mei", "job_title", "senior engineer") in facts_of_turns(("Mei", text))


def test_a_partner_named_in_the_message_that_says_one_is_seeing_someone():
    said = ("Riley", "so i've been seeing someone 👀 her name is jordan, we met at my friends pottery class")
    assert ("Riley", "partner", "Jordan") in facts_of_turns(said)
    assert not any(a == "partner" for _, a, _ in facts_of_turns(("Riley", "the landlord? his name is Dev")))
