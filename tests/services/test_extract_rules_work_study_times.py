"""The offline rule extractor on work, study and times said the way people say them: a job at "a place
called X", being hired as, shifts, what one is learning, a school with its field, kindergarten classes, a
birthday's age, a day of the month said alone (14号), a booking's hour kept as said and its correction —
each with sentences that must give no such fact."""

from __future__ import annotations

import pytest
from extract_helpers import NOW, extract, facts, own

ZH = "小林"


@pytest.mark.parametrize(
    "text, expected",
    [
        (
            "I'm a barista at a little place called Bean Scene.",
            {("Mira", "job_title", "barista"), ("Mira", "employer", "Bean Scene")},
        ),
        (
            "Big news: I got hired as a junior designer at Pixelworks.",
            {("Mira", "job_title", "junior designer"), ("Mira", "employer", "Pixelworks")},
        ),
        ("I got a job as a nurse.", {("Mira", "job_title", "nurse")}),
        ("The move went fine, we're settled in York now.", {("Mira", "residence", "York")}),
        ("My husband works nights at the hospital.", {("Mira's husband", "shift", "nights")}),
        ("My husband finally got moved to day shifts.", {("Mira's husband", "shift", "day shifts")}),
        ("I'm learning Spanish.", {("Mira", "learning", "Spanish")}),
        ("We celebrated Grandpa's 90th birthday yesterday.", {("Mira's grandfather", "age", 90)}),
        ("It's my 30th birthday today!", {("Mira", "age", 30)}),
    ],
)
def test_english_jobs_homes_shifts_learning_and_ages(text, expected):
    assert own(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "I'm a mess.",
        "I need to fix my bike.",
        "We're planning Mom's 50th birthday.",
        "I'd love to work nights someday?",
    ],
)
def test_english_sentences_with_no_such_fact(text):
    assert not {f for f in own(text) if f[1] in ("job_title", "age", "shift")}


def test_a_booking_hour_is_kept_as_said_and_a_small_fix_corrects_it():
    booked = "Our anniversary dinner is booked at Luca's for 8pm."
    assert own(booked) == {("Mira", "anniversary_dinner", "8pm")}
    fixed = own("Small fix: the booking is at 7:30, not 8.", (booked,))
    assert fixed == {("Mira", "anniversary_dinner", "7:30")}
    assert own("Sorry, the booking is at 7:30pm, not 8.", (booked,)) == {
        ("Mira", "anniversary_dinner", "7:30pm")
    }


@pytest.mark.parametrize(
    "text, expected",
    [
        ("我老公在医院上夜班。", {(f"{ZH}的老公", "shift", "夜班")}),
        ("我老公终于调成白班了。", {(f"{ZH}的老公", "shift", "白班")}),
        ("我在练吉他。", {(ZH, "learning", "吉他")}),
        ("我女儿莉莉在复旦读生物。", {("莉莉", "school", "复旦"), ("莉莉", "major", "生物")}),
        ("我妹在实验中学读高二。", {(f"{ZH}的妹妹", "school", "实验中学"), (f"{ZH}的妹妹", "grade", "高二")}),
        ("我在人大读研究生。", {(ZH, "school", "人大")}),
        ("我儿子在上幼儿园大班。", {(f"{ZH}的儿子", "grade", "幼儿园大班")}),
        ("昨天给爷爷过了90大寿。", {(f"{ZH}的爷爷", "age", 90)}),
        ("搬家很顺利，现在在苏州安顿下来了。", {(ZH, "residence", "苏州")}),
        ("纪念日晚餐订在八点。", {(ZH, "纪念日晚餐", "八点")}),
        ("我去成都的高铁是14号。", {(ZH, "去成都高铁", "2026-03-14")}),
        ("我在家学做饭。", set()),  # no employer called 家学
        ("我在北大读书。", {(ZH, "school", "北大")}),  # 读书 names no field
    ],
)
def test_chinese_shifts_study_ages_homes_and_days(text, expected):
    assert own(text, speaker=ZH) == expected


def test_chinese_corrections_of_a_day_and_of_an_hour_kept_as_said():
    train = "我去成都的高铁是14号。"
    assert own("看错了，是16号不是14号。", (train,), speaker=ZH) == {(ZH, "去成都高铁", "2026-03-16")}
    dinner = "纪念日晚餐订在八点。"
    assert own("更正一下，订的是七点半。", (dinner,), speaker=ZH) == {(ZH, "纪念日晚餐", "七点半")}


