"""A train or a flight taken, a seat or a gate, by its number, in Chinese and English
(services/extract/tickets.py), what is no change of a held value (a reminder asked for, a clause read
as a name), and an amount answering a question of a key (answers.py)."""

from __future__ import annotations

import pytest
from extract_helpers import facts_of_turns


def read(*turns: tuple[str, str]) -> set[tuple]:
    return facts_of_turns(*turns, corrections=True)


@pytest.mark.parametrize(
    "turns, expected",
    [
        ([("王丽", "下周五去北京出差，高铁G1234，虹桥早上8点05开")], ("王丽", "train", "G1234", False)),
        ([("马志远", "春节回家的票抢到了！2月14号 D3125 上海到武汉")], ("马志远", "train", "D3125", False)),
        ([("王丽", "高铁G1234"), ("王丽", "嗯 我刚在12306上改签了 改到周五下午的G16 15点整开")],
         ("王丽", "train", "G16", True)),
        ([("马志远", "抢到了D3125的票"), ("马志远", "刚改签到2月12号的G1373 上午10点")],
         ("马志远", "train", "G1373", True)),
        ([("小林", "我的航班是MU5101")], ("小林", "flight", "MU5101", False)),
        ([("大伟", "下周五去上海出差 订了国航CA1831 早上7点半的"), ("assistant", "改到哪天哪班了？"),
          ("大伟", "周六21号 东航MU5102 中午12点的 终于不用早起了哈哈哈")],
         ("大伟", "flight", "MU5102", False)),
        ([("Priya", "ok finally booked lisbon!! TAP flight TP 202 out of newark, aisle seat 23C")],
         ("Priya", "seat", "23C", False)),
        ([("Grace", "booked!! UA 882 to denver june 18, departs 6:50am.")],
         ("Grace", "flight", "UA 882", False)),
        ([("Grace", "booked!! UA 882 to denver"),
          ("Grace", "united cancelled my flight lol. rebooked on UA 1530")],
         ("Grace", "flight", "UA 1530", True)),
        ([("Priya", "push notif just now: gate change to B31.")], ("Priya", "gate", "B31", False)),
        ([("Priya", "they killed the morning one and put me on TP 208 same day")],
         ("Priya", "flight", "TP 208", False)),
        ([("Priya", "ok it's flight TP 202, leaves 10:40am")], ("Priya", "flight", "TP 202", False)),
    ],
)  # fmt: skip
def test_the_train_or_flight_one_takes(turns, expected):
    assert expected in read(*turns)


@pytest.mark.parametrize(
    "turns",
    [
        [("王丽", "对了我老公那天也去北京 不过他坐飞机 MU5101")],  # his
        [("Grace", "my sister's flight is UA 12")],  # hers
        [("Grace", "he's on UA 12 the next day")],
        [("Grace", "booked 2A for the kids")],
        # a reminder's time asked for changes no held time
        [("王丽", "改到周五下午的G16 15点整开 座位变成08车3C了"), ("王丽", "改成下午一点半提醒吧")],
    ],
)  # fmt: skip
def test_nothing_of_the_speakers(turns):
    speaker = turns[0][0]
    assert not any(subject == speaker for subject, *_ in read(*turns))


@pytest.mark.parametrize(
    "turns",
    [
        # a clause after 是 or 到 is no name a change could replace
        [("林杰", "房东李阿姨 人挺好 就是爱在微信发养生文章 哈哈"), ("assistant", "哈哈，长辈都这样。"),
         ("林杰", "跟你讲 我住的那套被李阿姨卖掉了😭 新房东姓周 年轻人 说合同到期要涨到4500")],
    ],
)  # fmt: skip
def test_no_home_from_a_clause(turns):
    assert not any(attribute == "residence" for _, attribute, *_ in read(*turns))


def test_an_amount_answering_a_question_of_a_key_is_that_keys():
    # the grammar keyed 1800 by the words before it; the question asked about the rent
    got = read(
        ("小唐", "房东又发消息说明年要涨房租 现在一个月2200"),
        ("assistant", "你搬到武侯祠那边了？恭喜！房租怎么样？"),
        ("小唐", "一室一厅 1800 比之前还便宜 就是离公司远点"),
    )
    assert got == {("小唐", "rent", 1800, False)}
    # no question before it: the amount keeps the grammar's key
    alone = read(("小唐", "一室一厅 1800 比之前还便宜 就是离公司远点"))
    assert not any(attribute == "rent" for _, attribute, *_ in alone)
