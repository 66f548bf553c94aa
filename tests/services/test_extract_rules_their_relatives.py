"""A relative of someone else's, said with his/her or 他/她 ("Her husband Sam works at Micron",
她老公在科大讯飞上班), a family that moves with its member (小琪一家搬到杭州了), a 他/她 that skips people
it cannot be, and a he among two people, one of unknown gender, that is not guessed."""

from __future__ import annotations

from extract_helpers import own

ZH = "祁月"


def test_her_husband_is_the_relative_of_the_one_she_stands_for():
    kira = "My friend Kira lives in Boise."
    assert own("Her husband Sam works at Micron.", (kira,)) == {("Sam", "employer", "Micron")}
    assert own("Her husband works at Micron.", (kira,)) == {("Kira's husband", "employer", "Micron")}
    assert own("Her husband works at Micron.") == set()  # no one "her" can be: no fact


def test_a_he_among_two_people_one_of_unknown_gender_is_not_guessed():
    said = ("My friend Kira lives in Boise.", "Her husband Sam works at Micron.")
    moved = own("Kira and Sam moved to Reno, he's at Tesla now.", said)
    assert moved == {("Kira", "residence", "Reno"), ("Sam", "residence", "Reno")}  # Kira may be a he too
    assert own("He's at Tesla now.", said) == {("Sam", "employer", "Tesla")}  # Sam, named last, is a he


def test_her_husband_and_a_family_that_moves_in_chinese():
    friend = "我朋友小琪住在合肥。"
    assert own("她老公在科大讯飞上班。", (friend,), ZH) == {("小琪的老公", "employer", "科大讯飞")}
    said = (friend, "她老公在科大讯飞上班。")
    moved = own("小琪一家搬到杭州了，她老公去了网易。", said, ZH)
    assert moved == {("小琪", "residence", "杭州"), ("小琪的老公", "employer", "网易")}
    # 去了 a place, or by one who held no employer, is no new employer
    assert own("她老公去了杭州。", said, ZH) != {("小琪的老公", "employer", "杭州")}
    assert own("小琪去了网易。", (friend,), ZH) == set()
