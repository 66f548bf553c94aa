"""A relative named in apposition ("Yaw, my older brother, is …"), the employer one reports to (去美团报到),
a car's service day in Chinese (车约了下周三保养), and bookings said without "my" ("dentist is booked for
March 10", "booked the car service for March 10"), a switch said for later ("she's switching to Oak Hill
in September") and a job lost ("I got laid off", 被裁了) — subjects_en.py, patterns_zh.py, predicates_zh.py,
events_en.py, rules_en.py, statuses_en.py."""

from __future__ import annotations

import pytest
from extract_helpers import facts, facts_of_turns


@pytest.mark.parametrize(
    "text",
    ["Yaw, my older brother, is a consultant with Accenture", "Yaw (my brother) works at Accenture"],
)
def test_a_relative_named_in_apposition(text):
    said = facts(text, speaker="Kofi")
    assert {("Yaw", "relation.brother_of", "Kofi"), ("Yaw", "employer", "Accenture")} <= said


@pytest.mark.parametrize(
    "text, subject, employer",
    [
        ("我下周一去美团报到", "唐浩", "美团"),
        ("我下个月去字节入职", "唐浩", "字节"),
        ("我哥从阿里离职了，下周一去美团报到", "唐浩的哥哥", "美团"),
    ],
)
def test_the_employer_one_reports_to(text, subject, employer):
    said = facts(text, speaker="唐浩")
    assert (subject, "employer", employer) in said
    assert not any(a.endswith(".date") for _, a, _ in said)  # no event "美团报到"


@pytest.mark.parametrize(
    "text, day",
    [
        ("我的车下周三保养", "2026-03-11"),
        ("车约了下周三保养", "2026-03-11"),
        ("车子约了3月12号去保养", "2026-03-12"),
    ],
)
def test_a_cars_service_day_in_chinese(text, day):
    assert ("陆远", "保养.date", day) in facts(text, speaker="陆远")


def test_a_cars_service_moved_in_chinese():
    said = facts_of_turns(("陆远", "我的车下周三保养"), ("陆远", "4S店说保养改到下周五了"))
    assert ("陆远", "保养.date", "2026-03-13") in said


@pytest.mark.parametrize(
    "text, key, day",
    [
        ("dentist is booked for March 10", "dentist", "2026-03-10"),
        ("car service is booked for March 10", "car_service", "2026-03-10"),
        ("booked the car service for March 10", "car_service", "2026-03-10"),
        ("booked my car in for a service on March 10", "service", "2026-03-10"),
    ],
)
def test_a_booking_said_without_my(text, key, day):
    assert ("Hugo", key, day) in facts(text, speaker="Hugo")


def test_a_booking_for_a_thing_is_no_party_size():
    said = facts("booked my car in for a service on March 10", speaker="Hugo")
    assert not any(a.endswith(".people") for _, a, _ in said)
    assert ("Hugo", "table.people", "four") in facts("book us a table for four", speaker="Hugo")


@pytest.mark.parametrize(
    "first, then, expected",
    [
        (
            "my daughter Mia goes to Lincoln Elementary",
            "she's switching to Oak Hill in September",
            ("Mia", "school", "Oak Hill"),
        ),
        (
            "my brother works at Google",
            "he's switching to Meta next month",
            ("Hugo's brother", "employer", "Meta"),
        ),
    ],
)
def test_a_switch_said_as_it_happens_or_for_later(first, then, expected):
    assert expected in facts_of_turns(("Hugo", first), ("Hugo", then))


@pytest.mark.parametrize(
    "text, speaker, expected",
    [
        ("I got laid off today", "Pat", ("Pat", "employment_status", "laid off")),
        ("my brother was let go last week", "Pat", ("Pat's brother", "job_title", "let go")),
        ("我被裁了", "阿强", ("阿强", "employment_status", "失业")),
        ("我哥上个月被辞退了", "阿强", ("阿强的哥哥", "employment_status", "失业")),
    ],
)
def test_a_job_lost(text, speaker, expected):
    assert expected in facts(text, speaker=speaker)


def test_firing_someone_is_no_job_lost():
    assert not [f for f in facts("I fired my accountant", speaker="Pat") if f[1] == "employment_status"]


@pytest.mark.parametrize(
    "text, expected",
    [
        ("got laid off from Dell today", ("Pat", "employment_status", "laid off")),
        ("just got engaged!!", ("Pat", "marital_status", "engaged")),
        ("finally went vegan", ("Pat", "diet", "vegan")),
    ],
)
def test_a_status_said_without_a_subject_is_the_speakers(text, expected):
    assert expected in facts(text, speaker="Pat")
