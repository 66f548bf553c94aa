"""Chinese natural time expressions against pinned clocks."""

from datetime import date, datetime, timedelta, timezone

import pytest

from memql.lang.time import TimeParseError, format_instant, parse_natural

CST = timezone(timedelta(hours=8))
WED = datetime(2025, 10, 22, 10, 0, tzinfo=CST)  # Wednesday at +08:00; ISO week Mon Oct 20 .. Sun Oct 26
SUN = datetime(2025, 10, 26, 12, 0, tzinfo=CST)  # Sunday
NYE = datetime(2025, 12, 31, 15, 0, tzinfo=CST)
LATE = datetime(2025, 10, 20, 23, 30, tzinfo=CST)


def show(text: str, now: datetime, lang: str = "auto") -> tuple[str, str, str]:
    s = parse_natural(text, now, lang)  # type: ignore[arg-type]
    return format_instant(s.start), format_instant(s.end), s.granularity


def days(first: date, count: int = 1, granularity: str = "day") -> tuple[str, str, str]:
    start = datetime(first.year, first.month, first.day, tzinfo=CST)
    return format_instant(start), format_instant(start + timedelta(days=count)), granularity


def hours(d: date, first: int, last: int) -> tuple[str, str, str]:
    midnight = datetime(d.year, d.month, d.day, tzinfo=CST)
    start, end = midnight + timedelta(hours=first), midnight + timedelta(hours=last)
    return format_instant(start), format_instant(end), "hour"


def instant(dt: datetime) -> tuple[str, str, str]:
    return format_instant(dt), format_instant(dt), "instant"


def minute(dt: datetime) -> tuple[str, str, str]:
    return format_instant(dt), format_instant(dt + timedelta(minutes=1)), "minute"


# --- the issue's examples -----------------------------------------------------------------------


def test_issue_examples() -> None:
    assert show("明天", WED) == days(date(2025, 10, 23))
    assert show("下周五", WED) == days(date(2025, 10, 31))
    assert show("三天后", WED) == instant(WED + timedelta(days=3))
    assert show("月底", WED) == days(date(2025, 10, 31))


def test_tomorrow_late_in_the_evening_at_plus_eight() -> None:
    assert show("明天", LATE) == ("2025-10-20T16:00:00Z", "2025-10-21T16:00:00Z", "day")


# --- days ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("今天", days(date(2025, 10, 22))),
        ("明天", days(date(2025, 10, 23))),
        ("明日", days(date(2025, 10, 23))),
        ("后天", days(date(2025, 10, 24))),
        ("大后天", days(date(2025, 10, 25))),
        ("昨天", days(date(2025, 10, 21))),
        ("前天", days(date(2025, 10, 20))),
        ("大前天", days(date(2025, 10, 19))),
        ("今晚", hours(date(2025, 10, 22), 18, 24)),
        ("明早", hours(date(2025, 10, 23), 6, 12)),
        ("明晚", hours(date(2025, 10, 23), 18, 24)),
        ("昨晚", hours(date(2025, 10, 21), 18, 24)),
        ("明天下午", hours(date(2025, 10, 23), 12, 18)),
        ("明天早上", hours(date(2025, 10, 23), 6, 12)),
        ("下周五上午", hours(date(2025, 10, 31), 6, 12)),
    ],
)
def test_days(text: str, expected: tuple) -> None:
    assert show(text, WED) == expected


def test_tomorrow_on_new_years_eve() -> None:
    assert show("明天", NYE) == days(date(2026, 1, 1))


# --- weekdays -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("下周五", date(2025, 10, 31)),
        ("下星期五", date(2025, 10, 31)),
        ("下个礼拜五", date(2025, 10, 31)),
        ("下个星期五", date(2025, 10, 31)),
        ("这周五", date(2025, 10, 24)),
        ("本周五", date(2025, 10, 24)),
        ("这个星期一", date(2025, 10, 20)),  # current ISO week, already past
        ("上周五", date(2025, 10, 17)),
        ("上个星期天", date(2025, 10, 19)),
        ("下下周一", date(2025, 11, 3)),
        ("周五", date(2025, 10, 24)),  # bare: strictly after today
        ("星期五", date(2025, 10, 24)),
        ("礼拜五", date(2025, 10, 24)),
        ("周三", date(2025, 10, 29)),  # today is Wednesday
        ("周日", date(2025, 10, 26)),
        ("星期天", date(2025, 10, 26)),
        ("礼拜天", date(2025, 10, 26)),
        ("这周日", date(2025, 10, 26)),
        ("下周日", date(2025, 11, 2)),
    ],
)
def test_weekdays(text: str, expected: date) -> None:
    assert show(text, WED) == days(expected)


def test_weekdays_seen_from_a_sunday() -> None:
    assert show("下周一", SUN) == days(date(2025, 10, 27))
    assert show("周一", SUN) == days(date(2025, 10, 27))
    assert show("这周一", SUN) == days(date(2025, 10, 20))
    assert show("下周", SUN) == days(date(2025, 10, 27), 7, "week")


