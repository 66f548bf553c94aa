"""English grammar for natural time expressions (the definitions are documented in `natural`)."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date, datetime, timedelta

from . import holidays
from .durations import Duration, add_duration
from .errors import TimeParseError
from .numbers import EN_NUMBER_RE, parse_en_number
from .spans import (
    UNIT_GRANULARITY,
    Grammar,
    Rule,
    TimeSpan,
    add_months,
    amount_duration,
    amount_handlers,
    boundary_span,
    calendar_day,
    day_span,
    hours_span,
    local_midnight,
    mid_month,
    month_span,
    nearest_day_of_month,
    nth_weekday_span,
    period_span,
    weekday_after,
    weekday_before,
    weekday_day_of_month,
    weekday_in_week,
    weekend_span,
    window,
)

WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_WEEKDAY_ABBR = {
    "mon": 0,
    "tue": 1,
    "tues": 1,
    "wed": 2,
    "thu": 3,
    "thur": 3,
    "thurs": 3,
    "fri": 4,
    "sat": 5,
    "sun": 6,
}
_WD_FULL = "|".join(WEEKDAYS)
_WD_ABBR = r"(?:tues|thurs|thur|mon|tue|wed|thu|fri|sat|sun)\.?"
_WD = rf"(?:{_WD_FULL}|{_WD_ABBR})"

MONTHS = (  # English month names, lower case (also read by memql.services.extract)
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
)
_MONTH = (
    r"(?:january|february|march|april|may|june|july|august|september|october|november|december"
    r"|sept|jan|feb|mar|apr|jun|jul|aug|sep|oct|nov|dec)\.?"
)
_ORD = r"(?:st|nd|rd|th)?"
# a month named in full after this/next/last ("this may be" is no month: a verb after it says so)
_MONTH_FULL = (
    r"(?:january|february|march|april|may(?!\s+(?:be|not|have|take|need|want|come|go|get|i|we|you|he|she|"
    r"they|it|well|also|still|just|work|help|happen|change)\b)|"
    r"june|july|august|september|october|november|december)\b"
)

_UNIT = (
    r"(?:minutes|minute|mins|min|hours|hour|hrs|hr|days|day|weeks|week|wks|wk|months|month|mos|mo"
    r"|years|year|yrs|yr)"
)
_NUM = EN_NUMBER_RE
_AMOUNT = (
    rf"(?:(?P<n>{_NUM})(?:\s+|(?<=[0-9]))(?P<u>{_UNIT})(?P<h>\s+and\s+a\s+half)?"
    rf"|(?P<n2>{_NUM})\s+and\s+a\s+half\s+(?P<u2>{_UNIT})"
    rf"|half\s+(?:an?\s+)?(?P<u3>{_UNIT}))"
)
_PREP = r"(?:(?:in|over|within|during|for|from)\s+)?"

_DAY_WORDS = {
    "today": 0,
    "tomorrow": 1,
    "tmrw": 1,
    "tmr": 1,
    "tmw": 1,
    "yesterday": -1,
    "overmorrow": 2,
    "day after tomorrow": 2,
    "day before yesterday": -2,
}
_PARTS = {"morning": (6, 12), "afternoon": (12, 18), "evening": (18, 24), "night": (18, 24)}


def _w(pattern: str) -> re.Pattern[str]:
    """Compile with word boundaries that also work for `finditer` over running text."""
    return re.compile(rf"(?<![a-z0-9])(?:{pattern})(?![a-z0-9])")


def _words(text: str) -> str:
    return " ".join(text.split())


def _unit(word: str) -> str:
    if word.startswith("mi"):
        return "minutes"
    if word.startswith("mo"):
        return "months"
    return {"h": "hours", "d": "days", "w": "weeks", "y": "years"}[word[0]]


def _weekday(word: str) -> int:
    word = word.rstrip(".")
    return WEEKDAYS.index(word) if word in WEEKDAYS else _WEEKDAY_ABBR[word]


def _month(word: str) -> int:
    return [m[:3] for m in MONTHS].index(word.rstrip(".")[:3]) + 1


def _amount(m: re.Match[str]) -> tuple[str, Duration]:
    if m["n"]:
        unit, whole, half = _unit(m["u"]), parse_en_number(m["n"]), bool(m["h"])
    elif m["n2"]:
        unit, whole, half = _unit(m["u2"]), parse_en_number(m["n2"]), True
    else:
        unit, whole, half = _unit(m["u3"]), 0, True
    return unit, amount_duration(unit, whole, half)


# --- handlers ---------------------------------------------------------------------------------


def _day_word(m: re.Match[str], now: datetime) -> TimeSpan:
    word = _words(m["w"]).removeprefix("the ")
    return day_span(now.date() + timedelta(days=_DAY_WORDS[word]), now.tzinfo)


def _part_today(m: re.Match[str], now: datetime) -> TimeSpan:
    word = _words(m.group(0))
    offset, part = {"tonight": (0, "night"), "last night": (-1, "night")}.get(word, (0, word.split()[-1]))
    return hours_span(now.date() + timedelta(days=offset), *_PARTS[part], now.tzinfo)


def _holiday(m: re.Match[str], now: datetime) -> TimeSpan:
    """ "Christmas", "Thanksgiving": the holiday's next day from today on (holidays.py)."""
    name = re.sub(r"\s+", " ", m["h"])
    if name in holidays.FIXED_EN:
        return holidays.fixed(holidays.FIXED_EN[name], now, m.group(0))
    return holidays.nth_weekday(holidays.NTH_WEEKDAY_EN[name], now)


