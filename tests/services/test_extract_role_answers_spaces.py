"""Who holds a role, said in a reply to the agent's question or beside the role's name (answers.py,
subjects_zh.py); a space that stands for 是 after 的 (rules.py, habits_zh.py, values_zh.py)."""

from __future__ import annotations

import pytest
from extract_helpers import facts_of_turns

AGENT = "assistant"


@pytest.mark.parametrize(
    "turns, holder",
    [
        ([("小雨", "王姐调去深圳分公司了"), (AGENT, "这么突然？那你们组现在谁带？"),
          ("小雨", "老周 原来隔壁数据组的 上周正式发的通知")],
         ("小雨", "manager", "老周")),
        ([("王磊", "我们组架构调整了"), (AGENT, "那你们组现在谁负责？"),
          ("王磊", "新来的陈涛，之前在字节带推荐算法的")],
         ("王磊", "manager", "陈涛")),
        ([("Ann", "we just moved"), (AGENT, "你的新房东是谁？"), ("Ann", "李姐 人挺好的")],
         ("Ann", "landlord", "李姐")),
        ([("Ann", "my boss quit"), (AGENT, "oh wow, who's your new manager then?"),
          ("Ann", "Raj, he came over from sales")],
         ("Ann", "manager", "Raj")),
    ],
)  # fmt: skip
def test_the_one_named_in_reply_to_who_holds_a_role_holds_it(turns, holder):
    assert holder in facts_of_turns(*turns)


@pytest.mark.parametrize(
    "turns",
    [
        [("Ann", "we just moved"), (AGENT, "你的新房东是谁？"), ("Ann", "不知道 还没见过")],
        [("Ann", "my boss quit"), (AGENT, "who's your new manager then?"), ("Ann", "No idea, HR is quiet")],
        [("Ann", "小美换组了"), (AGENT, "小美那边现在谁带？"), ("Ann", "老周")],  # someone else's role
        [("Ann", "搬完了"), (AGENT, "新家在哪？"), ("Ann", "滨江")],  # no question of who
    ],
)  # fmt: skip
def test_a_reply_naming_no_one_or_a_question_of_no_role_of_theirs_makes_no_holder(turns):
    got = facts_of_turns(*turns)
    assert not any(attribute in ("manager", "landlord") for _, attribute, _ in got)


@pytest.mark.parametrize(
    "text, expected",
    [
        ("我老板张敏每次都能拖一个半小时", ("王磊", "manager", "张敏")),
        ("我同事小吴更惨，被划到隔壁组了，现在归刘洋管", ("小吴", "manager", "刘洋")),
    ],
)
def test_a_role_and_its_name_before_what_is_said_of_them(text, expected):
    got = facts_of_turns(("王磊", text))
    assert expected in got
    assert not any(subject.startswith("小吴更") for subject, _, _ in got)  # a name ends at 更


@pytest.mark.parametrize(
    "text, expected",
    [
        ("吃的 氨氯地平 一天一片 5毫克的", ("周阿姨", "medication", "氨氯地平")),
        ("我吃的氨氯地平", ("周阿姨", "medication", "氨氯地平")),  # (not 的氨氯地平)
        ("血压药吃的 拜新同 一天一片", ("周阿姨", "medication", "拜新同")),
        (
            "我爸现在吃的降压药是氨氯地平，每天早上一片",
            ("周阿姨的爸爸", "medication", "氨氯地平"),
        ),  # (not 是氨氯地平)
        ("我现在住的 望京 离公司近", ("周阿姨", "residence", "望京")),
    ],
)
def test_a_space_after_de_stands_for_shi(text, expected):
    got = facts_of_turns(("周阿姨", text))
    assert expected in got
    assert not any(str(value).startswith("的") for _, _, value in got)


def test_a_food_eaten_is_no_medicine():
    assert not any(a == "medication" for _, a, _ in facts_of_turns(("周阿姨", "我吃的 火锅 很辣")))


@pytest.mark.parametrize(
    "turns, expected",
    [
        ([("小雨", "体重52了，胜利在望")], ("小雨", "weight", 52)),
        ([("小雨", "现在体重53.5")], ("小雨", "weight", "53.5")),
        ([(AGENT, "这个相对灵活。体重现在多少了？"), ("小雨", "53.5！生酮那一个月还是掉了不少")],
         ("小雨", "weight", "53.5")),
        ([(AGENT, "what's the rent on the new place?"), ("Ann", "$2,100, ugh")], ("Ann", "rent", "$2,100")),
        ([("小雨", "我开始生酮了！今天第三天")], ("小雨", "diet", "生酮")),
        ([("小雨", "换成16:8轻断食了，中午12点到晚上8点吃东西")], ("小雨", "diet", "16:8轻断食")),
        ([("小雨", "会议从周三改到周五")], ("小雨", "meeting", "2026-03-06")),
    ],
)  # fmt: skip
def test_weights_amounts_answered_diets_and_changes_from_an_old_value(turns, expected):
    assert expected in facts_of_turns(*turns)


@pytest.mark.parametrize(
    "text, wrong",
    [
        ("换成16:8轻断食了，中午12点到晚上8点吃东西", "arrive"),  # a span of hours is no arrival
        ("会议改到9:30了", "meeting.location"),  # 9:30 is one time, not two parts
        ("会议从周三改到周五", "会议从周三"),  # the old value is no part of the key
    ],
)
def test_no_key_from_a_span_of_hours_a_clock_time_or_an_old_value(text, wrong):
    assert not any(attribute.startswith(wrong) for _, attribute, _ in facts_of_turns(("小雨", text)))


def test_an_appointment_to_have_a_tooth_pulled_then_moved_and_corrected():
    booked = ("莉莉", "牙疼死了 约了这周四下午3点拔智齿😭")
    moved = ("莉莉", "诊所打电话说周四医生请假，给我改到周五上午10点了")
    corrected = ("莉莉", "不对不对，我刚翻短信，是周五上午10点半 不是10点，我记错了")
    assert ("莉莉", "拔智齿.date", "2026-03-05T15:00:00Z") in facts_of_turns(booked)
    assert ("莉莉", "拔智齿.date", "2026-03-06T10:00:00Z") in facts_of_turns(booked, moved)
    assert ("莉莉", "拔智齿.date", "2026-03-06T10:30:00Z") in facts_of_turns(booked, moved, corrected)


def test_a_holiday_trip_planned_holds_from_when_it_is_said_and_its_holiday_names_it():
    from extract_helpers import NOW, extract

    from memql.services.extract.common import names_key
    from memql.services.extract.replacements import CHANGE

    (plan,) = [
        f for f in extract("五一打算去大阪！！机票已经在看了").facts if f.attribute == "五一旅行.location"
    ]
    assert (plan.value, plan.valid_from) == ("大阪", NOW)  # not from 1 May: the plan is made now
    assert names_key("啊太可惜了。那五一还出去吗？", "五一旅行.location")
    assert CHANGE.search("出！改去清迈了，泰国免签") is not None  # a change, shown the turn it changes


def test_the_one_named_after_the_speaker_said_they_are_seeing_someone_is_their_partner():
    said = [("阿辉", "跟你说个事 我脱单了😎"), (AGENT, "恭喜！！是谁呀？")]
    assert ("阿辉", "partner", "阿珍") in facts_of_turns(
        *said, ("阿辉", "阿珍，我们羽毛球俱乐部的，认识俩月了")
    )
    sister = [("阿辉", "我妹脱单了"), (AGENT, "恭喜！！是谁呀？"), ("阿辉", "小刘 她同事")]
    assert not any(attribute == "partner" for _, attribute, _ in facts_of_turns(*sister))
