"""Moves said with 推到/顺延到, a job joined after one quit, where a pupil is "at" (the school one got into),
a change under way ("is raising the rent to …"), an employer said by its kind ("works at a bank"), the
subject of a Chinese sentence carried past its first comma (我弟弟毕业了，在腾讯上班), and a partner named
after the fact."""

from __future__ import annotations

import pytest
from extract_helpers import facts, own

ZH = "芳芳"


def test_a_held_day_pushed_to_another_in_chinese():
    exam = ("我的驾照考试定在4月10号。",)
    assert own("驾照考试推到4月24号了。", exam, ZH) == {(ZH, "驾照考试", "2026-04-24")}
    assert own("驾照考试顺延到4月24号了。", exam, ZH) == {(ZH, "驾照考试", "2026-04-24")}
    # 推迟到 is still read whole, not as 推 + 迟到
    assert own("驾照考试推迟到4月24号了。", exam, ZH) == {(ZH, "驾照考试", "2026-04-24")}


def test_a_job_joined_after_quitting_one_names_no_person_in_the_old_employer():
    before = ("My cousin Dev just started at Deloitte as an analyst.",)
    said = "Dev quit Deloitte last week. He's joining a fintech called Ramp."
    assert own(said, before, "Nia") == {("Dev", "employer", "Ramp")}
    assert own("He's joining Ramp.", before, "Nia") == {("Dev", "employer", "Ramp")}


def test_a_pupil_is_at_a_school_a_worker_at_an_employer():
    pupil = ("My daughter Ivy is in 3rd grade at Lincoln Elementary.",)
    assert ("Ivy", "school", "Oak Ridge") in own("She's at Oak Ridge now.", pupil, "Wes")
    assert own("He's at Walmart now.", ("My son Max works at Target.",), "Wes") == {
        ("Max", "employer", "Walmart")
    }


def test_a_change_under_way_and_a_value_agreed_after_it():
    raising = "My landlord is raising the rent to $2,100 starting March."
    assert own(raising, (), "Vik") == {("Vik", "rent", "$2,100")}  # "starting March" is no part of it
    assert own("Negotiated him down, it's going to be $1,950.", (raising,), "Vik") == {
        ("Vik", "rent", "$1,950")
    }
    assert own("The doctor is lowering my metformin to 500 mg.") == {("Mira", "metformin", "500 mg")}


def test_an_employer_said_by_its_kind_only_after_a_verb_of_work():
    assert own("I work at a bank.") == {("Mira", "employer", "bank")}
    assert own("My brother works for a startup.") == {("Mira's brother", "employer", "startup")}
    assert own("I'm at the hospital now.") == set()  # a patient, perhaps: no employer


def test_the_subject_of_a_chinese_sentence_carries_past_its_first_comma():
    assert own("我弟弟毕业了，在腾讯上班。", (), "老王") == {("老王的弟弟", "employer", "腾讯")}
    said = own("女儿毕业了，留在上海一家银行上班。", ("我女儿在上海读大学。",), "老王")
    assert said == {("老王的女儿", "employer", "上海一家银行")}


def test_a_partner_named_after_the_words_that_say_there_is_one():
    assert own("I'm seeing someone new, his name is Marco.", (), "Uma") == {("Uma", "partner", "Marco")}
    new = facts("跟阿杰分手了，现在的男朋友叫小宇。", ("我男朋友叫阿杰。",), "佳佳")
    assert ("佳佳", "boyfriend", "小宇") in new and ("小宇", "relation.boyfriend_of", "佳佳") in new


@pytest.mark.parametrize(
    "text, expected",
    [
        # a school by the word that names it, in any case; an acronym after a verb only schools take
        ("im at pine valley community college doing my nursing prereqs", "pine valley community college"),
        ("I GOT INTO PORTLAND STATE AS A TRANSFER!!!", "PORTLAND STATE"),
        ("I got accepted to UCLA!!", "UCLA"),
        ("I'm a junior at Lincoln High", "Lincoln High"),
        ("I transferred to Oregon State", "Oregon State"),
    ],
)
def test_the_school_one_goes_to(text, expected):
    assert ("Mira", "school", expected) in own(text)


@pytest.mark.parametrize(
    "text",
    [
        "im in high school lol",
        "we moved to a new state",
        "I go to CVS every week",
        "I'm at the local college gym",
    ],
)
def test_no_school_where_none_is_named(text):
    assert not [f for f in own(text) if f[1] == "school"]
