"""The offline rule extractor on Chinese: many phrasings per construct, corrections (不对，是…, 改成, 更正),
changes (我现在住在…, 搬到…了, 换工作到…), third parties, relative dates, and sentences with no fact."""

from __future__ import annotations

from datetime import datetime

import pytest
from extract_helpers import NOW, SHANGHAI, extract, facts, own

PASSPORT = ("小林", "passport.deadline", "2026-07-15")


def zh_facts(text, recent=(), now=NOW):
    return own(text, recent, speaker="小林", now=now)


@pytest.mark.parametrize(
    "text",
    [
        "我的护照截止日期是7月15日。",
        "我护照截止日期是7月15号",
        "我的护照续签截止日期是七月十五日。",
        "护照的截止日期是7月15日",
        "对了，我的护照截止日期是2026年7月15日。",
        "我的护照7月15日截止。",
    ],
)
def test_statement_of_the_passport_deadline(text):
    assert zh_facts(text) == {PASSPORT}


@pytest.mark.parametrize(
    "text",
    [
        "不对，是6月30号。",
        "不对，应该是6月30日。",
        "更正：6月30号。",
        "说错了，是6月30号。",
        "我记错了，是六月三十号。",
        "截止日期改成6月30号了。",
        "护照截止日期改为6月30日。",
        "是6月30号，不是7月15号。",
        "其实是6月30号。",
    ],
)
def test_a_correction_binds_to_the_recent_fact(text):
    delta = extract(text, ("我的护照截止日期是7月15日。",), speaker="小林")
    (fact,) = delta.facts
    assert (fact.subject, fact.attribute, fact.value) == ("小林", "passport.deadline", "2026-06-30")
    assert fact.correction is True


@pytest.mark.parametrize(
    "text, recent",
    [
        ("不对，是6月30号。", ()),
        ("是6月30号，不是7月15号。", ("我的护照截止日期是8月1日。",)),
    ],
)
def test_an_unbound_correction_gives_no_fact(text, recent):
    assert zh_facts(text, recent) == set()


def test_a_correction_of_a_place():
    (fact,) = extract("不对，是苏州。", ("我住在杭州。",), speaker="小林").facts
    assert (fact.attribute, fact.value, fact.correction) == ("residence", "苏州", True)


@pytest.mark.parametrize(
    "text, value",
    [
        ("我住在杭州。", "杭州"),
        ("我现在住在杭州，离公司骑车十分钟。", "杭州"),
        ("我搬到苏州了。", "苏州"),
        ("我们搬去深圳了", "深圳"),
        ("我已经搬到北京了！", "北京"),
        ("我在成都住。", "成都"),
        ("我定居在上海。", "上海"),
        ("我刚搬到南京。", "南京"),
    ],
)
def test_residence(text, value):
    assert zh_facts(text) == {("小林", "residence", value)}


def test_a_change_starts_when_the_message_says():
    (fact,) = extract("跟你说个事，我上个月搬到苏州了，换了份工作。", speaker="小林").facts
    assert (fact.attribute, fact.value) == ("residence", "苏州")
    assert fact.valid_from == datetime(2026, 2, 1, tzinfo=NOW.tzinfo)


@pytest.mark.parametrize(
    "text, value",
    [
        ("我在腾讯工作。", "腾讯"),
        ("我现在在字节跳动上班。", "字节跳动"),
        ("我跳槽到阿里巴巴了。", "阿里巴巴"),
        ("我入职了华为。", "华为"),
        ("我换工作到美团了。", "美团"),
        ("我加入了小米。", "小米"),
    ],
)
def test_employer(text, value):
    assert zh_facts(text) == {("小林", "employer", value)}


@pytest.mark.parametrize(
    "text, value",
    [("我是一名软件工程师。", "软件工程师"), ("我是老师。", "老师"), ("我升职为产品经理了。", "产品经理")],
)
def test_job_title(text, value):
    assert zh_facts(text) == {("小林", "job_title", value)}


