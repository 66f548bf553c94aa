"""A medicine's dose (services/extract/doses.py): keyed by the medicine, stated or changed by whoever
prescribes it, a change naming no medicine is of the one dose held; a unit of food (grams) is no dose.
Also the relations one holds one of at a time (a roommate), and a relative's name before a time."""

from __future__ import annotations

import pytest
from extract_helpers import facts, own

ME = "Mira"


@pytest.mark.parametrize(
    "text, recent, expected",
    [
        ("I'm on 20mg of Lexapro.", (), {(ME, "lexapro", "20mg")}),
        ("I take 50mcg of Synthroid every morning.", (), {(ME, "synthroid", "50mcg")}),
        ("My psychiatrist bumped me to 30mg.", ("I'm on 20mg of Lexapro.",), {(ME, "lexapro", "30mg")}),
        ("Doctor upped it to 75mcg.", ("I take 50mcg of Synthroid.",), {(ME, "synthroid", "75mcg")}),
        ("I'm down to 10mg of Lexapro now.", (), {(ME, "lexapro", "10mg")}),
        ("I'm up to 40mg.", ("I'm on 20mg of Lexapro.",), {(ME, "lexapro", "40mg")}),
        (  # the dose said last, of two held
            "They lowered it to 25mcg.",
            ("I'm on 20mg of Lexapro.", "I take 50mcg of Synthroid."),
            {(ME, "synthroid", "25mcg")},
        ),
        (
            "Grandpa's doctor bumped the warfarin up to 7.5 mg.",
            ("Grandpa takes 5 mg of warfarin daily.",),
            {("Mira's grandfather", "warfarin", "7.5 mg")},
        ),
        (
            "His cardiologist cut his Lipitor to 5mg.",
            ("Dad takes 10mg of Lipitor.",),
            {("Mira's father", "lipitor", "5mg")},
        ),
        ("I'm up to 40mg.", (), set()),  # no dose held: nothing to change
    ],
)
def test_english_doses_stated_and_changed(text, recent, expected):
    assert own(text, recent) == expected


@pytest.mark.parametrize(
    "text, recent, expected",
    [
        ("我每天吃一片优甲乐，50微克。", (), {(ME, "优甲乐", "50微克")}),
        ("复查完医生让我加到75微克。", ("我每天吃一片优甲乐，50微克。",), {(ME, "优甲乐", "75微克")}),
        ("我二甲双胍一天吃两次，每次500毫克。", (), {(ME, "二甲双胍", "500毫克")}),
        ("现在改成一次850毫克了。", ("我二甲双胍一天吃两次，每次500毫克。",), {(ME, "二甲双胍", "850毫克")}),
        ("我爸每天吃10毫克的立普妥。", (), {("Mira的爸爸", "立普妥", "10毫克")}),
        ("医生让我爸减到5毫克了。", ("我爸每天吃10毫克的立普妥。",), {("Mira的爸爸", "立普妥", "5毫克")}),
        ("优甲乐的剂量是100微克。", (), {(ME, "优甲乐", "100微克")}),
        ("我每天吃50克坚果。", (), {(ME, "food", "50克坚果")}),  # grams of food: no dose
    ],
)
def test_chinese_doses_stated_and_changed(text, recent, expected):
    assert own(text, recent) == expected


def test_a_new_roommate_replaces_the_one_held_and_a_college_roommate_is_none_now():
    assert facts("New roommate is a guy named Theo, he's a nurse.") == {
        ("Theo", "relation.roommate_of", ME),
        (ME, "roommate", "Theo"),
        ("Theo", "job_title", "nurse"),
    }
    assert facts("新室友叫阿哲，是个护士。") == {
        ("阿哲", "relation.roommate_of", ME),
        (ME, "roommate", "阿哲"),
        ("阿哲", "job_title", "护士"),
    }
    assert facts("New colleague is Sam.") == set()  # one has many colleagues: no one's named
    assert (ME, "roommate", "Theo") not in facts("My college roommate Theo just moved to Denver.")
    assert (ME, "manager", "Dana") not in facts("My old boss Dana retired.")


def test_a_relatives_name_ends_where_a_time_begins():
    assert ("小琪", "relation.roommate_of", ME) in facts("我室友小琪月底搬走。")
    assert ("小红", "relation.sister_of", ME) in facts("我妹妹小红下周来北京。")
    assert not any(f[1].startswith("relation.") for f in facts("我妈妈下周来北京。"))  # one word, no name


def test_a_dose_without_its_medicine_and_a_dose_doubled_or_halved():
    assert own("is it ok to drink coffee with sertraline? I'm on 50mg, take it in the morning") >= {
        (ME, "dose", "50mg")
    }
    held = ("I'm on 50mg of sertraline",)
    assert own("saw the doc. shes doubling my dose since the 50 wasnt doing much", held) == {
        (ME, "sertraline", "100mg")
    }
    assert own("they halved my sertraline", held) == {(ME, "sertraline", "25mg")}
    assert not own("she's doubling my dose", ())  # no dose held: nothing to double
    # a count of pills is no new dose
    said = own("yep just 2 of the 50s each morning", ("I'm on 50mg of sertraline", "she's doubling my dose"))
    assert not any(value == "2" for _, _, value in said), said
