"""The one sum of money of a message that names one key of money and states nothing else is that key's,
the speaker's (services/extract/answers._keyed_by_topic); never a sum said of someone else, never one of
two sums; and a bargain's final amount is the new value (replacements._SETTLED)."""

from __future__ import annotations

import pytest
from extract_helpers import own

ME = "Mira"


@pytest.mark.parametrize(
    "text, expected",
    [
        (
            "rent is killing me. $1,850 for a 1br in astoria and the radiator bangs all night",
            (ME, "rent", "$1,850"),
        ),
        ("my rent? $1,450 lol", (ME, "rent", "$1,450")),
        ("salary talk today, they offered $95k base", (ME, "salary", "$95k")),
        ("my base is 95k", (ME, "salary", "95k")),  # thousands without a sign are a sum
        # a bare number is a sum by the period it is paid for, after the clause naming the key
        ("又到交房租的日子 3200一个月 押一付三 肉疼", (ME, "rent", "3200")),
        ("房租3200一个月", (ME, "rent", 3200)),
    ],
)
def test_the_one_sum_of_a_message_naming_one_key_of_money_is_that_keys(text, expected):
    assert own(text) == {expected}


def test_a_fact_of_another_key_beside_the_sum_leaves_the_sum_to_its_key():
    assert own("got the offer from Brightwell!!! 72k base") == {
        (ME, "employer", "Brightwell"),
        (ME, "salary", "72k"),
    }
    # a race or steps counted in thousands are no sum
    assert not {f for f in own("base pace for the 10k steps challenge, 12k steps today") if f[1] == "salary"}


@pytest.mark.parametrize(
    "text",
    [
        "my friend jas pays $2100 in greenpoint, her rent is nuts",  # someone else's
        "$1,850 for the apartment plus $200 parking, rent here is brutal",  # two sums: which is the rent?
        "Jas pays $2,100 rent in greenpoint",
        "the weather was nice and lunch was $14",  # no key of money named
        # "pay" as a verb names no salary
        "my landlord STILL hasnt fixed the radiator. i pay $1,850 a month to wear a coat indoors",
    ],
)
def test_no_key_of_money_from_another_or_from_two_sums(text):
    assert not {f for f in own(text) if f[1] in ("rent", "salary", "budget")}


def test_a_bargains_final_amount_is_the_new_value():
    said = own(
        "renewal came in. they wanted 2,050, i pushed back with comps and we landed at 1,975",
        ("my rent is 1850",),
    )
    assert said == {(ME, "rent", "1,975")}


def test_a_sum_said_as_the_price_of_another_thing_replaces_no_amount():
    held = ("my CR-V lease is up aug 31. paying $389/mo",)
    assert not own("electrician came today, $1,150 for the outlet but i can charge overnight now", held)
    # a sum said as a value's new level still moves it, whatever it is for
    assert own("they raised it to $2,000 for the new lease", ("my rent is $1,900",)) == {
        (ME, "rent", "$2,000")
    }
    assert own("they knocked it down to $450 for the whole thing", ("ok the price is $500",)) == {
        (ME, "price", "$450")
    }
