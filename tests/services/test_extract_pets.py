"""A pet's name given and changed (services/extract/pets.py)."""

from __future__ import annotations

import pytest
from extract_helpers import own

ME = "Mira"


@pytest.mark.parametrize(
    "text, recent, expected",
    [
        ("WE GOT A KITTEN 🐱 shes a tiny grey thing, we named her Biscuit", (),
         {(ME, "kitten.name", "Biscuit")}),
        ("so shes Mochi now, vet records updated", ("we got a kitten, we named her Biscuit",),
         {(ME, "kitten.name", "Mochi")}),
        ("今天领养了一只小橘猫!!! 取名叫年糕 🐱", (), {(ME, "cat.name", "年糕")}),
        ("吵了半天最后改叫汤圆了", ("今天领养了一只小橘猫 取名叫年糕",), {(ME, "cat.name", "汤圆")}),
        # introduced by its name after it was adopted (the kind by its emoji), renamed "officially"
        ("GUYS. i adopted her. meet pickle 🐱🐱", (), {(ME, "cat.name", "pickle")}),
        ("we got a kitten! meet biscuit", (), {(ME, "kitten.name", "biscuit")}),
        ("its officially mochi now", ("i adopted her. meet pickle 🐱",), {(ME, "cat.name", "mochi")}),
    ],
)  # fmt: skip
def test_a_pet_named_and_renamed(text, recent, expected):
    assert expected <= own(text, recent)


@pytest.mark.parametrize(
    "text, recent",
    [
        ("we named her Biscuit", ()),  # no pet named: a baby, a boat … not guessed
        ("she's Maria now", ()),  # no pet name held: nothing to rename
        ("so shes Mochi now", ("my dog's name is Rex", "my cat's name is Biscuit")),  # two held: no guess
        ("hey. meet john, my new coworker", ()),  # no pet adopted
        ("she's officially spayed now", ("i adopted her. meet pickle 🐱",)),  # a state, not a name
    ],
)
def test_no_pet_name_where_the_words_do_not_say_whose(text, recent):
    assert not any(v in ("Biscuit", "Maria", "Mochi") for _, k, v in own(text, recent) if k.endswith(".name"))
