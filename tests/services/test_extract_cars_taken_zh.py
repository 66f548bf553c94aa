"""The car a Chinese message says the speaker took or put money down on, when it names one car
(owned.py); 一…就 after a relative is no name (patterns_zh.py)."""

from __future__ import annotations

import pytest
from extract_helpers import facts_of_turns


@pytest.mark.parametrize(
    "text, car",
    [
        ("定了！Model Y，交了定金，说五月中提车", "Model Y"),
        ("周末试驾了理想L6，家里有娃还是空间大点好。直接提的现车 今天已经开回家了🚗", "理想L6"),
        ("对比了Model Y和理想L6，最后提了理想L6", "理想L6"),
    ],
)
def test_the_one_car_a_message_says_was_taken(text, car):
    assert ("大伟", "car", car) in facts_of_turns(("大伟", text))


@pytest.mark.parametrize(
    "text",
    [
        "我反悔了哈哈哈 Model Y定金退了",  # the deposit went back
        "试驾了Model Y和理想L6，还没提车",  # two cars, none taken yet
        "我哥提了辆比亚迪汉",  # the brother's
    ],
)
def test_no_car_of_the_speaker_when_none_was_taken(text):
    assert not [f for f in facts_of_turns(("大伟", text)) if f[:2] == ("大伟", "car")]


def test_yi_jiu_after_a_relative_is_no_name():
    said = facts_of_turns(("大伟", "试驾那天我老婆一坐上去就不下来了"))
    assert not [f for f in said if f[1] == "wife" or f[0] == "一"]