# --- periods --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("本周", days(date(2025, 10, 20), 7, "week")),
        ("这周", days(date(2025, 10, 20), 7, "week")),
        ("这个星期", days(date(2025, 10, 20), 7, "week")),
        ("下周", days(date(2025, 10, 27), 7, "week")),
        ("下个礼拜", days(date(2025, 10, 27), 7, "week")),
        ("上周", days(date(2025, 10, 13), 7, "week")),
        ("本月", days(date(2025, 10, 1), 31, "month")),
        ("这个月", days(date(2025, 10, 1), 31, "month")),
        ("下个月", days(date(2025, 11, 1), 30, "month")),
        ("下月", days(date(2025, 11, 1), 30, "month")),
        ("上个月", days(date(2025, 9, 1), 30, "month")),
        ("今年", days(date(2025, 1, 1), 365, "year")),
        ("明年", days(date(2026, 1, 1), 365, "year")),
        ("去年", days(date(2024, 1, 1), 366, "year")),
        ("周末", days(date(2025, 10, 25), 2)),
        ("这个周末", days(date(2025, 10, 25), 2)),
        ("下周末", days(date(2025, 11, 1), 2)),
    ],
)
def test_periods(text: str, expected: tuple) -> None:
    assert show(text, WED) == expected


def test_periods_at_year_end() -> None:
    assert show("明年", NYE) == days(date(2026, 1, 1), 365, "year")
    assert show("下个月", NYE) == days(date(2026, 1, 1), 31, "month")
    assert show("下个月底", NYE) == days(date(2026, 1, 31))


def test_weekend_on_a_sunday_is_the_current_weekend() -> None:
    assert show("周末", SUN) == days(date(2025, 10, 25), 2)


# --- offsets ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "delta"),
    [
        ("三天后", timedelta(days=3)),
        ("3天后", timedelta(days=3)),
        ("３天后", timedelta(days=3)),
        ("3天之后", timedelta(days=3)),
        ("3天以后", timedelta(days=3)),
        ("两周后", timedelta(weeks=2)),
        ("2个星期后", timedelta(weeks=2)),
        ("一个礼拜后", timedelta(weeks=1)),
        ("5小时后", timedelta(hours=5)),
        ("两个小时后", timedelta(hours=2)),
        ("半小时后", timedelta(minutes=30)),
        ("半个小时后", timedelta(minutes=30)),
        ("两个半小时后", timedelta(hours=2, minutes=30)),
        ("十分钟后", timedelta(minutes=10)),
        ("十五分钟以后", timedelta(minutes=15)),
        ("二十天后", timedelta(days=20)),
        ("九十九天后", timedelta(days=99)),
        ("十一天后", timedelta(days=11)),
        ("半天后", timedelta(hours=12)),
        ("半个月后", timedelta(days=15)),
        ("三天前", -timedelta(days=3)),
        ("两周前", -timedelta(weeks=2)),
        ("一小时前", -timedelta(hours=1)),
        ("10分钟之前", -timedelta(minutes=10)),
    ],
)
def test_offsets(text: str, delta: timedelta) -> None:
    assert show(text, WED) == instant(WED + delta)


def test_calendar_offsets() -> None:
    jan31 = datetime(2025, 1, 31, 9, tzinfo=CST)
    assert show("1个月后", jan31) == instant(datetime(2025, 2, 28, 9, tzinfo=CST))
    assert show("一个半月后", jan31) == instant(datetime(2025, 3, 15, 9, tzinfo=CST))
    may31 = datetime(2025, 5, 31, 9, tzinfo=CST)
    assert show("3个月前", may31) == instant(datetime(2025, 2, 28, 9, tzinfo=CST))
    leap = datetime(2024, 2, 29, 9, tzinfo=CST)
    assert show("1年后", leap) == instant(datetime(2025, 2, 28, 9, tzinfo=CST))
    assert show("半年后", leap) == instant(datetime(2024, 8, 29, 9, tzinfo=CST))


def test_hours_are_exact() -> None:
    span = parse_natural("3小时后", WED)
    assert span.start - WED == timedelta(hours=3)


# --- windows ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "start", "end", "granularity"),
    [
        ("最近7天", WED - timedelta(days=7), WED, "day"),
        ("过去三天", WED - timedelta(days=3), WED, "day"),
        ("近两周", WED - timedelta(weeks=2), WED, "week"),
        ("前3天", WED - timedelta(days=3), WED, "day"),
        ("最近3个月", datetime(2025, 7, 22, 10, tzinfo=CST), WED, "month"),
        ("过去24小时", WED - timedelta(hours=24), WED, "hour"),
        ("最近三天内", WED - timedelta(days=3), WED, "day"),
        ("未来三天", WED, WED + timedelta(days=3), "day"),
        ("接下来两周", WED, WED + timedelta(weeks=2), "week"),
        ("接下来的一个月", WED, datetime(2025, 11, 22, 10, tzinfo=CST), "month"),
        ("3天内", WED, WED + timedelta(days=3), "day"),
    ],
)
def test_windows(text: str, start: datetime, end: datetime, granularity: str) -> None:
    assert show(text, WED) == (format_instant(start), format_instant(end), granularity)


