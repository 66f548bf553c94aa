"""Roles said bare, floors, instruments and races, weigh-ins, people moved by someone else, a titled one
seen now after a comma, a status said alone, a day with its place (services/extract: predicates_en,
floors.py, pursuits_zh.py, corrections_en/zh, venues_zh)."""

from __future__ import annotations

import pytest
from extract_helpers import extract, own
from extract_helpers import facts as facts_of

ME = "Mira"
FRIEND = "我发小阿满住我家隔壁小区。"


@pytest.mark.parametrize(
    "text, recent, expected",
    [
        # a bare role word is the one held ("our lead" of a held team_lead), after ", so" too
        ("Marcus is our lead now.", ("Our team lead is Priya.",), {(ME, "team_lead", "Marcus")}),
        (
            "Priya moved to the infra team, so Marcus is our lead now.",
            ("Our team lead is Priya.",),
            {("Priya", "team", "infra team"), (ME, "team_lead", "Marcus")},
        ),
        # the floor one sits or lives on; moving to a floor is no new home
        ("I sit on the fourth floor.", (), {(ME, "floor", "fourth floor")}),
        ("I got moved to the sixth floor.", (), {(ME, "floor", "sixth floor")}),
        ("We moved to the 6th floor.", (), {(ME, "floor", "6th floor")}),
        # a status said alone after "so"
        ("I started eating fish again, so pescatarian I guess.", (), {(ME, "diet", "pescatarian")}),
        ("I broke up with Tom, so single again.", (), {(ME, "marital_status", "single")}),
        # someone the speaker moved lives where they were moved to
        (
            "We moved grandma to a memory care place closer to us in Columbus.",
            ("My grandma is in a nursing home in Dayton.",),
            {("Mira's grandmother", "residence", "Columbus")},
        ),
        ("We moved the dentist to Friday.", (), set()),  # a day: no one moved
        # the titled one seen now, after a comma, replaces the one held
        (
            "Dr. Alvarez retired, we see Dr. Chen now.",
            ("My daughter's pediatrician is Dr. Alvarez.",),
            {
                ("Dr. Alvarez", "employment_status", "retired"),
                ("Dr. Alvarez", "job_title", "retired"),
                ("Mira's daughter", "pediatrician", "Dr. Chen"),
            },
        ),
        # a weigh-in of the weight held; a number with a day alone is nothing when no weight is held
        ("152 this morning.", ("I weigh 165.",), {(ME, "weight", 152)}),
        ("5 today.", ("I weigh 165.",), set()),
    ],
)
def test_english_roles_floors_statuses_moves_and_weigh_ins(text, recent, expected):
    assert own(text, recent) == expected


def test_english_a_later_day_said_with_now_before_it_moves_the_day_held():
    held = ("My dad's surgery is scheduled for July 9.",)
    assert own("And now it's the 16th. Ugh.", held) == {("Mira's father", "surgery", "2026-03-16")}


@pytest.mark.parametrize(
    "text, recent, expected",
    [
        # an amount bargained down, after when it was
        ("续租的时候砍到3400了。", ("我房租一个月3200。",), {(ME, "rent", 3400)}),
        ("续租时又降到3400了。", ("我房租一个月3200。",), {(ME, "rent", 3400)}),
        # the instrument by its verb; 学 of an instrument stays what one learns
        ("我儿子在学校乐队吹小号。", (), {("Mira的儿子", "instrument", "小号")}),
        ("他今年改吹长号了。", ("我儿子在学校乐队吹小号。",), {("Mira的儿子", "instrument", "长号")}),
        ("我女儿在学小提琴。", (), {("Mira的女儿", "learning", "小提琴")}),
        # the race one prepares for, and another run instead once one is held
        ("我在准备十月的半马。", (), {(ME, "race", "半马")}),
        ("膝盖伤了，改跑10公里了。", ("我在准备十月的半马。",), {(ME, "race", "10公里")}),
        (
            "膝盖好了，还是跑半马。",
            ("我在准备十月的半马。", "膝盖伤了，改跑10公里了。"),
            {(ME, "race", "半马")},
        ),
        ("我每天跑5公里。", (), {(ME, "exercise", "跑5公里")}),  # no race held: a habit
        # 学 of one at college is the major
        (
            "我儿子在读大二，学计算机。",
            (),
            {("Mira的儿子", "grade", "大二"), ("Mira的儿子", "major", "计算机")},
        ),
        ("儿子转专业了，现在学金融。", ("我儿子在读大二，学计算机。",), {("Mira的儿子", "major", "金融")}),
        # what is left before a birth dates it (还有三周 is three weeks from now)
        ("我姐还有三周就生了。", (), {("Mira的姐姐", "due", "2026-03-23")}),
        # a weekday after 每周 is the day, no amount
        (
            "游泳课改到每周四了，时间不变。",
            ("孩子的游泳课是每周二下午五点。",),
            {("Mira的孩子", "游泳课", "每周四")},
        ),
        # a weigh-in of the weight held
        ("今早152。", ("我现在165斤。",), {(ME, "weight", 152)}),
        # a name after a prefix (阿满) is whole; a city gone to where one works now is the home
        ("我发小阿满住我家隔壁小区。", (), {("阿满", "residence", "我家隔壁小区")}),
        (
            "阿满去杭州了，在阿里上班。",
            (FRIEND,),
            {("阿满", "residence", "杭州"), ("阿满", "employer", "阿里")},
        ),
        ("阿满去杭州了，玩得很开心。", (FRIEND,), set()),
        # a car traded in for another, counted by 台 once a car is held
        ("把思域置换了，换了台RAV4双擎。", ("我开的是一辆15年的思域。",), {(ME, "car", "RAV4双擎")}),
        ("我换了台新手机。", (), set()),
        # the doctor seen now replaces the one held
        (
            "阿尔医生退休了，我们现在看陈医生。",
            ("我女儿的儿科医生是阿尔医生。",),
            {("Mira的女儿", "儿科医生", "陈医生")},
        ),
    ],
)
def test_chinese_amounts_pursuits_majors_births_weigh_ins_and_moves(text, recent, expected):
    assert own(text, recent) == expected


