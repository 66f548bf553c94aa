"""The offline rule extractor on a new boss, a weight that changes, and a rent raised from next month,
said the way people say them: 我现在归李总管, "so now my boss is Tom", "Down to 85 kg!", 瘦到85了,
"raised it to $1,950 starting next month", 房东涨房租了，下个月开始5000."""

from __future__ import annotations

from datetime import UTC, datetime

from extract_helpers import NOW, extract, facts, own

ZH = "小山"


def test_whom_one_reports_to_in_chinese_is_ones_manager():
    assert own("部门调整，我现在归李总管。", speaker=ZH) == {(ZH, "manager", "李总")}
    assert own("我现在向老陈汇报。", speaker=ZH) == {(ZH, "manager", "老陈")}
    assert own("现在我的领导是老陈。", speaker=ZH) == {(ZH, "manager", "老陈")}
    assert own("这事归我管。", speaker=ZH) == set()  # 我 is no manager of one's own


def test_a_statement_after_so_now_following_a_comma():
    said = own("Priya left the company, so now my boss is Tom.", ("My manager is Linda.",), "Sam")
    assert said == {("Sam", "manager", "Tom")}


def test_a_weight_said_again_without_a_subject_is_the_new_weight():
    first = "I weigh 92 kilos right now, trying to lose some."
    assert own(first, speaker="Vic") == {("Vic", "weight", "92 kilos")}  # the participle's clause is no value
    assert own("Down to 85 kg!", (first,), "Vic") == {("Vic", "weight", "85 kg")}
    assert own("Hit 80 kilos this morning.", (first, "Down to 85 kg!"), "Vic") == {
        ("Vic", "weight", "80 kilos")
    }
    assert own("瘦到85了！", ("我现在92公斤，准备减肥。",), ZH) == {(ZH, "weight", 85)}


def test_a_rent_raised_from_next_month_holds_from_next_month():
    raised = extract(
        "Landlord raised it to $1,950 starting next month.", ("My rent is $1,800 a month.",), "Wes"
    )
    (fact,) = [f for f in raised.facts if f.said_in is None]
    assert (fact.subject, fact.attribute, fact.value) == ("Wes", "rent", "$1,950 a month")
    assert fact.valid_from == datetime(2026, 4, 1, tzinfo=UTC)  # said on 2 March: April, not a year ago
    raised = extract("房东涨房租了，下个月开始5000。", ("我房租一个月4500。",), ZH)
    (fact,) = [f for f in raised.facts if f.said_in is None]
    assert (fact.subject, fact.attribute, fact.value) == (ZH, "rent", 5000)
    assert fact.valid_from == datetime(2026, 4, 1, tzinfo=UTC) and NOW.month == 3
    # a part after 又换了 is read by its own words (又 names no attribute)
    moved = own("又换了，现在在上海一家基金公司。", ("我在南京的一家银行上班。",), ZH)
    assert moved == {(ZH, "employer", "上海一家基金公司")}


def test_an_appointment_said_without_a_verb_and_moved_by_someone_else():
    tuesday = "2026-03-10T15:00:00Z"  # next Tuesday at 3pm, said on Monday 2 March
    assert own("Dentist appointment next Tuesday at 3pm.") == {("Mira", "dentist.appointment", tuesday)}
    assert own("I have a dentist appointment next Tuesday at 3pm.") == {
        ("Mira", "dentist.appointment", tuesday)
    }
    assert own("I've got a job interview on Friday.") == {("Mira", "job_interview", "2026-03-06")}
    assert own("I had a dentist appointment last Tuesday.") == set()  # past: no appointment to keep
    assert own("I don't have a meeting on Friday.") == set()
    moved = own(
        "They called to push the dentist to Thursday, same time.",
        ("Dentist appointment next Tuesday at 3pm.",),
    )
    assert moved == {("Mira", "dentist.appointment", "2026-03-05T15:00:00Z")}  # the held clock kept


def test_no_longer_at_a_place_then_where_now_in_chinese():
    wife = "我老婆在协和医院当护士。"
    assert own("她现在不在协和了，去了一家私立诊所。", (wife,), "小叶") == {
        ("小叶的老婆", "employer", "一家私立诊所")
    }
    mine = "我在协和医院当护士。"
    assert own("我不在协和了，去了一家私立诊所。", (mine,), "小叶") == {("小叶", "employer", "一家私立诊所")}
    assert own("我不在家了。", (mine,), "小叶") == set()  # no place of theirs named


