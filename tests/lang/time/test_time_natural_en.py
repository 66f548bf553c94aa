"""English natural time expressions against pinned clocks."""

from datetime import UTC, date, datetime, timedelta, timezone

import pytest

from memql.lang.time import TimeParseError, TimeSpan, format_instant, parse_natural

WED = datetime(2025, 10, 22, 10, 0, tzinfo=UTC)  # Wednesday; ISO week Mon Oct 20 .. Sun Oct 26
SUN = datetime(2025, 10, 26, 12, 0, tzinfo=UTC)  # Sunday
NYE = datetime(2025, 12, 31, 15, 0, tzinfo=UTC)  # New Year's Eve
CST = timezone(timedelta(hours=8))
LATE_CST = datetime(2025, 10, 20, 23, 30, tzinfo=CST)  # Monday 23:30 at +08:00 (15:30Z)


def show(text: str, now: datetime, lang: str = "en") -> tuple[str, str, str]:
    s = parse_natural(text, now, lang)  # type: ignore[arg-type]
    return format_instant(s.start), format_instant(s.end), s.granularity


def days(first: date, count: int = 1, tz: timezone = UTC, granularity: str = "day") -> tuple[str, str, str]:
    start = datetime(first.year, first.month, first.day, tzinfo=tz)
    return format_instant(start), format_instant(start + timedelta(days=count)), granularity


def instant(dt: datetime) -> tuple[str, str, str]:
    return format_instant(dt), format_instant(dt), "instant"


def hours(d: date, first: int, last: int, tz: timezone = UTC) -> tuple[str, str, str]:
    midnight = datetime(d.year, d.month, d.day, tzinfo=tz)
    start, end = midnight + timedelta(hours=first), midnight + timedelta(hours=last)
    return format_instant(start), format_instant(end), "hour"


def minute(dt: datetime) -> tuple[str, str, str]:
    return format_instant(dt), format_instant(dt + timedelta(minutes=1)), "minute"


# --- the issue's examples -----------------------------------------------------------------------


def test_issue_examples() -> None:
    assert show("tomorrow", WED) == days(date(2025, 10, 23))
    assert show("next Friday", WED) == days(date(2025, 10, 31))
    assert show("in 3 weeks", WED) == instant(datetime(2025, 11, 12, 10, tzinfo=UTC))
    assert show("end of the month", WED) == days(date(2025, 10, 31))


def test_result_is_a_utc_timespan() -> None:
    span = parse_natural("tomorrow", LATE_CST)
    assert isinstance(span, TimeSpan)
    assert span.start.tzinfo is UTC and span.end.tzinfo is UTC


# --- days ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("today", days(date(2025, 10, 22))),
        ("tomorrow", days(date(2025, 10, 23))),
        ("tmrw", days(date(2025, 10, 23))),
        ("yesterday", days(date(2025, 10, 21))),
        ("the day after tomorrow", days(date(2025, 10, 24))),
        ("day after tomorrow", days(date(2025, 10, 24))),
        ("the day before yesterday", days(date(2025, 10, 20))),
        ("tonight", hours(date(2025, 10, 22), 18, 24)),
        ("this morning", hours(date(2025, 10, 22), 6, 12)),
        ("this afternoon", hours(date(2025, 10, 22), 12, 18)),
        ("last night", hours(date(2025, 10, 21), 18, 24)),
        ("tomorrow morning", hours(date(2025, 10, 23), 6, 12)),
        ("tomorrow night", hours(date(2025, 10, 23), 18, 24)),
        ("friday afternoon", hours(date(2025, 10, 24), 12, 18)),
    ],
)
def test_days_and_parts_of_days(text: str, expected: tuple) -> None:
    assert show(text, WED) == expected


def test_tomorrow_on_new_years_eve_crosses_the_year() -> None:
    assert show("tomorrow", NYE) == days(date(2026, 1, 1))


def test_tomorrow_in_a_non_utc_zone() -> None:
    # 2025-10-20T23:30+08:00: tomorrow is 2025-10-21 local = 2025-10-20T16:00Z .. 2025-10-21T16:00Z
    assert show("tomorrow", LATE_CST) == ("2025-10-20T16:00:00Z", "2025-10-21T16:00:00Z", "day")
    assert show("today", LATE_CST) == ("2025-10-19T16:00:00Z", "2025-10-20T16:00:00Z", "day")
    # the same instant seen from UTC is still Monday the 20th
    assert show("tomorrow", LATE_CST.astimezone(UTC)) == days(date(2025, 10, 21))