@pytest.mark.parametrize(
    "text, expected",
    [
        (
            "我姐姐安娜现在住在波尔图。",
            {("安娜", "residence", "波尔图"), ("安娜", "relation.sister_of", "小林")},
        ),
        (
            "我儿子小乐的护照2029年到期。",
            {("小乐", "passport.expiry", "2029"), ("小乐", "relation.son_of", "小林")},
        ),
        ("我老婆叫安娜。", {("安娜", "relation.wife_of", "小林"), ("小林", "wife", "安娜")}),
        ("我的新老板是张伟。", {("张伟", "relation.boss_of", "小林"), ("小林", "manager", "张伟")}),
        ("安娜是我姐姐。", {("安娜", "relation.sister_of", "小林")}),
        ("我妹妹住在上海。", {("小林的妹妹", "residence", "上海")}),
        ("我姐姐的护照截止日期是7月20日。", {("小林的姐姐", "passport.deadline", "2026-07-20")}),
    ],
)
def test_third_party_facts(text, expected):
    assert facts(text, speaker="小林") == expected


@pytest.mark.parametrize(
    "recent, text, expected",
    [
        (("我妹妹小雨住在上海。",), "她搬到北京了。", {("小雨", "residence", "北京")}),
        (("我哥哥大伟在腾讯工作。",), "他跳槽到阿里了。", {("大伟", "employer", "阿里")}),
        (("我哥哥大伟和我姐姐安娜来了。",), "她搬到北京了。", {("安娜", "residence", "北京")}),
        ((), "她搬到北京了。", set()),
    ],
)
def test_pronouns(recent, text, expected):
    assert zh_facts(text, recent) == expected


@pytest.mark.parametrize(
    "text, key, value",
    [
        ("我喜欢吃寿司。", "preference.寿司", "like"),
        ("我特别喜欢爬山。", "preference.爬山", "love"),
        ("我讨厌香菜。", "preference.香菜", "hate"),
        ("我不喜欢咖啡。", "preference.咖啡", "dislike"),
        ("我最喜欢的颜色是蓝色。", "favorite.color", "蓝色"),
        ("我吃素。", "diet", "素食"),  # a status in the words said: a later line is matched by them
        ("我结婚了。", "marital_status", "已婚"),
        ("我对花生过敏。", "allergy.花生", True),
        ("我今年34岁。", "age", 34),
        ("我有两个孩子。", "kids.count", 2),
        ("我的手机号是13800138000", "phone", 13800138000),
        ("我的邮箱是lin@example.com", "email", "lin@example.com"),
        ("我的生日是5月4日。", "birthday", "2026-05-04"),
        ("今天是我的生日！", "birthday", "2026-03-02"),
        ("我是1990年3月3日出生的。", "birthday", "1990-03-03"),
        ("我的牙医预约在下周五。", "dentist.appointment", "2026-03-13"),
    ],
)
def test_preferences_statuses_numbers_dates(text, key, value):
    assert zh_facts(text) == {("小林", key, value)}


@pytest.mark.parametrize(
    "text",
    [
        "我的护照是7月15号到期吗？",
        "我的护照什么时候到期？",
        "你住在哪里？",
        "如果我搬到巴黎就好了。",
        "我打算搬到深圳。",
        "我可能会去上海工作。",
        "听说他搬到北京了。",
        "今天天气不错。",
        "我们昨天去吃了火锅。",
        "要是我在谷歌工作就好了",
        "哈哈，我也喜欢。",
        "我喜欢你。",
        "我喜欢这个。",
        "我在路上了。",
        "我在开会。",
        "我是说真的。",
        "我有一个问题。",
        "她是我最好的朋友。",
        "我到家了。",
        "好的，没问题。",
    ],
)
def test_no_fact(text):
    assert facts(text, speaker="小林") == set()


def test_times_resolve_in_the_messages_own_zone():
    # 23:30 on Monday 2 March in Shanghai is 15:30 UTC; 明天 is Tuesday 3 March there
    now = datetime(2026, 3, 2, 23, 30, tzinfo=SHANGHAI)
    delta = extract("我明天要去银行，下周五交报告。", speaker="小林", now=now)
    got = {t.evidence.quote: (t.start.isoformat(), t.granularity) for t in delta.times}
    assert got == {
        "明天": ("2026-03-02T16:00:00+00:00", "day"),
        "下周五": ("2026-03-12T16:00:00+00:00", "day"),
    }
    (fact,) = extract("我的护照截止日期是下周五。", speaker="小林", now=now).facts
    assert fact.value == "2026-03-13"  # the local date, not the UTC one