@pytest.mark.parametrize("text", ["我住在3号楼。", "我坐5号线上班。", "我的地址是朝阳区望京街5号。"])
def test_a_number_before_hao_that_names_no_day_is_no_date(text):
    assert not any(str(v).startswith("2026-") for _, _, v in facts(text, speaker=ZH))


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Theo started at Oakridge Middle School this fall.", {("Theo", "school", "Oakridge Middle School")}),
        ("I got posted to Boston.", {("Mira", "work_location", "Boston")}),
        ("Transferred to our Chicago office.", {("Mira", "work_location", "Chicago")}),
        ("We moved to the Paris office.", {("Mira", "work_location", "Paris")}),
        ("Ahmed moved to the Paris office.", {("Ahmed", "work_location", "Paris")}),
        ("The wifi password is sunflower22.", {("Mira", "wifi_password", "sunflower22")}),
        ("The weather is sunflower22.", set()),  # no code, no attribute the speaker holds
    ],
)
def test_english_schools_posts_and_codes(text, expected):
    assert own(text) == expected


def test_english_corrections_by_typo_misremembering_and_a_new_reading():
    assert own("Typo, it's sunflower23.", ("The wifi password is sunflower22.",)) == {
        ("Mira", "wifi_password", "sunflower23")
    }
    assert own("Hit 84 kg this morning.", ("I weigh 88 kg.",)) == {("Mira", "weight", "84 kg")}
    # an assistant's "Noted." is no person for "his" to mean
    fixed = own(
        "Ugh, I mixed it up — his birthday is May 21.",
        ("My son's birthday is May 12.", ("assistant", "Noted.")),
    )
    assert fixed == {("Mira's son", "birthday", "2026-05-21")}


@pytest.mark.parametrize(
    "text, expected",
    [
        ("表妹终于在武汉租了自己的房子。", {(f"{ZH}的表妹", "residence", "武汉")}),
        ("儿子今年秋天上了橡树中学。", {(f"{ZH}的儿子", "school", "橡树中学")}),
        ("今早称了84公斤。", {(ZH, "weight", "84公斤")}),
    ],
)
def test_chinese_homes_schools_and_weights(text, expected):
    assert own(text, speaker=ZH) == expected


def test_this_year_dates_nothing_within_it():
    (fact,) = [f for f in extract("儿子今年秋天上了橡树中学。", speaker=ZH).facts if f.attribute == "school"]
    assert fact.valid_from == NOW  # not 1 January: a later message must not date before an earlier one


def test_two_people_said_together_both_get_the_fact_and_a_name_read_on_after_a_comma():
    assert own("Kim and Lou got married in September!") == {
        ("Kim", "marital_status", "married"),
        ("Lou", "marital_status", "married"),
    }
    assert own("My neighbour's name is Doris, she's 81 and still gardens every day.") == {
        ("Doris", "age", 81)
    }


def test_chinese_a_things_hour_day_and_place_and_their_corrections():
    landing = "我姐的航班晚上6点40落地。"
    assert own(landing, speaker=ZH) == {(f"{ZH}的姐姐", "flight.date", "2026-03-02T18:40:00Z")}
    # a clock time said alone keeps the held moment's day and its half of the day
    assert own("更正，她的航班延误了，8点15落地。", (landing,), speaker=ZH) == {
        (f"{ZH}的姐姐", "flight.date", "2026-03-02T20:15:00Z")
    }
    dinner = "团队聚餐周五在海底捞。"
    assert own(dinner, speaker=ZH) == {
        (ZH, "团队聚餐.date", "2026-03-06"),
        (ZH, "团队聚餐.location", "海底捞"),
    }
    assert own("算了，团队聚餐改去西贝了。", (dinner,), speaker=ZH) == {(ZH, "团队聚餐.location", "西贝")}
    assert own("明天在家。", speaker=ZH) == set()  # a day and a place name no event


def test_someone_else_changing_my_value_and_a_relative_moved_somewhere():
    assert own("Doctor upped my metformin to 1000 mg.") == {("Mira", "metformin", "1000 mg")}
    assert own("我们把奶奶接到了奥兰多的养老院，离我们近。", speaker=ZH) == {
        (f"{ZH}的奶奶", "residence", "奥兰多的养老院")
    }
    assert own("女儿英语不学了，改学编程。", speaker=ZH) == {
        (f"{ZH}的女儿", "learning", "编程")
    }  # 英语 is no name
    assert own("我女儿在新东方学英语。", speaker=ZH) == {
        (f"{ZH}的女儿", "school", "新东方"),
        (f"{ZH}的女儿", "learning", "英语"),
    }


