"""The Chinese rule grammar on what people say without a copula: habits and their changes (改喝), studies,
schools, cars, floors, amounts by the period, sizes, party sizes, ride times, dated events (合同下周五签),
a change announced and valued in the next part, the sentence's subject carried on, an unnamed relative
resolved to the one named before, and correction markers (等一下, 算了, 我看错了) — each with sentences
that must give no fact, or no fact of the speaker."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memql.lang.delta import Turn, Utterance, check_evidence
from memql.services.extract import make_extractor

NOW = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)  # a Monday
RULES = make_extractor("rules")
ME = "阿梅"


def said(text: str, recent: tuple[str, ...] = (), now: datetime = NOW):
    turns = tuple(Turn(speaker=ME, text=t, time=now) for t in recent)
    delta = RULES.extract(Utterance(speaker=ME, text=text, time=now, recent=turns))
    assert check_evidence(delta, text) == [], "every evidence quotes the message exactly"
    return delta


def facts(text: str, recent: tuple[str, ...] = (), now: datetime = NOW) -> set[tuple]:
    """(subject, attribute, value) of the facts, without the relation facts a named relative brings."""
    return {
        (f.subject, f.attribute, f.value)
        for f in said(text, recent, now).facts
        if not f.attribute.startswith("relation.")
    }


@pytest.mark.parametrize(
    "text, expected",
    [
        ("我平时喝红茶。", {(ME, "drink", "红茶")}),
        ("我每天晚上喝一杯热牛奶。", {(ME, "drink", "热牛奶")}),
        ("我现在改喝豆浆了。", {(ME, "drink", "豆浆")}),
        ("我中午一般吃沙拉。", {(ME, "food", "沙拉")}),
        ("减肥呢，现在只喝黑咖啡。", {(ME, "drink", "黑咖啡")}),
        ("我表弟在读医学。", {(f"{ME}的表弟", "major", "医学")}),
        ("我儿子在第二中学上学。", {(f"{ME}的儿子", "school", "第二中学")}),
        ("我开一辆蓝色的大众。", {(ME, "car", "蓝色的大众")}),
        ("我们公司在大厦的12楼。", {(ME, "floor", "12楼")}),
        ("我们搬到十五楼了。", {(ME, "floor", "十五楼")}),
        ("终于把旧房子钥匙还了，新家在重庆，阳台超大", {(ME, "residence", "重庆")}),
        ("我老家在湖南。", set()),
        ("我每天早上一杯美式，不加糖", {(ME, "drink", "美式")}),
        ("我昨天喝了一杯美式", set()),
        ("我女儿班主任是王老师，看着挺凶的", {(f"{ME}的女儿", "班主任", "王老师")}),
        ("我爸手机号：138 1234 5678", {(f"{ME}的爸爸", "phone", "138 1234 5678")}),
        ("我的邮箱 a@b.com", {(ME, "email", "a@b.com")}),
        ("我的房租每月3800块。", {(ME, "rent", 3800)}),
        ("房租每个月两千五。", {(ME, "rent", 2500)}),
        ("我的工资涨到9000了。", {(ME, "salary", 9000)}),
        ("运动服我要XL码。", {(ME, "运动服.size", "XL码")}),
        ("帮我订四个人的包间。", {(ME, "包间.headcount", "四个人")}),
        ("我每天坐6点50的公交。", {(ME, "公交.time", "6点50")}),
        ("我每天坐早上7点20的地铁。", {(ME, "地铁.time", "早上7点20")}),
    ],
)
def test_habits_possessions_and_measures(text, expected):
    assert facts(text) == expected


@pytest.mark.parametrize(
    "text, expected",
    [
        ("房子下周四交。", {(ME, "房子.date", "2026-03-12")}),
        ("装修队三天后来。", {(ME, "装修队.date", "2026-03-05")}),
        ("我大后天飞成都。", {(ME, "飞成都.date", "2026-03-05")}),
        ("体检下周三做。", {(ME, "checkup.date", "2026-03-11")}),
        ("我们明天开会。", {(ME, "开会.date", "2026-03-03")}),
    ],
)
def test_a_dated_event_without_a_copula_is_its_day(text, expected):
    assert facts(text) == expected


def test_a_rescheduled_event_keeps_its_key():
    (fact,) = said("合同改到下周一签了。", ("合同下周五签。",)).facts
    assert (fact.attribute, fact.value, fact.correction) == ("contract.date", "2026-03-09", True)


@pytest.mark.parametrize(
    "text",
    [
        "我喝了一杯水。",  # once, not a habit
        "我不喝酒。",
        "你平时喝什么？",
        "如果我改喝茶就好了。",
        "我打算改喝绿茶。",
        "我们昨天去看了电影。",  # a day past: an episode
        "我今天去吃了火锅。",
        "你明天来吗？",
        "如果下周五签合同，就来得及。",
        "我觉得他每天喝咖啡。",  # 他 unresolved
        "我在那边找了份工作。",
    ],
)
def test_no_fact(text):
    assert facts(text) == set()


@pytest.mark.parametrize(
    "text, recent, expected",
    [
        # another subject's change never closes the speaker's own value
        ("我哥哥换了辆黑色的宝马。", ("我开一辆白色的本田。",), {(f"{ME}的哥哥", "car", "黑色的宝马")}),
        ("我弟弟改喝可乐了。", ("我平时喝雪碧。",), {(f"{ME}的弟弟", "drink", "可乐")}),
        ("我妹妹搬到了厦门。", ("我住在福州。",), {(f"{ME}的妹妹", "residence", "厦门")}),
        # he/she is the last named person
        ("他现在改读经济了。", ("我同学大林在读历史。",), {("大林", "major", "经济")}),
    ],
)
def test_other_subjects(text, recent, expected):
    assert facts(text, recent) == expected


def test_an_unnamed_relative_is_the_one_named_before():
    assert facts("我妹妹现在住在福州了。", ("我妹妹小雨住在厦门。",)) == {("小雨", "residence", "福州")}
    two = ("我妹妹小雨住在厦门。", "我妹妹小雪住在宁波。")  # two sisters: no guess
    assert facts("我妹妹现在住在福州了。", two) == {(f"{ME}的妹妹", "residence", "福州")}


@pytest.mark.parametrize(
    "text, expected",
    [
        ("我上个月跟女朋友领证了，已经结婚了。", {(ME, "marital_status", "已婚")}),
        # the later part is the brother's, as the first part is
        (
            "我哥哥去年离婚了，现在单身。",
            {(f"{ME}的哥哥", "marital_status", "离婚"), (f"{ME}的哥哥", "marital_status", "单身")},
        ),
        ("下个月开始我当部门主管了。", {(ME, "job_title", "部门主管")}),
    ],
)
def test_the_subject_carries_over_the_sentence(text, expected):
    assert facts(text) == expected


@pytest.mark.parametrize(
    "text, expected",
    [
        ("小组组长换了，现在是阿强。", {(ME, "小组组长", "阿强")}),
        ("小组组长换了，现在是阿强在带。", {(ME, "小组组长", "阿强")}),
        ("房东涨租了，从四月起每个月4100。", {(ME, "rent", 4100)}),
    ],
)
def test_a_change_announced_then_valued(text, expected):
    assert facts(text) == expected


def test_announced_change_in_a_question_or_with_no_value_says_nothing():
    assert facts("小组组长换了吗？") == set()
    assert facts("天气变了，要下雨。") == set()


def test_an_attribute_with_de_is_the_same_key():
    before = facts("我们小组的组长是老周。")
    assert before == {(ME, "小组组长", "老周")}


@pytest.mark.parametrize(
    "text, recent, expected",
    [
        ("等一下，改成五个人。", ("帮我订四个人的包间。",), (ME, "包间.headcount", "五个人")),
        ("算了，给我改成XXL码吧。", ("运动服我要XL码。",), (ME, "运动服.size", "XXL码")),
        ("说错了，是光明中学，第二中学是她表哥的学校。", ("我女儿在第二中学上学。",), None),
    ],
)
def test_corrections_bind_to_the_fact_they_correct(text, recent, expected):
    got = {(f.subject, f.attribute, f.value): f.correction for f in said(text, recent).facts}
    if expected is None:  # a school corrected: the daughter's, and nothing said of the cousin's school
        assert got == {(f"{ME}的女儿", "school", "光明中学"): True}
    else:
        assert got == {expected: True}


def test_a_status_is_kept_in_the_words_said():
    (fact,) = said("我现在单身。").facts
    assert (fact.attribute, fact.value) == ("marital_status", "单身")


@pytest.mark.parametrize(
    "text",
    [
        "我们都吃过了。",  # 吃过: done, no food
        "我都喝完了。",
        "我平时吃得很少。",
        "电梯在3楼。",  # the floor of a thing, not of where one is
        "明天见！",
        "我妈妈说，住在上海挺好。",  # someone's words
    ],
)
def test_no_fact_from_words_that_only_look_like_a_construction(text):
    assert facts(text) == set()


def test_a_grade_is_no_field_of_study():
    assert facts("我女儿今年在读高三。") == {(f"{ME}的女儿", "grade", "高三")}


def test_amounts_are_read_as_spoken():
    assert facts("房租每个月一万二。") == {(ME, "rent", 12000)}
    assert facts("我们一般喝点酒。") == {(ME, "drink", "酒")}
    assert facts("我住在5楼。") == {(ME, "floor", "5楼")}  # a floor is no city


def test_an_event_of_a_pet_is_the_pet_s_and_a_time_is_no_name():
    assert facts("我家狗下周二去洗澡。") == {(f"{ME}的狗", "洗澡.date", "2026-03-10")}
    assert facts("我家的猫叫团团。", ()) == set()  # only the relation fact: 团团 is the cat
    assert {(f.subject, f.attribute) for f in said("我家的猫叫团团。").facts} == {("团团", "relation.cat_of")}


@pytest.mark.parametrize(
    "text, expected",
    [
        ("我最近开始喝燕麦奶了。", {(ME, "drink", "燕麦奶")}),
        ("我现在吃素了。", {(ME, "diet", "素食")}),  # a status, not a food
        ("我现在58公斤了。", {(ME, "weight", "58公斤")}),
        ("我身高一米六五。", {(ME, "height", "一米六五")}),
        ("我们小组有九个人。", {(ME, "小组.headcount", "九个人")}),
        ("我女儿转学到了光明小学。", {(f"{ME}的女儿", "school", "光明小学")}),
        ("我周末在书店兼职。", {(ME, "employer", "书店")}),
        ("我换工作了，现在在网易。", {(ME, "employer", "网易")}),
        ("我搬家了，现在在无锡。", {(ME, "residence", "无锡")}),
        ("我搬家了，现在住在无锡。", {(ME, "residence", "无锡")}),
    ],
)
def test_more_phrasings_of_states_and_changes(text, expected):
    assert facts(text) == expected


def test_an_announced_change_without_its_value_or_of_the_weather_says_nothing():
    assert facts("我换工作了。") == set()
    assert facts("天气变了，现在是阴天。") == set()
    assert facts("我换工作了，你呢？") == set()


@pytest.mark.parametrize(
    "text, recent, expected",
    [
        ("我每天走路上班。", (), {(ME, "commute", "走路")}),
        ("我现在改开车上班了。", (), {(ME, "commute", "开车")}),
        ("我开的是一辆宝马。", (), {(ME, "car", "宝马")}),
        ("我喝的是乌龙茶。", (), {(ME, "drink", "乌龙茶")}),
        ("我用的是华为手机。", (), set()),  # 用的: no attribute named
        ("培训室在C105。", (), {(ME, "培训室", "C105")}),
        (  # 我爸 is 我爸爸; retired is what he does now
            "我爸今年退休了。",
            (),
            {(f"{ME}的爸爸", "employment_status", "退休"), (f"{ME}的爸爸", "job_title", "退休")},
        ),
        ("我姐夫在邮局上班。", (), {(f"{ME}的姐夫", "employer", "邮局")}),  # not a sister named 夫
        ("预算提高到12000了。", (), {(ME, "budget", 12000)}),
    ],
)
def test_commutes_codes_nominalised_objects_and_familiar_relatives(text, recent, expected):
    assert facts(text, recent) == expected


def test_a_change_verb_without_an_attribute_changes_the_fact_before():
    (fact,) = said("改到周四了。", ("我的理发预约在周二。",)).facts
    assert (fact.attribute, fact.value, fact.correction) == ("理发.appointment", "2026-03-05", True)
    assert said("改到周四了吗？", ("我的理发预约在周二。",)).facts == []


@pytest.mark.parametrize(
    "text, recent, expected",
    [
        ("不对不对，是5521。", ("我的借书证号是5512。",), (ME, "借书证.number", 5521)),
        ("我上司换人了，现在是老郑。", ("我的上司是老钱。",), (ME, "manager", "老郑")),
        ("复查推迟到下周五了。", ("我下周三复查。",), (ME, "复查.date", "2026-03-13")),
    ],
)
def test_changes_bind_to_the_fact_before(text, recent, expected):
    assert expected in {(f.subject, f.attribute, f.value) for f in said(text, recent).facts}


@pytest.mark.parametrize(
    "text, expected",
    [
        ("我儿子在向阳幼儿园。", {(f"{ME}的儿子", "school", "向阳幼儿园")}),
        ("我外婆每天早上喝米粥。", {(f"{ME}的外婆", "drink", "米粥")}),  # 每天早 is no name
        ("我们下个月10号结婚。", {(ME, "结婚.date", "2026-04-10")}),  # a plan, not married yet: its day
        ("我表姐下周订婚。", set()),
    ],
)
def test_schools_by_their_name_and_statuses_not_yet_true(text, expected):
    assert facts(text) == expected


@pytest.mark.parametrize(
    "text, expected",
    [
        ("我被提拔为销售总监了。", {(ME, "job_title", "销售总监")}),
        ("我爸让我早点睡。", set()),  # 让我早 is no name
    ],
)
def test_promotions_suggestions_and_requests(text, expected):
    assert facts(text) == expected


def test_a_plan_put_forward_is_a_hedged_plan_a_change_agreed_later_moves():
    # 吧: put forward, not yet agreed — held with less confidence, and moved by the change the group agrees
    (plan,) = said("我们周六去露营吧。").facts
    assert (plan.attribute, plan.value, plan.confidence) == ("露营.date", "2026-03-07", 0.6)
    assert facts("确定了周六暴雨，改周日吧，时间地点不变", ("我们周六去露营吧。",)) == {
        (ME, "露营.date", "2026-03-08")
    }


@pytest.mark.parametrize(
    "text, expected",
    [
        ("我午饭一般吃面条。", {(ME, "food", "面条")}),
        ("明天上午十点来装宽带。", {(ME, "装宽带.date", "2026-03-03T10:00:00Z")}),
        ("我舍友小周在读化学。", {("小周", "major", "化学"), (ME, "roommate", "小周")}),  # one has one
        ("单位搬到了亦庄。", set()),  # an organisation moved, no person named 单位
    ],
)
def test_meal_habits_subjectless_plans_roommates_and_organisations(text, expected):
    assert facts(text) == expected


@pytest.mark.parametrize(
    "text, expected",
    [
        ("包裹后天上午到。", {(ME, "包裹.date", "2026-03-04")}),  # a day with its part: that day
        ("我爸下个月20号来上海。", {(f"{ME}的爸爸", "上海.date", "2026-04-20")}),
        ("奖金下个月发。", {(ME, "奖金.date", "2026-04")}),
        ("我早上喝咖啡。", set()),  # 早上 names no day, and no word of habit
    ],
)
def test_plans_by_a_day_part_a_month_or_a_relative(text, expected):
    assert facts(text) == expected


@pytest.mark.parametrize(
    "text, recent, expected",
    [
        ("我在学法语。", (), {(ME, "learning", "法语")}),  # 学 and 练 are one key: what one is learning
        ("我现在改学德语了。", ("我在学法语。",), {(ME, "learning", "德语")}),
        ("我平时用小米手机。", (), {(ME, "用", "小米手机")}),
        ("我每周练书法。", (), {(ME, "learning", "书法")}),
        ("我在吃药。", (), set()),  # 在吃: what one does now, no habit
        ("我在用电脑。", (), set()),
    ],
)
def test_habits_keyed_by_their_verb_or_learning(text, recent, expected):
    assert facts(text, recent) == expected


def test_a_correction_skips_the_part_that_says_what_the_old_value_was():
    recent = ("我女儿班主任是王老师，看着挺凶的", "还行")
    assert facts("哎我记错了，那是去年的班主任，今年是刘老师", recent) == {
        (f"{ME}的女儿", "班主任", "刘老师")
    }


def test_a_team_a_changed_amount_and_a_count_beside_a_weekday():
    assert facts("我在支付组。") == {(ME, "team", "支付组")}
    assert facts("现在在身份认证组。") == {(ME, "team", "身份认证组")}
    assert facts("小婷调回北京工作了。", ("我闺蜜小婷在深圳工作。",)) == {("小婷", "residence", "北京")}
    # 房东把房租涨到3300了: the landlord changed the speaker's rent, the attribute is what follows 把
    assert {(s, a) for s, a, _ in facts("房东把房租涨到3300了。", ("房租是每月3000。",))} == {(ME, "rent")}
    # 周五四个人: 五 belongs to the weekday, the party is four
    assert facts("帮我订周五四个人的桌。") == {(ME, "桌.headcount", "四个人")}
    # …and it holds from now, for a dinner on Friday; 下个月搬到上海 starts then
    assert {f.valid_from for f in said("帮我订周五四个人的桌。").facts} == {NOW}
    moved = said("我下个月搬到上海。").facts
    assert [(f.attribute, f.valid_from.date().isoformat()) for f in moved] == [("residence", "2026-04-01")]


def test_a_time_after_a_relative_is_no_name_and_a_wedding_day_is_no_status():
    assert facts("我奶奶冬天住在海南。") == {(f"{ME}的奶奶", "residence", "海南")}
    assert facts("奶奶昨天回北京了。", ("我奶奶冬天住在海南。",)) == {(f"{ME}的奶奶", "residence", "北京")}
    assert facts("我回家了。") == set()
    assert not any(a == "marital_status" for _, a, _ in facts("结婚纪念日晚饭订在14号。"))


def test_a_new_boss_is_the_speakers_and_a_moved_meeting_keeps_its_key():
    assert facts("林姐走了，新老板是马总。", ("我老板是林姐。",)) == {(ME, "manager", "马总")}
    assert facts("新同事是小王。") == set()  # one has many colleagues: whose is not said
    moved = facts("站会改到十点了。", ("站会九点半开。",))
    assert {(s, a) for s, a, _ in moved} == {(ME, "站会.date")}
