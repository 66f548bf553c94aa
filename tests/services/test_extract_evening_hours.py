"""Hours of the evening and a held moment's new hour (services/extract: events_en.clock_after_day,
shifts._to_hour): "dinner is saturday at 7" is at 7 pm, "they pushed it to 8"
moves that dinner to 8 pm the same day, an event "with" someone named is one thing of the speaker's."""

from __future__ import annotations

import pytest
from extract_helpers import own

ME = "Mira"


@pytest.mark.parametrize(
    "text, expected",
    [
        ("dinner is saturday at 7", {(ME, "dinner", "2026-03-07T19:00:00Z")}),
        ("the party is on saturday at 8:30", {(ME, "party", "2026-03-07T20:30:00Z")}),
        ("book club is thursday at 8", {(ME, "book_club", "2026-03-05T20:00:00Z")}),
        # a message of several clauses: each clause reads the times, the evening's hour is moved once
        ("so excited. dinner is saturday at 7:30", {(ME, "dinner", "2026-03-07T19:30:00Z")}),
        ("guess what. can't wait. the party is on saturday at 8:30", {(ME, "party", "2026-03-07T20:30:00Z")}),
        # what people do in the morning keeps its morning; another sentence's dinner says nothing of it
        ("the dentist is friday at 9", {(ME, "dentist", "2026-03-06T09:00:00Z")}),
        ("breakfast meeting friday at 7:30", {(ME, "breakfast_meeting", "2026-03-06T07:30:00Z")}),
        (
            "dinner last night was great. my flight is friday at 7:30",
            {(ME, "flight", "2026-03-06T07:30:00Z")},
        ),
    ],
)
def test_an_hour_of_an_evening_thing_said_without_pm_is_in_the_evening(text, expected):
    assert own(text) == expected


def test_an_event_with_someone_named_is_the_speakers():
    assert own("dinner with the Lees is saturday at 7") == {
        (ME, "dinner_with_the_lees", "2026-03-07T19:00:00Z")
    }
    assert own("Coffee with Jen is friday at 10") == {(ME, "coffee_with_jen", "2026-03-06T10:00:00Z")}


@pytest.mark.parametrize(
    "recent, text, expected",
    [
        ("dinner is saturday at 7", "they pushed it to 8", (ME, "dinner", "2026-03-07T20:00:00Z")),
        (
            "my dentist appt is tuesday at 9am",
            "they moved it to 11",
            (ME, "dentist.appointment", "2026-03-03T11:00:00Z"),
        ),
        (
            "dinner with the Lees is saturday at 7pm",
            "they pushed the dinner to 8",
            (ME, "dinner_with_the_lees", "2026-03-07T20:00:00Z"),
        ),
    ],
)
def test_a_held_moment_moved_to_an_hour_keeps_its_day(recent, text, expected):
    assert own(text, (recent,)) == {expected}


def test_a_number_moved_to_is_no_hour_without_a_held_moment():
    said = own("they moved him to 4", ("my kid is in grade 3",))
    assert not any(str(value).startswith("2026-") for _, _, value in said), said


@pytest.mark.parametrize(
    "text, expected",
    [
        ("dentist is friday at 3:15", (ME, "dentist", "2026-03-06T15:15:00Z")),
        ("dentist is friday at 3:15 am", (ME, "dentist", "2026-03-06T03:15:00Z")),  # said: kept
        ("my flight is friday at 5:45", (ME, "flight", "2026-03-06T05:45:00Z")),  # flights leave at dawn
    ],
)
def test_an_afternoon_hour_said_with_minutes_and_without_pm_is_in_the_afternoon(text, expected):
    assert own(text) == {expected}