def test_chinese_a_gatherings_day_and_place_and_its_place_changed():
    said = "纪念日晚饭订在周六的新荣记。"
    assert own(said) == {(ME, "纪念日晚饭", "2026-03-07"), (ME, "纪念日晚饭.location", "新荣记")}
    assert own("新荣记没订上，改订了甬府。", (said,)) == {(ME, "纪念日晚饭.location", "甬府")}
    assert own("纪念日晚饭订在新荣记。") == {(ME, "纪念日晚饭.location", "新荣记")}
    assert own("纪念日晚餐订在八点。") == {(ME, "纪念日晚餐", "八点")}  # a clock is when, not where


@pytest.mark.parametrize(
    "text, recent, expected",
    [
        (
            "She got traded to the Storm.",
            ("My sister's team is the Hawks.",),
            {("Mira's sister", "team", "the Storm")},
        ),
        # a ride one is on, and the one ride held at a new time whatever the vehicle's word
        ("I'm on the 7:15 ferry every morning.", (), {(ME, "ferry", "7:15")}),
        (
            "Winter schedule, so it's the 7:40 boat now.",
            ("I'm on the 7:15 ferry every morning.",),
            {(ME, "ferry", "7:40")},
        ),
        # an event noun with what it is of ("closing on the house"), slid, then a new day "now"
        ("Closing on the house is June 12.", (), {(ME, "closing", "2026-06-12")}),
        (
            "Lender needs more time, closing slid to June 26.",
            ("Closing on the house is June 12.",),
            {(ME, "closing", "2026-06-26")},
        ),
        (
            "Another delay, now July 2.",
            ("Closing on the house is June 26.",),
            {(ME, "closing", "2026-07-02")},
        ),
    ],
)
def test_english_teams_rides_and_days_that_slide(text, recent, expected):
    assert own(text, recent) == expected


@pytest.mark.parametrize(
    "text, recent, expected",
    [
        ("我妹在上海队打球。", (), {("Mira的妹妹", "球队", "上海队")}),
        ("她被交易到广东队了。", ("我妹在上海队打球。",), {("Mira的妹妹", "球队", "广东队")}),
        # back to the employer the one other person held (the speaker held none)
        (
            "在平安干了两个月，又回招行了。",
            ("我老婆在招行上班。", "她跳槽去了平安。"),
            {("Mira的老婆", "employer", "招行")},
        ),
    ],
)
def test_chinese_teams_and_an_employer_gone_back_to(text, recent, expected):
    assert own(text, recent) == expected


