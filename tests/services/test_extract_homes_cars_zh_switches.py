"""Chinese homes and cars said in more ways (住不惯 is no home; 在杭州租房住; 新车到了！蔚来ET5; 现在开理想L7;
开的是一台卡罗拉), sums of ten thousands (1万5), an allergy denied (对花生不过敏), a surname that is no name
(阿姨姓刘), and a drink switched to without a subject ("switched to a cortado lately") — patterns_zh.py,
owned.py, values_zh.py, value_shapes.py, sums.py, swaps.py."""

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


@pytest.mark.parametrize("text, salary", [("我月薪1万5", "1万5"), ("月薪2万3", "2万3"), ("月薪2.5万", 25000)])
def test_ten_thousands_with_a_thousands_figure(text, salary):
    assert ("小林", "salary", salary) in facts(text, speaker="小林")


def test_amount_of_ten_thousands():
    from memql.cognition.conversation.stale_forms import value_forms
    from memql.services.extract.sums import amount

    assert (amount("1万5"), amount("1万"), amount("2.5万")) == (15000, 10000, 25000)
    assert {"15000", "15,000", "一万五", "1.5万"} <= value_forms("1万5")


def test_not_allergic_in_chinese_ends_the_allergy():
    said = facts_of_turns(("小林", "我对花生过敏"), ("小林", "医生说其实我对花生不过敏"))
    assert ("小林", "allergy.花生", False) in said


def test_a_surname_is_no_name():
    said = facts("我们家阿姨姓刘", speaker="小林")
    assert not [f for f in said if f[0] == "姓刘"]