_HOLIDAYS = "|".join(
    re.escape(h).replace(r"\ ", r"\s+")
    for h in sorted({*holidays.FIXED_EN, *holidays.NTH_WEEKDAY_EN}, key=len, reverse=True)
)


def _bare_weekday(m: re.Match[str], now: datetime) -> TimeSpan:
    return day_span(weekday_after(now.date(), _weekday(m["wd"])), now.tzinfo)


def _relative_weekday(m: re.Match[str], now: datetime) -> TimeSpan:
    return day_span(_weekday_day(_words(m["rel"]), _weekday(m["wd"]), now.date()), now.tzinfo)


def _weekday_day(rel: str, wd: int, today: date) -> date:
    """The day "<rel> <weekday>" names: a bare or "on" weekday is the next one from today on."""
    if rel in ("past", "this past"):
        return weekday_before(today, wd)
    if rel in ("", "on", "coming", "this coming", "the coming"):
        return weekday_after(today, wd)
    weeks = {"this": 0, "next": 1, "last": -1, "previous": -1, "after next": 2}
    return weekday_in_week(today, wd, weeks[rel])


_PERIOD_OFFSET = {
    "this": 0,
    "current": 0,
    "the current": 0,
    "next": 1,
    "last": -1,
    "previous": -1,
    "the previous": -1,
    "after next": 2,
    "before last": -2,
}


def _period(m: re.Match[str], now: datetime) -> TimeSpan:
    return period_span(now, m["u"], _PERIOD_OFFSET[_words(m["rel"])])


def _weekend(m: re.Match[str], now: datetime) -> TimeSpan:
    return weekend_span(now, {None: 0, "this": 0, "the": 0, "next": 1, "last": -1}[m["rel"]])


_future_instant, _past_instant, _past_window, _future_window = amount_handlers(_amount)

_ANCHOR_DAY = rf"today|tomorrow|tonight|(?:(?:this|next|on)\s+)?{_WD}"


def _from_day(m: re.Match[str], now: datetime) -> TimeSpan:
    """ "two weeks from today", "a week from Friday": the day the amount after the named day falls on."""
    unit, amount = _amount(m)
    if unit in ("minutes", "hours"):
        raise TimeParseError(f"an amount of {unit} from a day names no day: {m.group(0)!r}")
    anchor = _words(m["anchor"])
    if anchor in _DAY_WORDS or anchor == "tonight":
        day = now.date() + timedelta(days=_DAY_WORDS.get(anchor, 0))
    else:
        rel, _, wd = anchor.rpartition(" ")
        day = _weekday_day(rel, _weekday(wd), now.date())
    return day_span(add_duration(local_midnight(day, now.tzinfo), amount).date(), now.tzinfo)


def _day_of_month(m: re.Match[str], now: datetime) -> TimeSpan:
    """ "on the 27th": the first such day of a month from today on."""
    return day_span(nearest_day_of_month(now.date(), int(m["day"]), m.group(0)), now.tzinfo)