@pytest.mark.parametrize(
    "text, recent, expected",
    [
        (
            "My brother went back home and became a civil servant.",
            (),
            {("Mira's brother", "job_title", "civil servant")},
        ),
        ("My brother is a programmer in Austin.", (), {("Mira's brother", "job_title", "programmer")}),
        (
            "Got that wrong, it's kit2021.",
            ("My Discord handle is kit2020.",),
            {("Mira", "discord_handle", "kit2021")},
        ),
        (
            "Another raise! $75k.",
            ("My salary is $60k.", "Got a raise, I'm on $68k now."),
            {("Mira", "salary", "$75k")},
        ),
    ],
)
def test_english_jobs_after_and_corrections_and_raises(text, recent, expected):
    assert own(text, recent) == expected


@pytest.mark.parametrize(
    "text, expected",
    [
        ("我住五楼。", {(ZH, "floor", "五楼")}),
        ("又搬了，这次住三楼，方便老人。", {(ZH, "floor", "三楼")}),
        ("又换了，现在在上海一家基金公司。", {(ZH, "employer", "上海一家基金公司")}),
        ("我在银行。", set()),  # at the bank, maybe only today
        ("我哥考了公务员。", {(f"{ZH}的哥哥", "job_title", "公务员")}),
    ],
)
def test_chinese_floors_employers_by_their_word_and_an_exam_job(text, expected):
    assert own(text, speaker=ZH) == expected


def test_moving_in_with_the_speaker_and_a_pets_weight_said_after_its_name():
    assert own("She moved in with us last month.", ("My mother-in-law lives in Reno.",)) == {
        ("Mira's mother in law", "residence", "with us")
    }
    assert own("我家猫胡椒4公斤。", speaker=ZH) == {("胡椒", "weight", "4公斤")}


def test_a_grade_said_with_no_verb_and_a_plan_after_guo():
    assert own("开学了，我现在大四了。", speaker=ZH) == {(ZH, "grade", "大四")}
    assert own("我过两周去体检。", speaker=ZH) == {(ZH, "checkup.date", "2026-03-16")}


@pytest.mark.parametrize(
    "text, expected",
    [
        ("My cousin Pablo teaches piano in Seville.", {("Pablo", "teaching", "piano")}),
        ("Pablo's teaching guitar these days.", {("Pablo", "teaching", "guitar")}),
        ("He's coaching basketball now.", set()),  # no one for "he" to be
        (
            "My husband Marco coaches the under-12 soccer team.",
            {("Marco", "coaching", "under-12 soccer team")},
        ),
        ("I don't teach piano.", set()),
    ],
)
def test_what_one_teaches_or_coaches(text, expected):
    assert own(text) - {("Mira", "husband", "Marco")} == expected


def test_how_many_a_day_and_its_change():
    assert own("I drink about four coffees a day.") == {("Mira", "coffee.per_day", 4)}
    assert own("Cut back to one coffee a day.", ("I drink about four coffees a day.",)) == {
        ("Mira", "coffee.per_day", 1)
    }
    assert own("I don't drink two coffees a day.") == set()
    assert own("我一天抽一包烟。", speaker=ZH) == {(ZH, "smoking.amount", "一包烟")}
    assert own("从六月开始我一天只抽五根了。", ("我一天抽一包烟。",), speaker=ZH) == {
        (ZH, "smoking.amount", "五根")
    }
    assert own("我抽了一根烟。", speaker=ZH) == set()  # once, no habit


def test_a_correction_of_a_key_only_another_held_corrects_that_ones():
    said = "My son's recital is on May 30th."
    assert own("Ugh, no — the recital is May 23rd, I had the wrong week.", (said,)) == {
        ("Mira's son", "recital", "2026-05-23")
    }
    assert own("The recital is May 23rd.", (said,)) == {("Mira", "recital", "2026-05-23")}  # no correction
    zh_said = "我儿子的钢琴汇报演出是5月30号。"
    assert own("哎不对，汇报演出是5月23号，我记错周了。", (zh_said,), speaker=ZH) == {
        (f"{ZH}的儿子", "钢琴汇报演出", "2026-05-23")
    }
