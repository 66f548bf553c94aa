"""Words before a Chinese value that name no attribute — a feeling said first, an adverb or a hedge, a
verb's object and its term, someone named or another — key no fact (values_zh.names_no_key); the amount
a named landlord raised still updates the rent, and real keys still key."""

from __future__ import annotations

import pytest
from extract_helpers import own

ME = "Mira"


@pytest.mark.parametrize(
    "text",
    [
        "我是5F-C07 靠窗！！开心 3楼A12那个空调直吹的位置终于要告别了",  # 开心: a feeling, no key
        "悲剧 C07那个窗户漏风 而且行政说那排要留给新来的设计组",
        "让我降 咬咬牙降到455万了 再不卖换房首付就不够了",  # 咬咬牙: an idiom
        "我家闺女昨天吃了芒果 估计是芒果过敏吧",  # 估计: a hedge
        "不去了 就下周三 18号下午两点",  # 就: an adverb opens no key
        "胆固醇5.4 医生说还得再降点 5.2以下才算正常",
        "谈下来了！签两年 4350 押一付三不变 5月开始",  # 签两年: a verb, its object and its term
        "我室友的猫叫年糕 6公斤了 比团子胖多了哈哈",  # 猫叫年糕: a name given
        "妈 z和h是小写的",  # 妈: who is spoken to
        "我弟他们是开车回 说高速肯定堵死",  # 他们: others
        "聚丰园说牡丹厅那天被包了 给咱换成福寿厅 更大",
        "帮我记下 网购老是忘",  # 老是: always
    ],
)
def test_words_that_name_no_attribute_key_no_fact(text):
    keys = {attribute for _, attribute, _ in own(text)}
    assert not keys & {"开心", "悲剧", "咬咬牙", "估计", "就下周三", "还得再降点", "签两年", "猫叫年糕", "妈",
                       "他们", "给咱", "网购老"}, keys  # fmt: skip


@pytest.mark.parametrize(
    "text, recent, expected",
    [
        ("气死 续租了 房东涨到4500 说周边都涨了", ("房租4200 水电三百左右",), {(ME, "rent", 4500)}),
        ("我现在月薪18k", (), {(ME, "salary", 18000)}),
        ("地点改到市游泳馆了 每节降到150", (), {(ME, "location", "市游泳馆"), (ME, "每节", 150)}),
    ],
)
def test_keys_that_name_an_attribute_still_key(text, recent, expected):
    assert expected <= own(text, recent)


def test_a_key_that_opens_like_an_adverb_still_keys():
    # 还 of 还款 is no "still"; a day that recurs each month is its words
    assert own("还款日是每月15号") == {(ME, "还款日", "每月15号")}
    assert own("我的还款日是每个月15号") == {(ME, "还款日", "每个月15号")}


def test_a_coach_is_who_coaches_not_what_one_teaches():
    assert not any(k == "teaching" for _, k, _ in own("教练叫小杰 每周二和周四晚上7点", (), "苏晴"))
    assert ("苏晴", "coach", "小杰") in own("我的教练是小杰", (), "苏晴")
    assert own("我老公教数学", (), "苏晴") == {("苏晴的老公", "teaching", "数学")}
