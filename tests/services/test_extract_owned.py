"""A phone or a car one now has, known by its make (services/extract/owned.py, makes.py)."""

from __future__ import annotations

import pytest
from extract_helpers import own

ME = "Mira"


@pytest.mark.parametrize(
    "text, recent, expected",
    [
        ("went android finally, got a pixel 9. my wife grabbed the iPhone 16 on the same trip lol", (),
         {(ME, "phone", "pixel 9")}),
        ("I got a new iPhone 16.", (), {(ME, "phone", "iPhone 16")}),
        ("my iphone 12 battery dies by 3pm every day.", (), {(ME, "phone", "iphone 12")}),
        ("买了小米14，拍照挺好的", (), {(ME, "phone", "小米14")}),
        ("还是用不惯，挂闲鱼卖了，昨天入了华为Mate 60，鸿蒙还挺顺手", (), {(ME, "phone", "华为Mate 60")}),
        ("提车啦！比亚迪汉，纯电的", (), {(ME, "car", "比亚迪汉")}),
        ("我那台卡罗拉开了7年了", (), {(ME, "car", "卡罗拉")}),
        # a model named without its make, in any case
        ("my civic wont start again, third time this month", (), {(ME, "car", "civic")}),
        ("so glad i went w the cx-5 over the rav4", (), {(ME, "car", "cx-5")}),
        ("we bought a used RAV4 last week", (), {(ME, "car", "RAV4")}),
        # a verb of driving, a clause of one's own before "and", a label before "my"
        ("i drive a civic", (), {(ME, "car", "civic")}),
        ("went to the dealer to 'just look' and drove out in an ioniq 5 😅", (), {(ME, "car", "ioniq 5")}),
        ("reminder to self basically: my CR-V lease is up aug 31", (), {(ME, "car", "CR-V")}),
        # driving it, the speaker unsaid; a word of time after the model is no part of it
        ("late shift tonight, driving the prius til 4am", (), {(ME, "car", "prius")}),
    ],
)  # fmt: skip
def test_a_phone_or_a_car_the_speaker_got_or_has(text, recent, expected):
    assert own(text, recent) == expected


@pytest.mark.parametrize(
    "text, recent",
    [
        ("got a mini fridge for the dorm", ()),  # a make's word in lower case, no model: no car
        ("我加入了小米。", ()),  # joined: an employer, not a phone
        ("他上个月换成理想了。", ("我老公开的是宝马。",)),  # his car, not the speaker's
        ("I swapped my Honda for a Mazda.", ("Mine is a Honda.",)),  # the swap's, not a Honda had now
        ("my dad still thinks i shouldve gotten a rav4 like his", ()),  # a car not got
        ("my sister went and got a civic", ()),  # the sister's
        ("sold my civic last week", ()),  # parted with, not had
        ("i drive a lot for work", ()),
    ],
)
def test_no_phone_or_car_of_the_speaker_where_the_words_say_otherwise(text, recent):
    got = own(text, recent)
    assert not any(s == ME and k == "phone" for s, k, _ in got)
    assert not {(ME, "car", "Honda"), (ME, "car", "理想"), (ME, "car", "理想了"), (ME, "car", "rav4")} & got