# --- weekdays -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("this Friday", date(2025, 10, 24)),  # current ISO week
        ("this Monday", date(2025, 10, 20)),  # current ISO week, already past
        ("next Friday", date(2025, 10, 31)),  # next ISO week
        ("next Monday", date(2025, 10, 27)),
        ("last Friday", date(2025, 10, 17)),  # previous ISO week
        ("previous Wednesday", date(2025, 10, 15)),
        ("Friday", date(2025, 10, 24)),  # bare: first Friday strictly after today
        ("on Friday", date(2025, 10, 24)),
        ("coming Friday", date(2025, 10, 24)),
        ("this coming Monday", date(2025, 10, 27)),
        ("Wednesday", date(2025, 10, 29)),  # today is Wednesday: strictly after -> next week
        ("Monday", date(2025, 10, 27)),
        ("Fri", date(2025, 10, 24)),
        ("on fri.", date(2025, 10, 24)),
        ("this past Monday", date(2025, 10, 20)),
        ("past Friday", date(2025, 10, 17)),
        ("friday next week", date(2025, 10, 31)),
        ("friday last week", date(2025, 10, 17)),
        ("the Monday after next", date(2025, 11, 3)),  # the week after next week
        ("Friday after next", date(2025, 11, 7)),
        ("Friday of the week after next", date(2025, 11, 7)),
        ("SUNDAY", date(2025, 10, 26)),
    ],
)
def test_weekdays(text: str, expected: date) -> None:
    assert show(text, WED) == days(expected)


def test_weekdays_seen_from_a_sunday() -> None:
    assert show("next Monday", SUN) == days(date(2025, 10, 27))
    assert show("Monday", SUN) == days(date(2025, 10, 27))
    assert show("this Monday", SUN) == days(date(2025, 10, 20))
    assert show("this Sunday", SUN) == days(date(2025, 10, 26))
    assert show("Sunday", SUN) == days(date(2025, 11, 2))
    assert show("next Sunday", SUN) == days(date(2025, 11, 2))


# --- whole periods --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("this week", days(date(2025, 10, 20), 7, granularity="week")),
        ("next week", days(date(2025, 10, 27), 7, granularity="week")),
        ("last week", days(date(2025, 10, 13), 7, granularity="week")),
        ("the week after next", days(date(2025, 11, 3), 7, granularity="week")),
        ("this month", days(date(2025, 10, 1), 31, granularity="month")),
        ("next month", days(date(2025, 11, 1), 30, granularity="month")),
        ("last month", days(date(2025, 9, 1), 30, granularity="month")),
        ("this year", days(date(2025, 1, 1), 365, granularity="year")),
        ("next year", days(date(2026, 1, 1), 365, granularity="year")),
        ("last year", days(date(2024, 1, 1), 366, granularity="year")),
        ("this weekend", days(date(2025, 10, 25), 2)),
        ("the weekend", days(date(2025, 10, 25), 2)),
        ("next weekend", days(date(2025, 11, 1), 2)),
    ],
)
def test_periods(text: str, expected: tuple) -> None:
    assert show(text, WED) == expected


def test_periods_at_year_end() -> None:
    assert show("next month", NYE) == days(date(2026, 1, 1), 31, granularity="month")
    assert show("next year", NYE) == days(date(2026, 1, 1), 365, granularity="year")
    assert show("next week", NYE) == days(date(2026, 1, 5), 7, granularity="week")
    assert show("this week", NYE) == days(date(2025, 12, 29), 7, granularity="week")


def test_next_week_from_a_sunday() -> None:
    assert show("next week", SUN) == days(date(2025, 10, 27), 7, granularity="week")


