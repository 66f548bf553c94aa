"""Whom one works for, said casually: a supervisor named in lower case before what they do
(casual.capitalised_managers), "X is my boss now", "she's my boss now" after a 1:1 with someone named in
lower case; a word of manner after the role is no name."""

from __future__ import annotations

import pytest
from extract_helpers import facts_of_turns, own


@pytest.mark.parametrize(
    "text, expected",
    [
        ("on break. my supervisor derek wants everybody doing OT saturday", ("Mira", "manager", "Derek")),
        ("Dana is my boss now", ("Mira", "manager", "Dana")),
        ("Tom is my supervisor now", ("Mira", "manager", "Tom")),
    ],
)
def test_ones_manager_said_casually(text, expected):
    assert expected in own(text)


@pytest.mark.parametrize("text", ["my boss always says no", "my supervisor really wants us there"])
def test_a_word_of_manner_after_the_role_is_no_name(text):
    assert not any(attribute == "manager" for _, attribute, _ in own(text))


def test_she_after_a_one_on_one_with_someone_named_in_lower_case():
    turns = (
        ("Kwame", "on break. my supervisor derek wants everybody doing OT saturday"),
        ("Kwame", "had my first 1:1 with sandra oyelaran today. shift leads report to the ops manager so "
                  "she's my boss now"),
    )  # fmt: skip
    assert ("Kwame", "manager", "Sandra Oyelaran") in facts_of_turns(*turns)
