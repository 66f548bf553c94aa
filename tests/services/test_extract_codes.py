"""Passwords, network names and codes: one word of letters and digits is one value ("M1ssionBay#4",
"Nguyen_5G", never 5 g), a code's label needs no colon, and an amount or a code said of a bare noun is
the speaker's (services/extract: value_shapes, rules_en._label, subjects_en.strong_value)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from extract_helpers import facts_of_turns

from memql.services.extract.value_shapes import values


def read(*turns: tuple[str, str]) -> set[tuple]:
    return facts_of_turns(*turns)


@pytest.mark.parametrize(
    "text, kind, value",
    [
        ("Nguyen_5G", "code", "Nguyen_5G"),
        ("bluemoose88", "code", "bluemoose88"),
        ("M1ssionBay#4", "code", "M1ssionBay#4"),
        ("150lbs", "measure:lb", "150lbs"),  # an amount opens with its number
    ],
)
def test_a_word_of_letters_and_digits_is_one_value(text, kind, value):
    (found,) = values(text, datetime(2026, 3, 2, tzinfo=UTC))
    assert (found.kind, found.value) == (kind, value)


@pytest.mark.parametrize(
    "turns, expected",
    [
        ([("Aaron", "network is Nguyen_5G, password bluemoose88")],
         {("Aaron", "network", "Nguyen_5G"), ("Aaron", "wifi_password", "bluemoose88")}),
        ([("Aaron", "password: hunter22")], {("Aaron", "password", "hunter22")}),
        ([("Aaron", "gate code 4417#")], {("Aaron", "gate_code", "4417#")}),
        ([("Aaron", "my wifi name is CasaNguyen")], {("Aaron", "wifi_network", "CasaNguyen")}),
        ([("Aaron", "the wifi password is M1ssionBay#7"),
          ("Aaron", "wait no sorry its M1ssionBay#4, the 7 was our old apt number lol")],
         {("Aaron", "wifi_password", "M1ssionBay#4")}),
        ([("Aaron", "tech brought a new router. wifi name is CasaNguyen now, password M1ssionBay#7")],
         {("Aaron", "wifi_network", "CasaNguyen"), ("Aaron", "wifi_password", "M1ssionBay#7")}),
        ([("Ben", "deductible is $1,500")], {("Ben", "deductible", "$1,500")}),
        ([("Luis", "plate is 7KJR 221 if u need it for that insurance form later")],
         {("Luis", "plate", "7KJR 221")}),
        ([("Ben", "the deductible is $1,500")], {("Ben", "deductible", "$1,500")}),
    ],
)  # fmt: skip
def test_codes_and_amounts(turns, expected):
    assert read(*turns) == expected


@pytest.mark.parametrize(
    "text",
    ["password reset sucks", "code 2 weeks", "the coffee is great", "network is down", "the network is down"],
)
def test_no_code_where_none_is_said(text):
    assert read(("Aaron", text)) == set()
