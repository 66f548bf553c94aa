"""Chinese homes and cars said in more ways (住不惯 is no home; 在杭州租房住; 新车到了！蔚来ET5; 现在开理想L7;
开的是一台卡罗拉) and a drink switched to, said without a subject ("switched to a cortado lately") —
patterns_zh.py, owned.py, values_zh.py, swaps.py."""

from __future__ import annotations

import pytest
from extract_helpers import facts, facts_of_turns


@pytest.mark.parametrize(
    "text, home",
    [("我在杭州租房住", "杭州"), ("住不惯，搬去深圳了", "深圳"), ("我住在天河", "天河")],
)
def test_a_home_in_chinese(text, home):
    homes = {v for _, a, v in facts(text, speaker="宋佳") if a == "residence"}
    assert homes == {home}


@pytest.mark.parametrize(
    "text, car",
    [
        ("新车到了！蔚来ET5", "蔚来ET5"),
        ("ET5卖了，现在开理想L7", "理想L7"),
        ("我开的是一台卡罗拉", "卡罗拉"),
    ],
)
def test_a_car_in_chinese_with_its_make(text, car):
    assert ("张伟", "car", car) in facts(text, speaker="张伟")


@pytest.mark.parametrize("text", ["我想开一家店", "我哥开理想L7"])
def test_no_car_of_the_speaker(text):
    assert not [f for f in facts(text, speaker="张伟") if f[:2] == ("张伟", "car")]


def test_a_drink_switched_to_without_a_subject():
    said = facts_of_turns(
        ("Kate", "my usual coffee order is an oat latte"), ("Kate", "switched to a cortado lately")
    )
    assert ("Kate", "coffee_order", "cortado") in said