def test_an_event_said_in_the_progressive_is_the_same_event():
    # said on Monday 2 March: in three days is Thursday the 5th
    assert own("The plumber is coming in three days.") == {("Mira", "plumber.come", "2026-03-05")}
    assert own("The plumber comes in three days.") == {("Mira", "plumber.come", "2026-03-05")}
    assert own("We are flying to Oslo on Friday.") == {("Mira", "oslo.fly", "2026-03-06")}
    assert own("The movers are coming on Friday.") == {("Mira", "movers.come", "2026-03-06")}


def test_an_events_day_and_place_and_a_new_place_for_it():
    wedding = "Our wedding is set for June 14 at the lake house."
    assert own(wedding, speaker="Pia") == {
        ("Pia", "wedding", "2026-06-14"),
        ("Pia", "wedding.location", "lake house"),
    }
    assert own("The party is at the beach house on Saturday.", speaker="Pia") == {
        ("Pia", "party", "2026-03-07"),
        ("Pia", "party.location", "beach house"),
    }
    moved = own("Venue update: we're doing it at the botanical garden instead.", (wedding,), "Pia")
    assert moved == {("Pia", "wedding.location", "botanical garden")}
    assert own("Venue update: we're doing it at the botanical garden instead.", speaker="Pia") == set()
    assert own("My mom is in the hospital until Friday.", speaker="Pia") == set()  # no event's place


def test_a_trade_in_is_the_new_value_of_the_one_traded():
    moved = own("Traded the Civic in for a Tesla Model 3.", ("I drive a 2015 Civic.",), "Omar")
    assert moved == {("Omar", "car", "Tesla Model 3")}
    assert own("I quit smoking for my health.", speaker="Omar") == set()  # "for" takes nothing up


def test_one_more_of_a_held_count_adds_to_it():
    cats = "We have two cats."
    assert own("We adopted another cat, Pepper!", (cats,), "Dan") == {("Dan", "cats.count", 3)}
    assert own("We adopted a third cat, Pepper!", (cats,), "Dan") == {("Dan", "cats.count", 3)}
    assert own("We don't want another cat.", (cats,), "Dan") == set()
    assert own("Thinking about a third cat.", (cats,), "Dan") == set()
    assert own("Got two more chickens this week.", ("We have four chickens.",), "Dan") == {
        ("Dan", "chickens.count", 6)
    }
    zh = "我们家养了两只猫。"
    assert own(zh, speaker="小丹") == {("小丹", "猫.count", 2)}
    assert own("又领养了一只猫，叫胡椒！", (zh,), "小丹") == {("小丹", "猫.count", 3)}
    assert own("又领养了一只猫，叫胡椒！现在三只了。", (zh,), "小丹") == {("小丹", "猫.count", 3)}


def test_a_day_moved_the_same_time_and_a_booking_after_a_correction():
    conference = "Parent-teacher conference is on the 15th at 4pm."
    assert own(conference, speaker="Gia") == {("Gia", "parent_teacher_conference", "2026-03-15T16:00:00Z")}
    moved = own("The school emailed: conference moved to the 17th, same time.", (conference,), "Gia")
    assert moved == {("Gia", "parent_teacher_conference", "2026-03-17T16:00:00Z")}
    dinner = "Our anniversary dinner is at Marlow's."
    fixed = own("Scratch that, Marlow's is closed that night, we booked Bistro Vue.", (dinner,), "Jay")
    assert fixed == {("Jay", "anniversary_dinner", "Bistro Vue")}


def test_a_relative_who_sells_a_thing_in_chinese_is_its_owner():
    said = own("表姐把丰田卖了，换了一辆比亚迪。", ("我表姐开的是一辆白色的丰田。",), "冯涛")
    assert said == {("冯涛的表姐", "car", "比亚迪")}


def test_what_one_teaches_and_a_line_of_work_by_its_field_in_chinese():
    assert own("我老公教数学。", speaker="小艾") == {("小艾的老公", "teaching", "数学")}
    assert own("我在教钢琴。", speaker="小艾") == {("小艾", "teaching", "钢琴")}
    assert own("我现在做销售。", speaker="小艾") == {("小艾", "job_title", "销售")}
    changed = own("我老公转行了，现在做软件测试。", ("我老公教数学。",), "小艾")
    assert changed == {("小艾的老公", "job_title", "软件测试")}
    assert facts("我妈教我做饭。", speaker="小艾") == set()  # 教我 is no name of the mother's