def _weekday_the_day(m: re.Match[str], now: datetime) -> TimeSpan:
    """ "Sunday the 13th": the first 13th from today on that is a Sunday."""
    day = weekday_day_of_month(now.date(), int(m["day"]), _weekday(m["wd"]), m.group(0))
    return day_span(day, now.tzinfo)


def _rolling(sign: int) -> Callable[[re.Match[str], datetime], TimeSpan]:
    def handler(m: re.Match[str], now: datetime) -> TimeSpan:
        unit = m["u1"] + "s"
        return window(now, amount_duration(unit, 1), sign, UNIT_GRANULARITY[unit])

    return handler


_BOUNDARY_OFFSET = {
    None: 0,
    "the": 0,
    "this": 0,
    "current": 0,
    "the current": 0,
    "next": 1,
    "the next": 1,
    "the following": 1,
    "last": -1,
    "the last": -1,
    "previous": -1,
    "the previous": -1,
}


def _boundary(m: re.Match[str], now: datetime) -> TimeSpan:
    rel = _words(m["rel"]) if m["rel"] else None
    return boundary_span(now, m["u"], _BOUNDARY_OFFSET[rel], end=m["edge"] == "end")


def _boundary_abbr(m: re.Match[str], now: datetime) -> TimeSpan:
    unit = {"d": "day", "w": "week", "m": "month", "y": "year"}[m.group(0)[2]]
    return boundary_span(now, unit, 0, end=True)


def _mid_month(m: re.Match[str], now: datetime) -> TimeSpan:
    return mid_month(now, _BOUNDARY_OFFSET[m["rel"]])


def _date(m: re.Match[str], now: datetime) -> TimeSpan:
    year = int(m["year"]) if m["year"] else None
    return calendar_day(now, year, _month(m["mon"]), int(m["day"]), m.group(0))


def _date_of_year(m: re.Match[str], now: datetime) -> TimeSpan:
    """ "April 30 next year", "the 3rd of May last year": the date in the year named from now."""
    year = now.year + {"next": 1, "this": 0, "last": -1}[m["rel"].lower()]
    return calendar_day(now, year, _month(m["mon"] or m["mon2"]), int(m["day"] or m["day2"]), m.group(0))


def _month_of_year(m: re.Match[str], now: datetime) -> TimeSpan:
    """ "this October", "next May", "last December": the month in the year named from now (as 明年五月)."""
    return month_span(
        now.year + {"next": 1, "this": 0, "last": -1}[m["rel"].lower()], _month(m["mon"]), now.tzinfo
    )


def _relative_month_day(m: re.Match[str], now: datetime) -> TimeSpan:
    """ "next month on the 30th", "the 5th of next month": that day of the month named relatively."""
    year, month = add_months(now.year, now.month, _BOUNDARY_OFFSET[m["rel"].lower()])
    return calendar_day(now, year, month, int(m["day"]), m.group(0))


_NTH = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4, "last": -1}


def _nth_weekday(m: re.Match[str], now: datetime) -> TimeSpan:
    """ "the last weekend of August", "the first Monday of next month"."""
    if m["rel"]:
        year, month = add_months(now.year, now.month, _BOUNDARY_OFFSET[m["rel"].lower()])
    else:
        year, month = (int(m["year"]) if m["year"] else None), _month(m["mon"].lower())
    weekday = None if m["wd"].lower().startswith("weekend") else WEEKDAYS.index(m["wd"].lower().rstrip("s"))
    return nth_weekday_span(now, year, month, weekday, _NTH[m["ord"].lower()])


def _month_year(m: re.Match[str], now: datetime) -> TimeSpan:
    year = int(m["year"])
    if year < 1:
        raise TimeParseError(f"no such year: {m.group(0)!r}")
    return month_span(year, _month(m["mon"]), now.tzinfo)


