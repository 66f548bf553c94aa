"""A held day moved by an amount ("Lina's flight got pushed back two days", 出差推迟了两天), arrivals of a
named person ("my sister Lina flies in next Wednesday"), times that recur held as their words ("every
Saturday at 10am", 每周六上午十点) and corrected by a time, a car named by its kind ("sold the truck"),
and the jobs and statuses that say what someone does now (去县城当保安, 退休)."""

from __future__ import annotations

from extract_helpers import facts, own

ZH = "小杨"
LINA = "My sister Lina flies in next Wednesday!"


def test_a_named_person_arrives_on_a_day():
    assert ("Lina", "arrive", "2026-03-11") in own(LINA)
    assert own("Lina arrives next Wednesday.") == {("Lina", "arrive", "2026-03-11")}
    # a parent called by the word is the speaker's; flying out is leaving
    assert own("Mom comes home next Monday.") == {("Mira's mother", "come_home", "2026-03-09")}
    assert own("I fly out next Wednesday.") == {("Mira", "leave", "2026-03-11")}


def test_a_held_day_moved_by_an_amount_of_time():
    assert own("Lina's flight got pushed back two days.", (LINA,)) == {("Lina", "arrive", "2026-03-13")}
    assert own("Her flight was moved up a day.", (LINA,)) == {("Lina", "arrive", "2026-03-10")}
    # a moment moves by hours; the clock stays with the day when days move
    meeting = "The team meeting is Thursday at 3pm."
    assert own("Meeting got pushed back an hour.", (meeting,)) == {
        ("Mira", "team_meeting", "2026-03-05T16:00:00Z")
    }
    assert own("出差推迟了两天。", ("我下周三去北京出差。",), ZH) == {(ZH, "北京出差.date", "2026-03-13")}
    assert own("体检提前一天。", ("体检约在下周五上午九点。",), ZH) == {
        (ZH, "checkup", "2026-03-12T09:00:00Z")
    }


def test_a_shift_that_names_no_one_fact_moves_none():
    two = (LINA, "My dentist appointment is next Friday.")
    assert own("It got pushed back two days.", two) == set()  # which of two: not guessed
    # a day held without a clock is not moved by hours
    assert own("It got pushed back an hour.", (LINA,)) == set()
    assert own("The flight got pushed back two days.", ()) == set()  # nothing held


def test_a_time_that_recurs_is_held_as_its_words():
    assert own("Piano lesson is every Saturday at 10am.") == {
        ("Mira", "piano_lesson", "every Saturday at 10am")
    }
    assert own("I have a piano lesson every Saturday at 10am.") == {
        ("Mira", "piano_lesson", "every Saturday at 10am")
    }
    assert own("Yoga is Tuesdays at 6pm.") == {("Mira", "yoga", "Tuesdays at 6pm")}
    assert own("我女儿的钢琴课是每周六上午十点。", (), "阿美") == {("阿美的女儿", "钢琴课", "每周六上午十点")}


def test_a_time_that_recurs_is_corrected_or_changed_by_a_time():
    held = "My daughter's piano lesson is every Saturday at 10am."
    assert own("Sorry, I misremembered, it's at 3pm.", (held,)) == {
        ("Mira's daughter", "piano_lesson", "3pm")
    }
    assert own("Sorry, I misremembered, piano lesson is Saturdays at 3pm.", (held,)) == {
        ("Mira's daughter", "piano_lesson", "Saturdays at 3pm")
    }
    corrected = own("我记错了，钢琴课是周六下午三点。", ("我女儿的钢琴课是每周六上午十点。",), "阿美")
    assert corrected == {("阿美的女儿", "钢琴课", "2026-03-07T15:00:00Z")}
    # 换到 is a change of the held key; the season said first is no part of the attribute
    moved = own("钢琴课换到周日下午了。", ("我儿子的钢琴课是每周六上午。",), "小蒋")
    assert {(s, a) for s, a, _ in moved} == {("小蒋的儿子", "钢琴课")}
    season = own("乐乐这赛季的训练改到每周四六点了。", ("我儿子乐乐的足球训练是每周二五点。",), "老芬")
    assert season == {("乐乐", "足球训练", "每周四六点")}


def test_a_weekly_time_moved_is_its_words_and_keeps_the_key_the_grammar_read():
    assert own("my piano lesson is on tuesdays at 6pm") == {("Mira", "piano_lesson", "tuesdays at 6pm")}
    assert own("my yoga class is on saturdays") == {("Mira", "yoga_class", "saturdays")}
    first = "Started adult piano lessons! Tuesdays 6pm with a teacher named Carol."
    moved = "Carol is moving my lesson to Wednesdays at 5:30, she picked up another student on tuesdays"
    assert own(moved, (first,)) == {("Mira", "lesson", "Wednesdays at 5:30")}  # not Carol's "schedule"
    later = "carol and i settled on thursdays 5:30 instead starting next week"
    assert own(later, (first, moved)) == {("Mira", "lesson", "thursdays 5:30")}


