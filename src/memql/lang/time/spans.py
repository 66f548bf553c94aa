"""The TimeSpan type, the grammar types and the calendar helpers shared by the en/zh grammars.

All calendar arithmetic happens on wall-clock dates in the time zone of `now`; spans are then
converted to UTC by `TimeSpan` itself.
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta, tzinfo
from typing import Literal, get_args

from .durations import Duration, add_duration
from .errors import TimeParseError

Granularity = Literal["instant", "minute", "hour", "day", "week", "month", "year"]
GRANULARITIES: tuple[str, ...] = get_args(Granularity)

UNIT_GRANULARITY: dict[str, Granularity] = {
    "minutes": "minute",
    "hours": "hour",
    "days": "day",
    "weeks": "week",
    "months": "month",
    "years": "year",
}


@dataclass(frozen=True)
class TimeSpan:
    """[start, end) in UTC; for an instant start == end. `granularity` says what the span stands for."""

    start: datetime
    end: datetime
    granularity: Granularity

    def __post_init__(self) -> None:
        for name in ("start", "end"):
            value = getattr(self, name)
            if not isinstance(value, datetime) or value.utcoffset() is None:
                raise ValueError(f"TimeSpan.{name} must be a timezone-aware datetime, got {value!r}")
            object.__setattr__(self, name, value.astimezone(UTC))
        if self.end < self.start:
            raise ValueError(f"TimeSpan ends before it starts: {self.start} > {self.end}")
        if self.granularity not in GRANULARITIES:
            raise ValueError(f"unknown granularity {self.granularity!r}")


Handler = Callable[[re.Match[str], datetime], TimeSpan]


@dataclass(frozen=True)
class Rule:
    """A pattern over normalised (lower-case, half-width) text and what it means relative to `now`.

    `find=False` keeps a rule out of `find_natural` (too ambiguous inside running text, e.g. a
    bare "sat"), but `parse_natural` still uses it.
    """

    pattern: re.Pattern[str]
    handler: Handler
    find: bool = True


@dataclass(frozen=True)
class Grammar:
    """One language: its rules, its time-of-day and part-of-day suffixes, and the filler it may strip."""

    name: str
    rules: tuple[Rule, ...]
    tod: re.Pattern[str]  # a clock time, e.g. "3pm" / "下午3点"
    tod_suffix: re.Pattern[str]  # separator + clock time, after a day: "tomorrow at 3pm"
    tod_prefix: re.Pattern[str] | None  # clock time + separator, before a day: "3pm on friday"
    tod_value: Callable[[re.Match[str]], tuple[int, int, bool]]  # hour (0..24), minute, explicit am/pm
    tod_strong: Callable[[re.Match[str]], bool]  # may a clock time stand alone in running text?
    part_suffix: re.Pattern[str]  # part of day after a day: "tomorrow morning" / "明天下午"
    part_hours: dict[str, tuple[int, int]]
    lead: re.Pattern[str]  # filler before a phrase: "by", "until" / "在", "到"
    trail: re.Pattern[str] | None  # filler after a phrase: "之前", "为止"


# --- dates and spans in the time zone of `now` -------------------------------------------------


def local_midnight(d: date, tz: tzinfo | None) -> datetime:
    return datetime(d.year, d.month, d.day, tzinfo=tz)


def days_span(first: date, count: int, tz: tzinfo | None, granularity: Granularity = "day") -> TimeSpan:
    return TimeSpan(local_midnight(first, tz), local_midnight(first + timedelta(days=count), tz), granularity)


def day_span(d: date, tz: tzinfo | None) -> TimeSpan:
    return days_span(d, 1, tz)


def hours_span(d: date, first_hour: int, end_hour: int, tz: tzinfo | None) -> TimeSpan:
    midnight = local_midnight(d, tz)
    return TimeSpan(midnight + timedelta(hours=first_hour), midnight + timedelta(hours=end_hour), "hour")


def clock_span(d: date, hour: int, minute: int, tz: tzinfo | None) -> TimeSpan:
    """The minute starting at hour:minute local time on `d` (hour 24 is the next midnight)."""
    start = local_midnight(d, tz) + timedelta(hours=hour, minutes=minute)
    return TimeSpan(start, start + timedelta(minutes=1), "minute")


def week_monday(d: date) -> date:
    return d - timedelta(days=d.weekday())


def week_span(d: date, tz: tzinfo | None, weeks: int = 0) -> TimeSpan:
    """The ISO week (Monday..Sunday) containing `d`, moved by `weeks`."""
    return days_span(week_monday(d) + timedelta(weeks=weeks), 7, tz, "week")


def add_months(year: int, month: int, months: int) -> tuple[int, int]:
    index = year * 12 + (month - 1) + months
    return index // 12, index % 12 + 1


def month_days(year: int, month: int) -> int:
    if not 1 <= year <= 9999:
        raise TimeParseError(f"year {year} is out of range")
    return calendar.monthrange(year, month)[1]


def month_span(year: int, month: int, tz: tzinfo | None) -> TimeSpan:
    return days_span(date(year, month, 1), month_days(year, month), tz, "month")


def year_span(year: int, tz: tzinfo | None) -> TimeSpan:
    return TimeSpan(local_midnight(date(year, 1, 1), tz), local_midnight(date(year + 1, 1, 1), tz), "year")


def weekday_in_week(today: date, weekday: int, weeks: int = 0) -> date:
    """Weekday (0 = Monday) of the ISO week containing `today`, moved by `weeks`."""
    return week_monday(today) + timedelta(weeks=weeks, days=weekday)


def weekday_after(today: date, weekday: int) -> date:
    """The first `weekday` strictly after `today`."""
    return today + timedelta(days=(weekday - today.weekday() - 1) % 7 + 1)


def weekday_before(today: date, weekday: int) -> date:
    """The last `weekday` strictly before `today`."""
    return today - timedelta(days=(today.weekday() - weekday - 1) % 7 + 1)


def checked_date(year: int, month: int, day: int, text: str) -> date:
    try:
        return date(year, month, day)
    except ValueError:
        raise TimeParseError(f"no such date: {text!r}") from None


def nearest_date(today: date, month: int, day: int, text: str) -> date:
    """The first month/day on or after `today` (Feb 29 waits for a leap year)."""
    if not 1 <= month <= 12 or not 1 <= day <= 31:
        raise TimeParseError(f"no such date: {text!r}")
    for year in range(today.year, min(today.year + 9, 10_000)):
        try:
            candidate = date(year, month, day)
        except ValueError:
            continue
        if candidate >= today:
            return candidate
    raise TimeParseError(f"no such date: {text!r}")


def nearest_day_of_month(today: date, day: int, text: str) -> date:
    """The first date on or after `today` whose day of the month is `day`."""
    if not 1 <= day <= 31:
        raise TimeParseError(f"no such day of the month: {text!r}")
    year, month = today.year, today.month
    for _ in range(13):
        if day <= month_days(year, month) and date(year, month, day) >= today:
            return date(year, month, day)
        year, month = add_months(year, month, 1)
    raise TimeParseError(f"no such day of the month: {text!r}")


def weekday_day_of_month(today: date, day: int, weekday: int, text: str) -> date:
    """The first date on or after `today` whose day of the month is `day` and whose weekday is `weekday`
    ("Sunday the 13th" said in November is 13 December when that is the Sunday); the nearest `day` when
    no such date comes within 14 months (the weekday was a slip)."""
    nearest = nearest_day_of_month(today, day, text)
    year, month = nearest.year, nearest.month
    for _ in range(14):
        if day <= month_days(year, month) and date(year, month, day).weekday() == weekday:
            return date(year, month, day)
        year, month = add_months(year, month, 1)
    return nearest


# --- amounts, offsets and windows ---------------------------------------------------------------


def amount_duration(unit: str, whole: int, half: bool = False) -> Duration:
    """`whole` units, plus half a unit when `half`.

    Half a unit: minute = 30 s, hour = 30 min, day = 12 h, week = 3 days 12 h, month = 15 days
    (半个月 / "half a month"; months have no fixed length), year = 6 months.
    """
    parts: dict[str, int | float] = {unit: whole}
    if half:
        extra: dict[str, dict[str, int | float]] = {
            "minutes": {"seconds": 30.0},
            "hours": {"minutes": 30},
            "days": {"hours": 12},
            "weeks": {"days": 3, "hours": 12},
            "months": {"days": 15},
            "years": {"months": 6},
        }
        parts.update(extra[unit])
    return Duration(**parts)  # type: ignore[arg-type]


def offset_instant(now: datetime, amount: Duration, sign: int) -> TimeSpan:
    moved = add_duration(now, amount, sign)
    return TimeSpan(moved, moved, "instant")


def window(now: datetime, amount: Duration, sign: int, granularity: Granularity) -> TimeSpan:
    """[now - amount, now] for sign=-1, [now, now + amount] for sign=1."""
    other = add_duration(now, amount, sign)
    return TimeSpan(min(now, other), max(now, other), granularity)


def period_span(now: datetime, unit: str, offset: int) -> TimeSpan:
    """The whole calendar week/month/year containing now, moved by `offset` periods."""
    today, tz = now.date(), now.tzinfo
    if unit == "week":
        return week_span(today, tz, offset)
    if unit == "month":
        return month_span(*add_months(today.year, today.month, offset), tz)
    if unit == "year":
        return year_span(today.year + offset, tz)
    raise ValueError(f"unknown period {unit!r}")


def boundary_span(now: datetime, unit: str, offset: int, end: bool) -> TimeSpan:
    """First or last sub-unit of a period: the first/last hour of a day, Monday/Sunday of a week,
    the first/last day of a month, Jan 1 / Dec 31 of a year."""
    today, tz = now.date(), now.tzinfo
    if unit == "day":
        d = today + timedelta(days=offset)
        return hours_span(d, 23, 24, tz) if end else hours_span(d, 0, 1, tz)
    if unit == "week":
        return day_span(weekday_in_week(today, 6 if end else 0, offset), tz)
    if unit == "month":
        year, month = add_months(today.year, today.month, offset)
        return day_span(date(year, month, month_days(year, month) if end else 1), tz)
    if unit == "year":
        year = today.year + offset
        return day_span(date(year, 12, 31) if end else date(year, 1, 1), tz)
    raise ValueError(f"unknown period {unit!r}")


def mid_month(now: datetime, offset: int) -> TimeSpan:
    """The 15th of the month containing now, moved by `offset` months."""
    year, month = add_months(now.date().year, now.date().month, offset)
    return day_span(date(year, month, 15), now.tzinfo)


def nth_weekday_span(now: datetime, year: int | None, month: int, weekday: int | None, n: int) -> TimeSpan:
    """The `n`th (1-5, or -1 for the last) `weekday` (0 = Monday; None: the weekend, Saturday and Sunday) of
    a month; without a year, of the month's next occurrence from now's month on."""
    if year is None:
        year = now.year + (month < now.month)
    wanted = 5 if weekday is None else weekday
    days = [date(year, month, d) for d in range(1, month_days(year, month) + 1)]
    matching = [d for d in days if d.weekday() == wanted]
    if not -1 <= n <= len(matching) or n == 0:
        raise TimeParseError(f"no such day: the {n}th of {year}-{month:02d}")
    first = matching[n - 1] if n > 0 else matching[-1]
    return days_span(first, 1 if weekday is not None else 2, now.tzinfo)


def weekend_span(now: datetime, weeks: int) -> TimeSpan:
    """Saturday and Sunday of the ISO week containing now, moved by `weeks`."""
    return days_span(weekday_in_week(now.date(), 5, weeks), 2, now.tzinfo)


def amount_handlers(
    read: Callable[[re.Match[str]], tuple[str, Duration]],
) -> tuple[Handler, Handler, Handler, Handler]:
    """The four amount rules every language shares, given its way of reading "N units" from a match:
    in N units (future instant), N units ago (past instant), the last N units, the next N units."""

    def future_instant(m: re.Match[str], now: datetime) -> TimeSpan:
        return offset_instant(now, read(m)[1], 1)

    def past_instant(m: re.Match[str], now: datetime) -> TimeSpan:
        return offset_instant(now, read(m)[1], -1)

    def past_window(m: re.Match[str], now: datetime) -> TimeSpan:
        unit, amount = read(m)
        return window(now, amount, -1, UNIT_GRANULARITY[unit])

    def future_window(m: re.Match[str], now: datetime) -> TimeSpan:
        unit, amount = read(m)
        return window(now, amount, 1, UNIT_GRANULARITY[unit])

    return future_instant, past_instant, past_window, future_window


def calendar_day(now: datetime, year: int | None, month: int, day: int, text: str) -> TimeSpan:
    """A written date as a day in now's timezone; without a year, the nearest such date from today on."""
    if year is not None:
        return day_span(checked_date(year, month, day, text), now.tzinfo)
    return day_span(nearest_date(now.date(), month, day, text), now.tzinfo)