RULES: tuple[Rule, ...] = (
    Rule(
        _w(
            r"(?P<w>(?:the\s+)?day\s+after\s+tomorrow|(?:the\s+)?day\s+before\s+yesterday|overmorrow"
            r"|today|tomorrow|tmrw|tmr|tmw|yesterday)"
        ),
        _day_word,
    ),
    Rule(_w(r"tonight|last\s+night|this\s+(?:morning|afternoon|evening)"), _part_today),
    Rule(
        _w(
            rf"(?P<rel>this\s+coming|the\s+coming|coming|this\s+past|past|on|this|next|last|previous)"
            rf"\s+(?P<wd>{_WD})"
        ),
        _relative_weekday,
    ),
    Rule(_w(rf"(?P<wd>{_WD})\s+(?P<rel>this|next|last)\s+week"), _relative_weekday),
    # "the Monday after next", "Monday of the week after next": the Monday of the week after next week
    Rule(
        _w(rf"(?:the\s+)?(?P<wd>{_WD})\s+(?:(?:of\s+)?the\s+week\s+)?(?P<rel>after\s+next)"),
        _relative_weekday,
    ),
    Rule(_w(rf"(?P<wd>{_WD_FULL})"), _bare_weekday),
    Rule(_w(rf"(?P<h>{_HOLIDAYS})"), _holiday),
    Rule(_w(rf"(?P<wd>{_WD_ABBR})"), _bare_weekday, find=False),
    Rule(
        _w(r"(?P<rel>this|current|the\s+current|next|last|previous|the\s+previous)\s+(?P<u>week|month|year)"),
        _period,
    ),
    Rule(_w(r"the\s+(?P<u>week|month|year)\s+(?P<rel>after\s+next|before\s+last)"), _period),
    # "the weekend of the 18th": the day named (a weekend is the days around it)
    Rule(_w(r"(?:the\s+)?weekend\s+of\s+the\s+(?P<day>[0-9]{1,2})(?:st|nd|rd|th)"), _day_of_month),
    Rule(_w(r"(?:(?P<rel>this|next|last|the)\s+)?weekend"), _weekend),
    Rule(_w(rf"in\s+{_AMOUNT}"), _future_instant),
    Rule(_w(rf"{_AMOUNT}\s+(?:from\s+now|later|hence)"), _future_instant),
    Rule(_w(rf"(?:a\s+|an\s+)?{_AMOUNT}\s+(?:from|after)\s+(?P<anchor>{_ANCHOR_DAY})"), _from_day),
    Rule(_w(rf"{_AMOUNT}\s+(?:ago|before\s+now|earlier)"), _past_instant),
    Rule(_w(rf"{_PREP}(?:the\s+)?(?:last|past|previous|preceding)\s+{_AMOUNT}"), _past_window),
    Rule(_w(rf"{_PREP}(?:the\s+)?(?:next|coming|following|upcoming)\s+{_AMOUNT}"), _future_window),
    Rule(_w(rf"within\s+{_AMOUNT}"), _future_window),
    Rule(_w(rf"{_PREP}(?:the\s+(?:last|past)|past)\s+(?P<u1>minute|hour|day|week|month|year)"), _rolling(-1)),
    Rule(_w(rf"{_PREP}the\s+(?:next|coming)\s+(?P<u1>minute|hour|day|week|month|year)"), _rolling(1)),
    Rule(
        _w(
            r"(?:the\s+)?(?P<edge>end|beginning|start)\s+of\s+(?:(?P<rel>the\s+current|the\s+next|the\s+following"
            r"|the\s+last|the\s+previous|the|this|current|next|last|previous)\s+)?(?P<u>day|week|month|year)"
        ),
        _boundary,
    ),
    Rule(_w(r"eod|eow|eom|eoy"), _boundary_abbr),
    Rule(_w(r"mid-?\s*month|(?:the\s+)?middle\s+of\s+(?:(?P<rel>the|this|next|last)\s+)?month"), _mid_month),
    Rule(_w(rf"(?P<mon>{_MONTH})\s+(?P<day>[0-9]{{1,2}}){_ORD}(?:,?\s+(?P<year>[0-9]{{4}}))?"), _date),
    # "Tuesday, March 10", "Fri the 13th": a date with its weekday is the date (the weekday only names it)
    Rule(
        _w(
            rf"(?:{_WD_FULL}|{_WD_ABBR}),?\s+(?P<mon>{_MONTH})\s+(?P<day>[0-9]{{1,2}}){_ORD}(?:,?\s+(?P<year>[0-9]{{4}}))?"
        ),
        _date,
    ),
    Rule(
        _w(rf"(?P<wd>{_WD_FULL}|{_WD_ABBR}),?\s+the\s+(?P<day>[0-9]{{1,2}})(?:st|nd|rd|th)"), _weekday_the_day
    ),
    Rule(
        _w(
            rf"(?:the\s+)?(?P<day>[0-9]{{1,2}}){_ORD}(?:\s+of)?\s+(?P<mon>{_MONTH})(?:,?\s+(?P<year>[0-9]{{4}}))?"
        ),
        _date,
    ),
    Rule(_w(rf"(?P<mon>{_MONTH}),?\s+(?P<year>[0-9]{{4}})"), _month_year),
    Rule(_w(rf"(?P<rel>next|this|last)\s+(?P<mon>{_MONTH_FULL})"), _month_of_year),
    Rule(
        _w(
            rf"(?:(?P<mon>{_MONTH})\s+(?P<day>[0-9]{{1,2}}){_ORD}|(?:the\s+)?(?P<day2>[0-9]{{1,2}}){_ORD}(?:\s+of)?\s+"
            rf"(?P<mon2>{_MONTH})),?\s+(?P<rel>next|this|last)\s+year"
        ),
        _date_of_year,
    ),
    Rule(
        _w(
            r"(?:the\s+)?(?P<ord>first|1st|second|2nd|third|3rd|fourth|4th|last)\s+(?P<wd>weekend|"
            + "|".join(WEEKDAYS)
            + r")s?\s+(?:of|in)\s+(?:(?P<rel>next|this|last)\s+month|"
            + rf"(?P<mon>{_MONTH})(?:,?\s+(?P<year>[0-9]{{4}}))?)"
        ),
        _nth_weekday,
    ),
    Rule(
        _w(r"(?P<rel>next|this|last)\s+month\s*,?\s+on\s+the\s+(?P<day>[0-9]{1,2})(?:st|nd|rd|th)"),
        _relative_month_day,
    ),
    Rule(
        _w(r"(?:on\s+)?the\s+(?P<day>[0-9]{1,2})(?:st|nd|rd|th)\s+(?:of\s+)?(?P<rel>next|this|last)\s+month"),
        _relative_month_day,
    ),
    # "the 27th" (an ordinal is needed: "the 27" is a count), not "the 27th floor" or "the 3rd of May"
    Rule(
        _w(
            r"the\s+(?P<day>[0-9]{1,2})(?:st|nd|rd|th)(?!\s+(?:of|floor|birthday|anniversary|time|place|row|century))"
        ),
        _day_of_month,
    ),
)