# --- offsets (instants) -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "delta"),
    [
        ("in 3 weeks", timedelta(weeks=3)),
        ("in 5 minutes", timedelta(minutes=5)),
        ("in an hour", timedelta(hours=1)),
        ("in half an hour", timedelta(minutes=30)),
        ("in a couple of days", timedelta(days=2)),
        ("in a few days", timedelta(days=3)),
        ("in twenty-one days", timedelta(days=21)),
        ("in twenty one days", timedelta(days=21)),
        ("in 2 hours", timedelta(hours=2)),
        ("3 days from now", timedelta(days=3)),
        ("2 hours later", timedelta(hours=2)),
        ("an hour and a half from now", timedelta(minutes=90)),
        ("1 and a half hours later", timedelta(minutes=90)),
        ("in half a day", timedelta(hours=12)),
        ("in half a week", timedelta(days=3, hours=12)),
        ("in half a month", timedelta(days=15)),
        ("in a dozen days", timedelta(days=12)),
        ("in 10 mins", timedelta(minutes=10)),
        ("in 2 hrs", timedelta(hours=2)),
        ("5 minutes ago", -timedelta(minutes=5)),
        ("3 days ago", -timedelta(days=3)),
        ("two weeks ago", -timedelta(weeks=2)),
        ("an hour earlier", -timedelta(hours=1)),
    ],
)
def test_offsets(text: str, delta: timedelta) -> None:
    assert show(text, WED) == instant(WED + delta)


def test_calendar_month_and_year_offsets() -> None:
    end_of_jan = datetime(2025, 1, 31, 9, tzinfo=UTC)
    assert show("in 1 month", end_of_jan) == instant(datetime(2025, 2, 28, 9, tzinfo=UTC))
    leap = datetime(2024, 2, 29, 9, tzinfo=UTC)
    assert show("in a year", leap) == instant(datetime(2025, 2, 28, 9, tzinfo=UTC))
    assert show("1 year ago", leap) == instant(datetime(2023, 2, 28, 9, tzinfo=UTC))
    assert show("in half a year", leap) == instant(datetime(2024, 8, 29, 9, tzinfo=UTC))


def test_hours_are_exact_elapsed_time() -> None:
    now = datetime(2025, 3, 9, 1, 30, tzinfo=timezone(timedelta(hours=-5)))  # fixed offset: no DST
    span = parse_natural("in 3 hours", now)
    assert span.start == span.end
    assert span.start - now == timedelta(hours=3)
    assert now - parse_natural("90 minutes ago", now).start == timedelta(minutes=90)


def test_days_are_calendar_days_across_dst_when_zone_data_exists() -> None:
    zoneinfo = pytest.importorskip("zoneinfo")
    try:
        tz = zoneinfo.ZoneInfo("America/New_York")
    except zoneinfo.ZoneInfoNotFoundError:
        pytest.skip("no time zone database")
    now = datetime(2025, 3, 8, 12, 0, tzinfo=tz)  # the day before the spring-forward switch
    assert parse_natural("in 1 day", now).start - now.astimezone(UTC) == timedelta(hours=23)
    assert parse_natural("in 24 hours", now).start - now.astimezone(UTC) == timedelta(hours=24)
    assert show("tomorrow", now)[:2] == ("2025-03-09T05:00:00Z", "2025-03-10T04:00:00Z")


# --- rolling windows ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "start", "end", "granularity"),
    [
        ("last 3 days", WED - timedelta(days=3), WED, "day"),
        ("the last 3 days", WED - timedelta(days=3), WED, "day"),
        ("past 2 weeks", WED - timedelta(weeks=2), WED, "week"),
        ("over the last 24 hours", WED - timedelta(hours=24), WED, "hour"),
        ("within the last 30 minutes", WED - timedelta(minutes=30), WED, "minute"),
        ("in the past 2 months", datetime(2025, 8, 22, 10, tzinfo=UTC), WED, "month"),
        ("the past week", WED - timedelta(weeks=1), WED, "week"),
        ("in the last year", datetime(2024, 10, 22, 10, tzinfo=UTC), WED, "year"),
        ("next 3 days", WED, WED + timedelta(days=3), "day"),
        ("the next 2 weeks", WED, WED + timedelta(weeks=2), "week"),
        ("over the next few hours", WED, WED + timedelta(hours=3), "hour"),
        ("within 3 days", WED, WED + timedelta(days=3), "day"),
        ("the next hour", WED, WED + timedelta(hours=1), "hour"),
    ],
)
def test_windows(text: str, start: datetime, end: datetime, granularity: str) -> None:
    assert show(text, WED) == (format_instant(start), format_instant(end), granularity)


def test_window_months_clamp() -> None:
    now = datetime(2025, 5, 31, 8, tzinfo=UTC)
    assert show("last 3 months", now)[0] == "2025-02-28T08:00:00Z"
    assert show("last 1 month", datetime(2025, 3, 31, 12, tzinfo=UTC))[0] == "2025-02-28T12:00:00Z"