def test_relative_dates_become_exact_dates():
    assert zh_facts("我的签证下个月5号到期。") == {("小林", "visa.expiry", "2026-04-05")}
    assert zh_facts("报告截止日期是下周五。") == {("小林", "report.deadline", "2026-03-13")}


def test_tasks_and_decisions():
    (task,) = extract("我下周五要交报告。", speaker="小林").tasks
    assert (task.text, task.owner, task.due.date().isoformat()) == ("交报告", "小林", "2026-03-13")
    (task,) = extract("提醒我明天给妈妈打电话。", speaker="小林").tasks
    assert task.text == "明天给妈妈打电话" and task.due.date().isoformat() == "2026-03-03"
    (decision,) = extract("我们决定用蓝色的logo。", speaker="小林").decisions
    assert (decision.text, decision.owner) == ("用蓝色的logo", "小林")
    assert extract("我想喝咖啡。", speaker="小林").tasks == []


def test_entities_and_types():
    delta = extract("我姐姐安娜现在住在波尔图。", speaker="小林")
    assert {(e.text, e.kind) for e in delta.entities} == {("安娜", "person"), ("波尔图", "place")}
    assert delta.memory_type == "semantic"
    assert extract("我每天早上先跑步，然后吃早饭。", speaker="小林").memory_type == "procedural"
    assert extract("我们昨天去吃了火锅。", speaker="小林").memory_type == "episodic"
    assert extract("我对花生过敏。", speaker="小林").sensitivity == "restricted"


def test_mixed_language_conversation():
    delta = extract("不对，是6月30号。", ("My passport deadline is July 15.",), speaker="小林")
    (fact,) = delta.facts
    assert (fact.attribute, fact.value, fact.correction) == ("passport.deadline", "2026-06-30", True)


@pytest.mark.parametrize(
    "text, expected",
    [
        ("现在我住在苏州。", {("小林", "residence", "苏州")}),
        ("我们家搬到了苏州。", {("小林", "residence", "苏州")}),
        ("我换了新工作，现在在字节上班。", {("小林", "employer", "字节")}),
        ("我搬家了，现在住在苏州。", {("小林", "residence", "苏州")}),
        ("我的新地址是南京路100号。", {("小林", "address", "南京路100号")}),
        ("我的新手机号是13900001111。", {("小林", "phone", 13900001111)}),
        ("我男朋友在百度工作。", {("小林的男朋友", "employer", "百度")}),
        ("我在微软当工程师。", {("小林", "employer", "微软"), ("小林", "job_title", "工程师")}),
        ("我特别讨厌下雨天。", {("小林", "preference.下雨天", "hate")}),
        ("我的护照下个月15号到期。", {("小林", "passport.expiry", "2026-04-15")}),
        ("我把手机号换成了13900002222。", {("小林", "phone", 13900002222)}),
        ("我的邮箱换成了lin@new.com。", {("小林", "email", "lin@new.com")}),
        ("我的租约8月到期。", {("小林", "lease.expiry", "2026-08")}),
        ("我已经在杭州住了三年了。", {("小林", "residence", "杭州")}),
        ("我已经从杭州搬到苏州了。", {("小林", "residence", "苏州")}),
        ("我从腾讯跳槽到了阿里。", {("小林", "employer", "阿里")}),
        ("我离开了腾讯，加入了阿里。", {("小林", "employer", "阿里")}),
        ("我的新公司是字节跳动。", {("小林", "employer", "字节跳动")}),
        ("我现在是产品经理了。", {("小林", "job_title", "产品经理")}),
        ("我在家工作。", set()),
        ("我已经不在杭州住了。", set()),
    ],
)
def test_phrasings_written_differently(text, expected):
    assert zh_facts(text) == expected


def test_a_leading_time_dates_the_fact():
    (fact,) = extract("上个月我搬到苏州了。", speaker="小林").facts
    assert fact.valid_from == datetime(2026, 2, 1, tzinfo=NOW.tzinfo)