# --- clock times ------------------------------------------------------------------------------

_TOD = (
    r"(?:(?P<th>[0-9]{1,2})(?::(?P<tm>[0-9]{2}))?\s*(?P<ap>a\.?m\.?|p\.?m\.?)"
    r"|(?P<hh>[0-9]{1,2}):(?P<mm>[0-9]{2})|(?P<noon>noon|midday))"
)


def _tod_value(m: re.Match[str]) -> tuple[int, int, bool]:
    if m["noon"]:
        return 12, 0, True
    if m["ap"]:
        hour, minute = int(m["th"]), int(m["tm"] or 0)
        if not 1 <= hour <= 12 or minute > 59:
            raise TimeParseError(f"no such time: {m.group(0)!r}")
        return hour % 12 + (12 if m["ap"].startswith("p") else 0), minute, True
    hour, minute = int(m["hh"]), int(m["mm"])
    if hour > 23 or minute > 59:
        raise TimeParseError(f"no such time: {m.group(0)!r}")
    return hour, minute, hour == 0 or hour > 12


GRAMMAR = Grammar(
    name="en",
    rules=RULES,
    tod=_w(_TOD),
    tod_suffix=re.compile(rf"\s*,?\s*(?:(?:at|@)\s*)?(?<![a-z0-9]){_TOD}(?![a-z0-9])"),
    tod_prefix=re.compile(rf"(?:(?:at|@)\s*)?(?<![a-z0-9]){_TOD}\s*,?\s*(?:on\s+)?"),
    tod_value=_tod_value,
    tod_strong=lambda m: True,
    part_suffix=re.compile(r"\s+(?:in\s+the\s+)?(?P<part>morning|afternoon|evening|night)(?![a-z0-9])"),
    part_hours=_PARTS,
    lead=re.compile(
        r"(?:by|until|till|til|before|after|on|at|due(?:\s+(?:by|on|at))?|from|since"
        r"|starting(?:\s+(?:on|from))?|as\s+of)\s+"
    ),
    trail=None,
)

__all__ = ["GRAMMAR", "RULES"]