# --- boundaries ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("end of the month", days(date(2025, 10, 31))),
        ("the end of this month", days(date(2025, 10, 31))),
        ("end of month", days(date(2025, 10, 31))),
        ("end of next month", days(date(2025, 11, 30))),
        ("end of last month", days(date(2025, 9, 30))),
        ("beginning of the month", days(date(2025, 10, 1))),
        ("start of next month", days(date(2025, 11, 1))),
        ("end of the week", days(date(2025, 10, 26))),
        ("start of the week", days(date(2025, 10, 20))),
        ("start of next week", days(date(2025, 10, 27))),
        ("end of the year", days(date(2025, 12, 31))),
        ("beginning of next year", days(date(2026, 1, 1))),
        ("end of the day", hours(date(2025, 10, 22), 23, 24)),
        ("EOD", hours(date(2025, 10, 22), 23, 24)),
        ("EOM", days(date(2025, 10, 31))),
        ("eow", days(date(2025, 10, 26))),
        ("mid-month", days(date(2025, 10, 15))),
        ("the middle of next month", days(date(2025, 11, 15))),
    ],
)
def test_boundaries(text: str, expected: tuple) -> None:
    assert show(text, WED) == expected


def test_end_of_february_in_leap_and_common_years() -> None:
    assert show("end of the month", datetime(2024, 2, 10, tzinfo=UTC)) == days(date(2024, 2, 29))
    assert show("end of the month", datetime(2025, 2, 10, tzinfo=UTC)) == days(date(2025, 2, 28))
    assert show("end of next month", datetime(2024, 1, 31, tzinfo=UTC)) == days(date(2024, 2, 29))


def test_end_of_the_month_in_now_time_zone() -> None:
    now = datetime(2024, 2, 10, 9, tzinfo=CST)
    assert show("end of the month", now) == ("2024-02-28T16:00:00Z", "2024-02-29T16:00:00Z", "day")


def test_end_of_next_month_in_december() -> None:
    assert show("end of next month", NYE) == days(date(2026, 1, 31))


# --- dates --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("July 15", date(2026, 7, 15)),  # already past this year: next year's
        ("October 22", date(2025, 10, 22)),  # today counts
        ("October 23", date(2025, 10, 23)),
        ("October 21", date(2026, 10, 21)),
        ("15 July", date(2026, 7, 15)),
        ("the 15th of July", date(2026, 7, 15)),
        ("July 15th, 2026", date(2026, 7, 15)),
        ("Jul 15 2026", date(2026, 7, 15)),
        ("jul. 4, 2024", date(2024, 7, 4)),
        ("Dec 1st", date(2025, 12, 1)),
        ("Sept 3", date(2026, 9, 3)),
        ("February 29", date(2028, 2, 29)),  # waits for the next leap year
        ("2026-07-15", date(2026, 7, 15)),
        ("2026/7/15", date(2026, 7, 15)),
    ],
)
def test_dates(text: str, expected: date) -> None:
    assert show(text, WED) == days(expected)


def test_month_and_year() -> None:
    assert show("July 2026", WED) == days(date(2026, 7, 1), 31, granularity="month")
    assert show("feb 2024", WED) == days(date(2024, 2, 1), 29, granularity="month")


def test_iso_date_is_the_whole_local_day() -> None:
    assert show("2025-10-21", LATE_CST) == ("2025-10-20T16:00:00Z", "2025-10-21T16:00:00Z", "day")


def test_iso_date_times() -> None:
    assert show("2025-10-21T10:00:00Z", LATE_CST) == instant(datetime(2025, 10, 21, 10, tzinfo=UTC))
    # no offset: wall-clock time in now's zone
    assert show("2025-10-21 10:00", LATE_CST) == instant(datetime(2025, 10, 21, 2, tzinfo=UTC))


@pytest.mark.parametrize("text", ["February 30", "Feb 29 2025", "April 31", "31 June 2026", "2025-02-30"])
def test_impossible_dates(text: str) -> None:
    with pytest.raises(TimeParseError):
        parse_natural(text, WED)