def test_a_fee_a_celebrated_age_a_correction_after_a_date_and_an_instrument_put_down():
    fee = "My gym membership costs $40 a month."
    assert own(fee, speaker="Milo") == {("Milo", "gym_membership", "$40 a month")}  # the fee, not the gym
    hiked = own("They hiked the membership to $55.", (fee,), "Milo")
    assert hiked == {("Milo", "gym_membership", "$55 a month")}  # a new amount in the held one's form
    down = own("Negotiated it down to $45, finally.", (fee, "They hiked the membership to $55."), "Milo")
    assert down == {("Milo", "gym_membership", "$45 a month")}
    bob = own("We celebrated Uncle Bob's 65th last weekend.", ("My uncle Bob is 64.",), "Lena")
    assert bob == {("Bob", "age", 65)}  # "Uncle Bob" is the Bob named before
    assert own("It was my 3rd attempt.", speaker="Lena") == set()  # an ordinal alone is no birthday
    due = own("Wait no, August 13, I typed it wrong.", ("My sister's due date is August 3.",), "Otto")
    assert due == {("Otto's sister", "deadline", "2026-08-13")}
    cello = own(
        "I put the guitar down and picked up the cello.", ("I've been learning guitar for a year.",), "Pax"
    )
    assert cello == {("Pax", "learning", "cello")}
    assert own("我学吉他一年了。", speaker="小派") == {("小派", "learning", "吉他")}


def test_an_age_just_reached_without_a_subject_in_chinese():
    assert own("昨天刚满35岁！", ("我今年34岁。",), "小希") == {("小希", "age", 35)}


def test_homes_rented_a_pet_spoken_of_as_it_and_a_role_that_opens_a_sentence():
    assert own("We're renting a two-bedroom in Oakland.", speaker="Jill") == {
        ("Jill", "residence", "Oakland")
    }
    assert own("我们在奥克兰租了个两居室。", speaker="小吉") == {("小吉", "residence", "奥克兰")}
    rex = ("My dog Rex weighs 30 pounds.", "Rex is up to 34 pounds.")
    assert own("Vet put Rex on a diet, he's down to 31 pounds.", rex, "Kai") == {
        ("Rex", "weight", "31 pounds")
    }
    dog = ("我家狗雷克斯13公斤。", "雷克斯涨到15公斤了。")
    assert own("兽医让它减肥，现在14公斤。", dog, "小凯") == {("雷克斯", "weight", "14公斤")}
    assert own("Doctor upped my metformin to 1000 mg.", ("I take metformin 500 mg.",), "Moe") == {
        ("Moe", "metformin", "1000 mg")
    }
    left = own("她离开图书馆了，现在在市中心管一家书店。", ("我老婆奥尔加在市图书馆上班。",), "老伊")
    assert left == {("奥尔加", "employer", "一家书店")}


def test_a_daycare_and_the_school_a_grade_is_started_at():
    assert own("My son's daycare is Little Sprouts on Elm.", speaker="Rosa") == {
        ("Rosa's son", "school", "Little Sprouts on Elm")
    }
    started = own(
        "He started kindergarten at Maple Elementary this week.",
        ("My son's daycare is Little Sprouts.",),
        "Rosa",
    )
    assert started == {("Rosa's son", "grade", "kindergarten"), ("Rosa's son", "school", "Maple Elementary")}
    assert own("我儿子在小树苗托儿所。", speaker="小罗") == {("小罗的儿子", "school", "小树苗托儿所")}
    later = own("他这周开始上枫叶小学了。", ("我儿子在小树苗托儿所。",), "小罗")
    assert later == {("小罗的儿子", "school", "枫叶小学")}


def test_bedtimes_and_the_time_one_gets_up():
    assert own("I go to bed around 11.", speaker="Xena") == {("Xena", "bedtime", 11)}
    assert own("I usually wake up at 6:30.", speaker="Xena") == {("Xena", "wake_time", "6:30")}
    assert own("我一般11点睡觉。", speaker="小仙") == {("小仙", "bedtime", "11点")}
    assert own("在调作息，现在10点就睡了。", ("我一般11点睡觉。",), "小仙") == {("小仙", "bedtime", "10点")}
    assert own("我每天7点起床。", speaker="小仙") == {("小仙", "wake_time", "7点")}
    assert own("我昨天睡了。", speaker="小仙") == set()  # no clock: no bedtime


def test_a_home_one_is_cared_for_in_and_moving_in_with_relatives():
    assert own("My grandpa is in a nursing home in Dayton.", speaker="Fin") == {
        ("Fin's grandfather", "residence", "nursing home in Dayton")
    }
    assert own("Mom is in assisted living now.", speaker="Fin") == {
        ("Fin's mother", "residence", "assisted living")
    }
    assert own("My sister is in a bad mood.", speaker="Fin") == set()
    assert own("Grandpa moved in with my parents last week.", speaker="Fin") == {
        ("Fin's grandfather", "residence", "with my parents")
    }
    assert own("Grandpa moved in with my aunt in Phoenix.", speaker="Fin") == {
        ("Fin's grandfather", "residence", "Phoenix")
    }