# --- boundaries ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("月底", date(2025, 10, 31)),
        ("月末", date(2025, 10, 31)),
        ("本月底", date(2025, 10, 31)),
        ("这个月底", date(2025, 10, 31)),
        ("下个月底", date(2025, 11, 30)),
        ("下月底", date(2025, 11, 30)),
        ("上个月底", date(2025, 9, 30)),
        ("月初", date(2025, 10, 1)),
        ("下个月初", date(2025, 11, 1)),
        ("月中", date(2025, 10, 15)),
        ("年底", date(2025, 12, 31)),
        ("年初", date(2025, 1, 1)),
        ("明年初", date(2026, 1, 1)),
        ("明年年底", date(2026, 12, 31)),
        ("2026年底", date(2026, 12, 31)),
        ("七月底", date(2026, 7, 31)),
        ("12月底", date(2025, 12, 31)),
    ],
)
def test_boundaries(text: str, expected: date) -> None:
    assert show(text, WED) == days(expected)


def test_month_end_in_february() -> None:
    assert show("月底", datetime(2024, 2, 10, tzinfo=CST)) == days(date(2024, 2, 29))
    assert show("月底", datetime(2025, 2, 10, tzinfo=CST)) == days(date(2025, 2, 28))
    assert show("下个月底", datetime(2024, 1, 31, tzinfo=CST)) == days(date(2024, 2, 29))


# --- dates ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("7月15日", date(2026, 7, 15)),
        ("7月15号", date(2026, 7, 15)),
        ("七月十五日", date(2026, 7, 15)),
        ("10月22日", date(2025, 10, 22)),
        ("十二月三十一日", date(2025, 12, 31)),
        ("2026年7月15日", date(2026, 7, 15)),
        ("二〇二六年七月十五日", date(2026, 7, 15)),
        ("下个月5号", date(2025, 11, 5)),
        ("本月25号", date(2025, 10, 25)),
        ("25号", date(2025, 10, 25)),
        ("15号", date(2025, 11, 15)),
        ("2026-07-15", date(2026, 7, 15)),
    ],
)
def test_dates(text: str, expected: date) -> None:
    assert show(text, WED) == days(expected)


def test_year_and_month() -> None:
    assert show("2026年7月", WED) == days(date(2026, 7, 1), 31, "month")
    assert show("2026年", WED) == days(date(2026, 1, 1), 365, "year")


# --- clock times ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("明天下午3点", datetime(2025, 10, 23, 15, tzinfo=CST)),
        ("明天下午三点半", datetime(2025, 10, 23, 15, 30, tzinfo=CST)),
        ("明天上午10点15分", datetime(2025, 10, 23, 10, 15, tzinfo=CST)),
        ("下周五上午十点半", datetime(2025, 10, 31, 10, 30, tzinfo=CST)),
        ("今晚8点", datetime(2025, 10, 22, 20, tzinfo=CST)),
        ("明晚七点一刻", datetime(2025, 10, 23, 19, 15, tzinfo=CST)),
        ("明天中午12点", datetime(2025, 10, 23, 12, tzinfo=CST)),
        ("明天中午1点", datetime(2025, 10, 23, 13, tzinfo=CST)),
        ("明天9点", datetime(2025, 10, 23, 9, tzinfo=CST)),
        ("明天 14:30", datetime(2025, 10, 23, 14, 30, tzinfo=CST)),
        ("下午3点", datetime(2025, 10, 22, 15, tzinfo=CST)),
        ("7月15日下午2点", datetime(2026, 7, 15, 14, tzinfo=CST)),
    ],
)
def test_clock_times(text: str, expected: datetime) -> None:
    assert show(text, WED) == minute(expected)


# --- tolerance and errors ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "same_as"),
    [
        ("在明天", "明天"),
        ("到下周五", "下周五"),
        ("下周五之前", "下周五"),
        ("月底前", "月底"),
        ("截止到月底", "月底"),
        ("明天。", "明天"),
        (" 下 周 五 ", "下周五"),
    ],
)
def test_filler(text: str, same_as: str) -> None:
    assert parse_natural(text, WED) == parse_natural(same_as, WED)


@pytest.mark.parametrize(
    "text",
    [
        "你好",
        "明",
        "周",
        "下",
        "三天",
        "3月后",
        "月",
        "2月30日",
        "2025年2月29日",
        "13月1日",
        "后天天",
        "明天明天",
        "25点",
        "明天下午25点",
        "三天后下午3点",
    ],
)
def test_rejected(text: str) -> None:
    with pytest.raises(TimeParseError):
        parse_natural(text, WED)


def test_ambiguous_month_count_names_the_fix() -> None:
    with pytest.raises(TimeParseError, match="个月"):
        parse_natural("3月后", WED)


def test_auto_detects_chinese_and_explicit_en_refuses_it() -> None:
    assert parse_natural("明天", WED, "zh") == parse_natural("明天", WED)
    with pytest.raises(TimeParseError):
        parse_natural("明天", WED, "en")