# --- clock times ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("tomorrow at 3pm", datetime(2025, 10, 23, 15, tzinfo=UTC)),
        ("tomorrow 3 pm", datetime(2025, 10, 23, 15, tzinfo=UTC)),
        ("3pm tomorrow", datetime(2025, 10, 23, 15, tzinfo=UTC)),
        ("at 9am on friday", datetime(2025, 10, 24, 9, tzinfo=UTC)),
        ("next Friday at 10:30", datetime(2025, 10, 31, 10, 30, tzinfo=UTC)),
        ("tomorrow at 12am", datetime(2025, 10, 23, 0, tzinfo=UTC)),
        ("tomorrow at 12pm", datetime(2025, 10, 23, 12, tzinfo=UTC)),
        ("tomorrow at noon", datetime(2025, 10, 23, 12, tzinfo=UTC)),
        ("tonight at 8:30", datetime(2025, 10, 22, 20, 30, tzinfo=UTC)),
        ("tomorrow morning at 9:15", datetime(2025, 10, 23, 9, 15, tzinfo=UTC)),
        ("July 15 at 5 p.m.", datetime(2026, 7, 15, 17, tzinfo=UTC)),
        ("at 3pm", datetime(2025, 10, 22, 15, tzinfo=UTC)),
        ("17:45", datetime(2025, 10, 22, 17, 45, tzinfo=UTC)),
    ],
)
def test_clock_times(text: str, expected: datetime) -> None:
    assert show(text, WED) == minute(expected)


def test_clock_time_in_now_time_zone() -> None:
    assert show("tomorrow at 9am", LATE_CST) == minute(datetime(2025, 10, 21, 1, tzinfo=UTC))


@pytest.mark.parametrize("text", ["tomorrow at 13pm", "tomorrow at 25:00", "in 3 days at 3pm"])
def test_bad_clock_times(text: str) -> None:
    with pytest.raises(TimeParseError):
        parse_natural(text, WED)


# --- tolerance and errors -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "same_as"),
    [
        ("Tomorrow.", "tomorrow"),
        ("  NEXT   FRIDAY  ", "next friday"),
        ("by next Friday", "next friday"),
        ("until tomorrow", "tomorrow"),
        ("before the end of the month", "end of the month"),
        ("due by EOD", "eod"),
        ("on July 15", "july 15"),
        ("(tomorrow)", "tomorrow"),
        ("ｔｏｍｏｒｒｏｗ", "tomorrow"),
    ],
)
def test_case_whitespace_and_filler(text: str, same_as: str) -> None:
    assert parse_natural(text, WED) == parse_natural(same_as, WED)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "blah",
        "the deck",
        "in 3 bananas",
        "next",
        "3",
        "money",
        "x" * 500,
        "tomorrow tomorrow",
        "in -3 days",
        "3 days",
        "last",
    ],
)
def test_unrecognised(text: str) -> None:
    with pytest.raises(TimeParseError):
        parse_natural(text, WED, "en")


def test_bare_abbreviation_is_accepted_as_a_whole_phrase() -> None:
    assert show("sat", WED) == days(date(2025, 10, 25))


def test_error_message_quotes_the_input() -> None:
    with pytest.raises(TimeParseError, match="blah blah"):
        parse_natural("blah blah", WED)


def test_out_of_range_is_a_time_parse_error() -> None:
    end_of_time = datetime(9999, 12, 31, 12, tzinfo=UTC)
    for text in ["tomorrow", "next year", "in 3 days", "next month", "end of next month"]:
        with pytest.raises(TimeParseError):
            parse_natural(text, end_of_time)
    with pytest.raises(TimeParseError):
        parse_natural("in 999999 years", WED)


def test_now_must_be_aware_and_lang_known() -> None:
    with pytest.raises(ValueError):
        parse_natural("tomorrow", datetime(2025, 10, 22))
    with pytest.raises(ValueError) as info:
        parse_natural("tomorrow", WED, "fr")  # type: ignore[arg-type]
    assert not isinstance(info.value, TimeParseError)
    with pytest.raises(TypeError):
        parse_natural(None, WED)  # type: ignore[arg-type]


def test_explicit_language_selection() -> None:
    with pytest.raises(TimeParseError):
        parse_natural("tomorrow", WED, "zh")
    assert parse_natural("tomorrow", WED, "en") == parse_natural("tomorrow", WED, "auto")
    assert parse_natural("2026-07-15", WED, "zh") == parse_natural("2026-07-15", WED, "en")


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("next month on the 30th", "2025-11-30"),
        ("the 5th of next month", "2025-11-05"),
        ("on the 2nd next month", "2025-11-02"),
        ("last month on the 3rd", "2025-09-03"),
    ],
)
def test_a_day_of_a_month_named_relatively(text, day) -> None:
    span = parse_natural(text, datetime(2025, 10, 22, 10, 0, tzinfo=UTC))
    assert span.start.date().isoformat() == day and span.granularity == "day"
