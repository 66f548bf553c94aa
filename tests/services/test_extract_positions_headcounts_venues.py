"""A position played on a team (positions.py), a gathering's headcount and a bare count that moves it
(headcounts.py), a gathering's place said beside its day and moved with a reason after it, and job titles
said without an article ("he's sous chef there now") or an employer one was poached by."""

from __future__ import annotations

import pytest
from extract_helpers import own

ME = "Mira"


@pytest.mark.parametrize(
    "text, recent, expected",
    [
        ("My son plays left wing for the Hawks.", (), {("Mira's son", "playing_position", "left wing")}),
        (
            "Coach moved him to defense this season.",
            ("My son plays left wing for the Hawks.",),
            {("Mira's son", "playing_position", "defense")},
        ),
        ("I'm playing goalie now.", (), {(ME, "playing_position", "goalie")}),
        ("We moved to Center City.", (), {(ME, "residence", "Center City")}),  # a capital is a place
        ("我儿子在校队踢左边锋。", (), {("Mira的儿子", "playing_position", "左边锋")}),
        (
            "教练这学期把他调去打后卫了。",
            ("我儿子在校队踢左边锋。",),
            {("Mira的儿子", "playing_position", "后卫")},
        ),
        ("我女儿在排球队当二传。", (), {("Mira的女儿", "playing_position", "二传")}),
    ],
)
def test_a_position_played_said_by_the_player_or_by_the_coach(text, recent, expected):
    assert own(text, recent) == expected


@pytest.mark.parametrize(
    "text, recent, expected",
    [
        ("We're hosting Easter this year, expecting 14 people.", (), {(ME, "headcount", "14")}),
        ("We're having about thirty guests.", (), {(ME, "headcount", "thirty")}),
        (
            "Two cousins can't come, so 12 now.",
            ("We're hosting Easter this year, expecting 14 people.",),
            {(ME, "headcount", "12")},
        ),
        (
            "Scratch that, my aunt is bringing her new boyfriend, so 13.",
            ("We're hosting Easter, expecting 14 people.", "Two cousins can't come, so 12 now."),
            {(ME, "headcount", "13")},
        ),
        ("So 8 now.", ("Book a table for six.",), {(ME, "table.people", "8")}),
        ("So 8 now.", ("Book a table for six.", "We're expecting 14 people."), set()),  # which one?
        ("We're not expecting 14 people.", (), set()),
    ],
)
def test_a_headcount_and_a_bare_count_that_moves_the_one_held(text, recent, expected):
    assert own(text, recent) == expected


def test_a_gatherings_place_beside_its_day_and_moved_with_a_reason():
    said = "My daughter's wedding is set for October 10 in Napa."
    assert ("Mira's daughter", "wedding.location", "Napa") in own(said)
    moved = own("They moved the wedding to Sonoma because the Napa venue double-booked.", (said,))
    assert moved == {("Mira's daughter", "wedding.location", "Sonoma")}
    said_zh = "我女儿的婚礼定在10月10号，在三亚办。"
    assert ("Mira的女儿", "婚礼.location", "三亚") in own(said_zh)
    moved_zh = own("三亚的酒店订不上，婚礼改到厦门办了。", (said_zh,))
    assert moved_zh == {("Mira的女儿", "婚礼.location", "厦门")}  # the place, never the wedding's day
    assert own("聚餐改到海底捞了。") == {(ME, "聚餐.location", "海底捞")}
    # a place word announced, the new place in the next part: the one gathering whose place is held
    held = "我们的婚礼定在6月14号，在湖边酒店办。"
    assert own("场地换了，改在植物园办了。", (held,)) == {(ME, "婚礼.location", "植物园")}
    offsite = "Our team offsite is in Denver on April 14."
    assert own(offsite) == {(ME, "team_offsite", "2026-04-14"), (ME, "team_offsite.location", "Denver")}
    assert own("Offsite moved to Boulder, same date.", (offsite,)) == {
        (ME, "team_offsite.location", "Boulder")
    }
    # a month is when, not where
    wedding = "My friend Priya's wedding is on June 6 in Austin."
    moved = own("Priya moved the wedding to September because of the venue.", (wedding,))
    assert not any(key.endswith(".location") for _, key, _ in moved)


@pytest.mark.parametrize(
    "text, expected",
    [
        ("He's sous chef there now.", {("Dev", "job_title", "sous chef")}),
        ("She's head nurse now.", {("Ana", "job_title", "head nurse")}),
        ("Dev was recruited by Google.", {("Dev", "employer", "Google")}),
        (
            "Dev got poached by a steakhouse downtown, Hawksmoor, he's sous chef there now.",
            {("Dev", "employer", "Hawksmoor"), ("Dev", "job_title", "sous chef")},
        ),
    ],
)
def test_a_title_without_an_article_and_an_employer_one_was_poached_by(text, expected):
    recent = (
        ("My friend Dev is a line cook.",)
        if "He" in text or "Dev" in text
        else ("My friend Ana is a nurse.",)
    )
    assert own(text, recent) == expected


def test_a_dinners_place_said_after_its_time_and_moved_by_we():
    said = "我们结婚纪念日晚饭订在周六七点，在外婆家餐厅。"
    assert (ME, "结婚纪念日晚饭.location", "外婆家餐厅") in own(said)
    moved = own("外婆家说后厨出问题了，我们改去绿茶了，时间不变。", (said,))
    assert moved == {(ME, "结婚纪念日晚饭.location", "绿茶")}


def test_a_groups_size_a_grader_a_place_moved_to_and_a_pet_told_to_change():
    club = "Our book club has 9 members."
    assert own(club) == {(ME, "book_club.members", "9")}
    assert own("Two people dropped out, we're at 7.", (club,)) == {(ME, "book_club.members", "7")}
    zh_club = "我们读书会有9个成员。"
    assert own(zh_club) == {(ME, "读书会.headcount", "9个成员")}
    assert own("退了两个人，现在7个。", (zh_club,)) == {(ME, "读书会.headcount", "7个成员")}
    grade = own(
        "Eli's a fourth grader now, same school.", ("My grandson Eli is in 3rd grade at Pine Ridge.",)
    )
    assert grade == {("Eli", "grade", "fourth grader")}
    party = "My daughter's graduation party is June 20 at our house."
    moved = own("Moving the grad party to my sister's place, it's bigger.", (party,))
    assert moved == {("Mira's daughter", "graduation_party.location", "my sister's place")}
    pet = "我家猫皮皮吃的是皇家猫粮。"
    assert own("兽医让皮皮改吃希尔斯的肾脏处方粮。", (pet,)) == {("皮皮", "food", "希尔斯的肾脏处方粮")}