@pytest.mark.parametrize(
    "text, recent, expected",
    [
        # the title someone made the speaker, and a title with its employer said of a job taken
        ("Peet's promoted me to store manager!", (), {(ME, "job_title", "store manager")}),
        ("They made me team lead.", (), {(ME, "job_title", "team lead")}),
        (
            "Left Blue Bottle for a shift lead job at Peet's.",
            ("I'm a barista at Blue Bottle.",),
            {(ME, "job_title", "shift lead"), (ME, "employer", "Peet's")},
        ),
        ("My sister took a nursing job at Mercy.", (), set()),  # not the speaker's
        # a job or an offer taken with no title: the employer
        (
            "just accepted an offer from Ramp, starting monday",
            ("I work at Stripe",),
            {(ME, "employer", "Ramp")},
        ),
        ("got the job at Notion!!", (), {(ME, "employer", "Notion")}),
        ("I didn't take the job at Meta", (), set()),
        # living with the speaker, and a home of one's own; a kin word before a name is a title
        ("My aunt Rosa lives with us.", (), {("Rosa", "residence", "with us")}),
        ("Aunt Rosa got her own apartment in Queens.", (), {("Rosa", "residence", "Queens")}),
        # a wedding's day, moved as "the wedding"
        ("We're getting married next June.", (), {(ME, "wedding", "2027-06")}),
        # "got bumped a week": a week later
        (
            "HOA meeting got bumped a week.",
            ("The HOA meeting is next Tuesday.",),
            {(ME, "hoa_meeting", "2026-03-17")},
        ),
    ],
)
def test_english_titles_given_homes_of_ones_own_weddings_and_bumps(text, recent, expected):
    assert own(text, recent) == expected


@pytest.mark.parametrize(
    "text, recent, expected",
    [
        ("星巴克把我升成店长了！", (), {(ME, "job_title", "店长")}),
        ("去星巴克当值班主管。", (), {(ME, "employer", "星巴克"), (ME, "job_title", "值班主管")}),
        ("我去医院做检查。", (), set()),  # 做检查 is no work
        ("我小姨跟我们一起住。", (), {("Mira的小姨", "residence", "跟我们一起")}),
        (
            "小姨在昌平自己租了套房子，搬出去了。",
            ("我小姨跟我们一起住。",),
            {("Mira的小姨", "residence", "昌平")},
        ),
        ("我们明年六月结婚。", (), {(ME, "结婚.date", "2027-06")}),
        ("我和男朋友下周六领证。", (), {(ME, "领证.date", "2026-03-14")}),  # with whom is no key
        (
            "女儿这周升初中了，去了外国语学校。",
            ("我女儿在实验小学上学。",),
            {("Mira的女儿", "school", "外国语学校")},
        ),
        ("我去了趟学校。", (), set()),
    ],
)
def test_chinese_titles_given_homes_weddings_and_schools(text, recent, expected):
    assert own(text, recent) == expected


@pytest.mark.parametrize(
    "text, recent, expected",
    [
        ("Turned 30 yesterday!", ("I'm 29.",), {(ME, "age", 30)}),  # a past verb opening, then a number
        (  # a renewal good for years, of the one expiry held
            "Renewed it, the new one's good for ten years.",
            ("My license expires next month.",),
            {(ME, "license.expiry", "2036-03-02")},
        ),
        ("My in-laws are visiting the weekend of the 18th.", (), {("Mira's in laws", "visit", "2026-03-18")}),
        ("昨天满30了！", ("我今年29。",), {(ME, "age", 30)}),
        ("积分满100了。", (), set()),
        (
            "驾照已经换好了，新的有效期十年。",
            ("我的驾照下个月到期。",),
            {(ME, "driver_license.expiry", "2036-03-02")},
        ),
    ],
)
def test_ages_turned_renewals_and_a_weekend_of_a_day(text, recent, expected):
    assert own(text, recent) == expected


@pytest.mark.parametrize(
    "text, recent, expected",
    [
        ("写反了，是3B-41。", ("我的工位是3B-14。",), {(ME, "工位", "3B-41")}),  # 写反 corrects
        ("Oops, 3B-41, I flipped the digits.", ("My desk is 3B-14.",), {(ME, "desk", "3B-41")}),
        ("我现在常驻成都了，公司在那开了分部。", (), {(ME, "residence", "成都")}),
        ("成都待不惯，申请调回重庆了，已经批了。", (), {(ME, "residence", "重庆")}),
        ("申请调回重庆了，还没消息。", (), set()),  # asked, not granted
        (
            "嫂子跳去京东了，还在北京。",
            ("我嫂子在美团总部上班。",),
            {("Mira的嫂子", "employer", "京东"), ("Mira的嫂子", "residence", "北京")},
        ),
        (
            "我们结婚纪念日九月去三亚。",
            (),
            {(ME, "结婚纪念日.date", "2026-09"), (ME, "结婚纪念日.location", "三亚")},
        ),
        (
            "计划变了，改去西双版纳。",
            ("我们结婚纪念日九月去三亚。",),
            {(ME, "结婚纪念日.location", "西双版纳")},
        ),
    ],
)
def test_codes_corrected_postings_granted_jumps_and_trips(text, recent, expected):
    assert own(text, recent) == expected


