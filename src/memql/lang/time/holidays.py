"""Holidays people name instead of a date ("Christmas", "Thanksgiving", 国庆节, 春节), for the English and
Chinese grammars. A holiday said alone is its next occurrence from today on (this year's while it is still
to come), like a bare weekday.

Three kinds:
- fixed days of the Gregorian calendar (Christmas, Halloween, 元旦, 国庆节);
- the n-th weekday of a month (US Thanksgiving is the fourth Thursday of November);
- days of the Chinese lunar calendar (春节, 元宵, 端午, 中秋), taken from a table of their Gregorian dates
  for 2024-2030. No lunar arithmetic is done, so a year outside the table has no such day: the words are
  then read as no time at all, never guessed.
"""

from __future__ import annotations

from datetime import date, datetime

from .errors import TimeParseError
from .spans import TimeSpan, calendar_day, day_span, nth_weekday_span

FIXED_EN = {
    "christmas eve": (12, 24),
    "christmas day": (12, 25),
    "christmas": (12, 25),
    "xmas": (12, 25),
    "new year's eve": (12, 31),
    "new years eve": (12, 31),
    "new year's day": (1, 1),
    "new years day": (1, 1),
    "halloween": (10, 31),
    "valentine's day": (2, 14),
    "valentines day": (2, 14),
    "independence day": (7, 4),
    "the fourth of july": (7, 4),
    "fourth of july": (7, 4),
    "st. patrick's day": (3, 17),
    "st patrick's day": (3, 17),
    "boxing day": (12, 26),
}
# month, weekday (0 = Monday), n (-1: the last)
NTH_WEEKDAY_EN = {
    "thanksgiving": (11, 3, 4),
    "thanksgiving day": (11, 3, 4),
    "labor day": (9, 0, 1),
    "memorial day": (5, 0, -1),
    "mother's day": (5, 6, 2),
    "mothers day": (5, 6, 2),
    "father's day": (6, 6, 3),
    "fathers day": (6, 6, 3),
    "martin luther king day": (1, 0, 3),
    "mlk day": (1, 0, 3),
}
FIXED_ZH = {
    "元旦": (1, 1),
    "情人节": (2, 14),
    "妇女节": (3, 8),
    "劳动节": (5, 1),
    "五一劳动节": (5, 1),
    "五一": (5, 1),
    "儿童节": (6, 1),
    "六一儿童节": (6, 1),
    "六一": (6, 1),
    "国庆节": (10, 1),
    "国庆": (10, 1),
    "平安夜": (12, 24),
    "圣诞节": (12, 25),
    "圣诞": (12, 25),
}
# the first day of the lunar year (春节) and the days after it people name, by Gregorian date
_NEW_YEAR = {
    2024: (2, 10), 2025: (1, 29), 2026: (2, 17), 2027: (2, 6), 2028: (1, 26), 2029: (2, 13), 2030: (2, 3),
}  # fmt: skip
_DRAGON_BOAT = {
    2024: (6, 10), 2025: (5, 31), 2026: (6, 19), 2027: (6, 9), 2028: (5, 28), 2029: (6, 16), 2030: (6, 5),
}  # fmt: skip
_MID_AUTUMN = {
    2024: (9, 17), 2025: (10, 6), 2026: (9, 25), 2027: (9, 15), 2028: (10, 3), 2029: (9, 22), 2030: (9, 12),
}  # fmt: skip
# name -> (table, days after the table's day)
LUNAR_ZH = {
    "春节": (_NEW_YEAR, 0),
    "大年初一": (_NEW_YEAR, 0),
    "除夕": (_NEW_YEAR, -1),
    "大年三十": (_NEW_YEAR, -1),
    "元宵节": (_NEW_YEAR, 14),
    "元宵": (_NEW_YEAR, 14),
    "端午节": (_DRAGON_BOAT, 0),
    "端午": (_DRAGON_BOAT, 0),
    "中秋节": (_MID_AUTUMN, 0),
    "中秋": (_MID_AUTUMN, 0),
}


def fixed(month_day: tuple[int, int], now: datetime, text: str) -> TimeSpan:
    return calendar_day(now, None, month_day[0], month_day[1], text)


def nth_weekday(rule: tuple[int, int, int], now: datetime) -> TimeSpan:
    month, weekday, n = rule
    span = nth_weekday_span(now, now.year, month, weekday, n)
    if span.end <= now.replace(hour=0, minute=0, second=0, microsecond=0):  # this year's is over
        span = nth_weekday_span(now, now.year + 1, month, weekday, n)
    return span


def lunar(name: str, now: datetime) -> TimeSpan:
    table, after = LUNAR_ZH[name]
    for year in (now.year, now.year + 1):
        if year in table:
            day = date(year, *table[year]).toordinal() + after
            if day >= now.date().toordinal():
                return day_span(date.fromordinal(day), now.tzinfo)
    raise TimeParseError(f"{name} of {now.year} is not in the holiday table")