def test_a_postponement_is_a_correction_of_the_earlier_key():
    (fact,) = extract("护照截止日期推迟到了6月30号。", ("我的护照截止日期是7月15日。",), speaker="小林").facts
    assert (fact.attribute, fact.value, fact.correction) == ("passport.deadline", "2026-06-30", True)


@pytest.mark.parametrize(
    "text, key, value",
    [
        ("以后请用我的工作邮箱hexue@starlab.cn，QQ邮箱不常看了。", "email", "hexue@starlab.cn"),
        ("从现在起发到我的新邮箱xl@example.cn。", "email", "xl@example.cn"),
        ("以后打我新号码13912345678。", "phone", "13912345678"),
    ],
)
def test_a_contact_to_use_from_now_on_is_the_speakers(text, key, value):
    assert own(text, speaker="小林") == {("小林", key, value)}


@pytest.mark.parametrize(
    "text", ["你用什么邮箱？", "要不要用hexue@starlab.cn？", "如果用新邮箱，要通知大家。"]
)
def test_questions_and_conditions_about_contacts_give_no_fact(text):
    assert not {t for t in own(text, speaker="小林") if t[1] in ("email", "phone")}


def test_a_new_number_is_the_phone():
    assert {(s, k) for s, k, _ in own("我换号了，新号码是13912345678。", speaker="小林")} == {
        ("小林", "phone")
    }


@pytest.mark.parametrize(
    "text, key, value",
    [
        ("又延期了，护照截止日期现在是8月5日。", "passport.deadline", "2026-08-05"),
        ("我的邮箱现在是xl@example.cn。", "email", "xl@example.cn"),
        ("我的手机号目前是13912345678。", "phone", 13912345678),
    ],
)
def test_an_adverb_of_time_before_the_copula_is_no_part_of_the_attribute(text, key, value):
    assert own(text, speaker="小林") == {("小林", key, value)}


@pytest.mark.parametrize("text", ["现在是8月5日。", "现在是下午三点。"])
def test_the_time_now_is_no_attribute(text):
    assert own(text, speaker="小林") == set()


def test_the_school_grade_one_is_in():
    assert ("Mira的儿子", "grade", "二年级") in own("我儿子今年上小学二年级。")
    assert ("Mira的儿子", "grade", "三年级") in own("儿子今天开学，升三年级了。")
    assert ("Mira的女儿", "grade", "高二") in own("我女儿在读高二。")


def test_a_job_or_a_time_after_a_relative_is_no_name():
    assert own("我嫂子是牙医。") == {("Mira的嫂子", "job_title", "牙医")}
    assert not any(s == "牙医" for s, _, _ in facts("我嫂子是牙医。"))
    assert not any(s.startswith("从") for s, _, _ in facts("阿姨从下周开始改成周二到周四来。"))
    assert ("李娜", "relation.sister_in_law_of", "Mira") in facts("我嫂子是李娜。")  # a name still is


def test_ages_said_without_this_year_or_as_turning():
    assert own("我儿子七岁。") == {("Mira的儿子", "age", 7)}
    assert own("儿子满八岁了。") == {("Mira的儿子", "age", 8)}
    assert own("我今年刚满30岁。") == {("Mira", "age", 30)}


def test_an_age_without_sui():
    assert own("我爸今年五十九。") == {("Mira的爸爸", "age", 59)}
    assert own("我爸过了六十大寿。") == {("Mira的爸爸", "age", 60)}
    assert own("今年五十九个学生。") == set()


def test_kin_words_and_a_modal_before_the_verb():
    assert ("Mira的继父", "residence", "北京") in own("我继父在北京上班。")  # a known city
    assert ("小雨", "relation.niece_of", "Mira") in facts("我侄女小雨想当医生。")  # 想 begins no name
    assert own("我姐姐安娜要搬到上海。") == {("安娜", "residence", "上海")}


def test_what_one_wants_to_become_is_no_job_held():
    assert own("我侄女想当医生。") == {("Mira的侄女", "aspiration", "医生")}
    later = own("侄女改主意了，现在想当建筑师。", ["我侄女想当医生。"])
    assert ("Mira的侄女", "aspiration", "建筑师") in later