def test_a_car_named_by_its_kind_and_what_someone_owns_is_no_person():
    dad = "My dad drives a Ford F-150."
    assert own("Dad finally sold the truck and got a Prius.", (dad,), "Owen") == {
        ("Owen's father", "car", "Prius")
    }
    prius = (dad, "Dad finally sold the truck and got a Prius.")
    later = "Dad's Prius got totaled, he's driving my mom's old Civic for now."
    assert own(later, prius, "Owen") == {("Owen's father", "car", "Civic")}
    assert own("The Prius got totaled. He's driving a Civic for now.", prius, "Owen") == {
        ("Owen's father", "car", "Civic")
    }
    # "the truck" names no held value of another key
    assert own("Dad sold the truck and got a dog.", ("My dad's job title is plumber.",), "Owen") == set()


def test_what_someone_does_now_in_chinese():
    assert own("我爸去县城当保安了。", (), ZH) == {(f"{ZH}的爸爸", "job_title", "保安")}
    assert own("我爸在老家种地。", (), ZH) == {(f"{ZH}的爸爸", "job_title", "种地")}
    before = ("我爸在老家种地。", "我爸去县城当保安了。")
    # retired is what he does now; 在家 is at home, no name
    assert facts("我爸现在退休在家带孙子。", before, ZH) == {
        (f"{ZH}的爸爸", "employment_status", "退休"),
        (f"{ZH}的爸爸", "job_title", "退休"),
    }


def test_a_day_moved_earlier_or_later_by_an_amount_said_after_it():
    lisbon = "We're flying to Lisbon next Friday."
    assert own(lisbon) == {("Mira", "lisbon.fly", "2026-03-06")}  # "we're": the contraction is read
    assert own("The airline moved our flight a day earlier.", (lisbon,)) == {
        ("Mira", "lisbon.fly", "2026-03-05")
    }
    # 提前一天 is an amount, not 前一天 (the day before); 下周五 is 13 March
    assert own("机票改签了，提前一天走。", ("我们下周五去三亚。",), ZH) == {(ZH, "三亚.date", "2026-03-12")}
    # a day moved to a day is the grammar's, as before
    assert own("They pushed the recital to next Saturday.", ("The piano recital is on May 9.",)) == {
        ("Mira", "piano_recital", "2026-03-07")
    }


def test_a_schedule_that_moves_to_another_time_that_recurs():
    held = "Soccer practice is Tuesdays at 5."
    moved = {("Mira", "soccer_practice", "Wednesdays at 6")}
    assert own("Fall schedule: soccer practice moves to Wednesdays at 6.", (held,)) == moved


def test_a_deadline_that_slid_an_exam_rebooked_and_the_train_one_catches_now():
    held = "Our project deadline is March 20."
    slid = own("Client asked for more time, the deadline slid to April 3.", (held,))
    assert slid == {("Mira", "project.deadline", "2026-04-03")}
    assert own("雅思改约到5月2号了。", ("我的雅思考试在4月18号。",), ZH) == {(ZH, "雅思考试", "2026-05-02")}
    train = "I catch the 7:15 train every morning."
    assert own(train) == {("Mira", "train", "7:15")}
    # the one held, and a phrase before the subject is no subject
    assert own("With the new schedule I catch the 7:40 now.", (train,)) == {("Mira", "train", "7:40")}
    assert own("I catch the 7:40 now.") == set()  # no ride held: which one is not guessed
    subway = "我每天坐7点15的地铁。"
    assert own("换了新工作，现在坐7点40那班。", (subway,), ZH) == {(ZH, "地铁.time", "7点40")}


def test_living_at_a_street_number_is_an_address():
    assert own("We live at 14 Elm Street, apartment 3B.") == {
        ("Mira", "address", "14 Elm Street, apartment 3B")
    }
    assert own("We live in Leeds.") == {("Mira", "residence", "Leeds")}


def test_a_head_nurse_exam_passed_and_a_business_of_ones_own():
    sister = "我姐在协和医院当护士。"
    assert own("我姐考上护士长了。", (sister,), ZH) == {(f"{ZH}的姐姐", "job_title", "护士长")}
    # 离开 is no name after 我姐; what she does now is the clinic she opened
    opened = own("我姐离开医院，自己开了家诊所。", (sister,), ZH)
    assert opened == {(f"{ZH}的姐姐", "job_title", "开了家诊所")}
    assert own("我考上研究生了。", (), ZH) == set()  # a place of study passed into is no job


def test_a_move_said_after_what_led_to_it_and_a_check_up_at_a_place():
    held = "My doctor's appointment is on the 14th."
    moved = own("Clinic called, they need to move it to the 21st.", (held,))
    assert moved == {("Mira", "doctors.appointment", "2026-03-21")}
    # 去医院复查 is the check-up (复查), not the hospital, so 复查改到… finds it
    assert own("我14号去医院复查。", (), ZH) == {(ZH, "复查.date", "2026-03-14")}
    assert own("复查改到21号了。", ("我14号去医院复查。",), ZH) == {(ZH, "复查.date", "2026-03-21")}


def test_a_flight_named_with_its_day_and_someone_elses_day_after():
    assert own("booked lisbon!! TAP flight on march 19, leaves newark 6:55pm") == {
        ("Mira", "flight", "2026-03-19")
    }
    held = ("TAP flight on march 19",)
    said = own("my coworker Ben flies out the day after me bc he has a client thing", held)
    assert not any(a == "flight" for _, a, _ in said)  # Ben's day after, not the speaker's flight moved
    assert own("they moved it to the day after", held) == {("Mira", "flight", "2026-03-20")}