@pytest.mark.parametrize(
    "text, recent, expected",
    [
        ("We close on the new condo in 45 days.", (), {(ME, "condo.close", "2026-04-16")}),
        ("外甥上周开学升五年级了。", ("我外甥在上四年级。",), {("Mira的外甥", "grade", "五年级")}),
        (
            "我继父在跑货拉拉。",
            (),
            {("Mira的继父", "employer", "货拉拉"), ("Mira的继父", "job_title", "跑货拉拉")},
        ),
        (
            "继父不跑货拉拉了，现在做空调维修。",
            ("我继父在跑货拉拉。",),
            {("Mira的继父", "job_title", "空调维修")},
        ),
        ("我老公在做外贸。", (), {("Mira的老公", "job_title", "外贸")}),
        ("我在做饭。", (), set()),  # cooking is no trade
    ],
)
def test_closings_grades_after_term_starts_gig_platforms_and_trades(text, recent, expected):
    assert own(text, recent) == expected


def test_a_sweet_16_is_an_age_and_an_anniversary_is_none():
    assert own("Ivy had her sweet 16 last weekend!", ("My daughter Ivy is 15.",)) == {("Ivy", "age", 16)}
    assert own("We had our 10th anniversary.") == set()
    assert own("Mom celebrated her 60th yesterday.") == {("Mira's mother", "age", 60)}


@pytest.mark.parametrize(
    "text, recent, expected",
    [
        # an adverb that opens a sentence is no name; a home of one's own got
        ("Finally got my own studio in Long Island City!", (), {(ME, "residence", "Long Island City")}),
        # extended: someone moved a deadline held, named by its thing's head word
        (
            "They extended registration to April 24.",
            ("Soccer registration deadline is April 10.",),
            {(ME, "soccer_registration.deadline", "2026-04-24")},
        ),
        ("我在望京合租一个单间。", (), {(ME, "residence", "望京")}),
        ("终于在酒仙桥租了个自己的开间！", (), {(ME, "residence", "酒仙桥")}),
        ("足球报名截止到4月10号。", (), {(ME, "足球报名.deadline", "2026-04-10")}),
        (
            "报名截止延长到4月24号了。",
            ("足球报名截止到4月10号。",),
            {(ME, "足球报名.deadline", "2026-04-24")},
        ),
    ],
)
def test_homes_got_deadlines_extended_and_rooms_rented(text, recent, expected):
    assert own(text, recent) == expected


def test_a_relative_back_from_a_trip_is_an_arrival():
    assert own("我老婆半个月后出差回来。") == {("Mira的老婆", "arrive", "2026-03-17")}  # 15 days on
    assert own("我下周三去上海出差。") == {(ME, "上海出差.date", "2026-03-11")}  # the speaker's own trip


def test_a_name_and_their_relative_are_one_subject_of_two_people():
    assert own("Tom and his wife moved to Reno.") == {
        ("Tom", "residence", "Reno"),
        ("Tom's wife", "residence", "Reno"),
    }


def test_chinese_weigh_ins_said_bare_and_a_difference_is_no_weight():
    held = ("今天开始减肥！现在142斤，目标120",)
    assert own("今天称129.5，终于破130了", held, "佳佳") == {("佳佳", "weight", "129.5")}
    # a correction of the weight in the held unit
    said = own("不对不对 刚才没脱外套，重新称了一下是135", (*held, "一个月瘦了6斤！136了"), "佳佳")
    assert ("佳佳", "weight", "135斤") in said
    # how much to lose, said bare, is no weight (half the held one or less)
    assert own("加油！22斤，按每月4到5斤来算", held, "佳佳") == set()


def test_english_weigh_ins_with_a_label_a_unit_or_after_a_comma():
    assert own("day 1. starting weight 92 kg, goal is 85 by june.") == {(ME, "weight", "92 kg")}
    said = facts_of("weigh in: 88.4 kg!!", ("day 1. starting weight 92 kg",))
    assert said == {(ME, "weight", "88.4 kg")}
    moved = own("plateau finally broke, 86.5 this morning", ("weigh in: 88.4 kg!!",))
    assert moved == {(ME, "weight", "86.5 kg")}


def test_a_goals_day_is_no_start_of_the_weight_said_before_it():
    delta = extract("starting weight 92 kg, goal is 85 by june")
    (weight,) = [f for f in delta.facts if f.attribute == "weight"]
    assert weight.valid_from is None or weight.valid_from.month != 6
