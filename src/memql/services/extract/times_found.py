"""The times a message says, found once per text: every time expression memql.lang.time reads, and what
people say of facts that it leaves out (a bare year, a bare month after a preposition; "next Friday" as the
coming one)."""

from __future__ import annotations

import re
from datetime import datetime
from functools import lru_cache

from memql.lang.time import TimeSpan, find_natural
from memql.lang.time.natural_en import MONTHS, WEEKDAYS
from memql.lang.time.spans import month_span, weekday_after, year_span

from .common import strip_span
from .marks import Marks

_YEAR = re.compile(r"(?<![\w/-])(?P<year>(?:19|20)[0-9]{2})(?![\w/-])")
# a year that describes a thing rather than dates a fact: "a 2021 CX-5" (after an article or possessive),
# "got a used mazda cx-5, 2021, grey" and "2014, 160k miles" (a year standing alone in a list)
_DESCRIBED_BY_YEAR = re.compile(r"\b(?:a|an|the|my|his|her|our|their|its|your)\s+$", re.I)


def _describes(text: str, a: int, b: int) -> bool:
    before = text[:a].rstrip()
    if _DESCRIBED_BY_YEAR.search(text[max(0, a - 8) : a]):
        return True
    return (not before or before[-1] in ",.;!?") and text[b:].lstrip()[:1] == ","


_ZH_MONTHS = ("一", "二", "三", "四", "五", "六", "七", "八", "九", "十", "十一", "十二")
# 8月, 十二月份 alone (not 8月15日, 8月底, 3个月): that month, the next one not before now
_ZH_MONTH = re.compile(
    r"(?<![0-9年个一二三四五六七八九十])(?P<prep>)(?P<month>(?P<m>1[0-2]|0?[1-9]|十[一二]?|[一二三四五六七八九])月份?)"
    r"(?![0-9一二三四五六七八九十底初中末日号])"
)
_BARE_MONTH = re.compile(
    r"\b(?P<prep>since|in|until|till|by|from|last|this|next)\s+(?P<month>"
    + "|".join(MONTHS)
    + r")\b(?!\s+\d)",
    re.I,
)


def find_times(text: str, now: datetime) -> list[tuple[int, int, TimeSpan]]:
    """Every time expression of `text` (memql.lang.time.find_natural), plus what people say in facts that
    it leaves out: a bare year ("until 2029", "in 2019") and a bare month after a preposition
    ("since March": the latest March not after now; "in/by/until March": the next one). A fresh list:
    a reading may refine its entries. Remembered, as each message is read again as a recent turn."""
    return list(_find_times(text, now))


@lru_cache(maxsize=512)
def _find_times(text: str, now: datetime) -> tuple[tuple[int, int, TimeSpan], ...]:
    found = []
    for a, b, span in find_natural(text, now):
        a, b = strip_span(text, a, b)  # "15 July." is read with its full stop: the words end before it
        if _OFFSET_WORDS.fullmatch(text, a, b) or (text.startswith("前", a) and text[a - 1 : a] == "提"):
            continue  # "moved it a day earlier", 提前一天: an amount a day moves by, never a day from now
        if (wd := _NEXT_WEEKDAY.match(text, a, b)) is not None:
            span = _coming_weekday(wd["wd"], now, span)
        found.append((a, b, span))
    taken = Marks(len(text))  # (a message of thousands of times: each bare year looked up in its span)
    for a, b, _ in found:
        taken.mark(a, b)
    free = taken.free

    extra = []
    for m in _YEAR.finditer(text):
        if free(m.start(), m.end()) and not _describes(text, m.start(), m.end()):
            extra.append((m.start(), m.end(), year_span(int(m["year"]), now.tzinfo)))
    for m in _BARE_MONTH.finditer(text):
        if free(m.start("month"), m.end("month")):
            month = MONTHS.index(m["month"].lower()) + 1
            extra.append(_month_mention(m, m["prep"].lower(), month, now))
    for m in _ZH_MONTH.finditer(text):
        if free(m.start(), m.end()):
            month = int(m["m"]) if m["m"].isdigit() else _ZH_MONTHS.index(m["m"]) + 1
            if 1 <= month <= 12:
                extra.append(_month_mention(m, "in", month, now))
    return tuple(sorted(found + extra, key=lambda t: t[0]))


_OFFSET_WORDS = re.compile(r"\S+\s+(?:minute|hour|day|week|month)s?\s+(?:earlier|later|sooner)", re.I)
# "next Friday" in conversation: the coming Friday when it is 3 or more days away (said on Monday
# 2026-03-02 it is 2026-03-06, as the issue that asked for extraction reads it), else next week's ("next
# Tuesday" said on Monday is not tomorrow). The command grammar (lang/time) keeps next week's day always,
# its documented reading for instructions.
_NEXT_WEEKDAY = re.compile(r"next\s+(?P<wd>" + "|".join(WEEKDAYS) + r")\b", re.I)


def _coming_weekday(name: str, now: datetime, span: TimeSpan) -> TimeSpan:
    """`span` ("next Friday", "next Friday at 10:30") moved to the coming day when it is 3+ days away."""
    coming = weekday_after(now.date(), WEEKDAYS.index(name.lower()))
    if (coming - now.date()).days < 3:
        return span
    shift = coming - span.start.astimezone(now.tzinfo).date()
    return TimeSpan(span.start + shift, span.end + shift, span.granularity)


def _month_mention(m: re.Match[str], prep: str, month: int, now: datetime) -> tuple[int, int, TimeSpan]:
    """A month named without its year: since/from/last March is the latest one not after now; next March
    the first one after this month; this March this year's; in/by/until March the next one not before."""
    local = now.astimezone(now.tzinfo)
    if prep in ("since", "from", "last"):
        year = local.year if month <= local.month else local.year - 1
    elif prep == "this":
        year = local.year
    elif prep == "next":
        year = local.year if month > local.month else local.year + 1
    else:
        year = local.year if month >= local.month else local.year + 1
    start = m.start("prep") if prep in ("last", "this", "next") else m.start("month")
    return start, m.end("month"), month_span(year, month, now.tzinfo)
