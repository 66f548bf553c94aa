"""Natural time expressions (English and Chinese) resolved against a given `now`.

`parse_natural(text, now)` reads one time phrase ("next Friday", "下周五") and returns a
`TimeSpan` [start, end) in UTC; `find_natural(text, now)` finds every time phrase inside a longer
sentence. Nothing here reads the clock. The calendar (what "tomorrow" or "Friday" means) is that
of `now`'s time zone; the results are converted to UTC. Weeks run Monday..Sunday (ISO).

Definitions (the same in both languages):

* Days: today / 今天, tomorrow / 明天, the day after tomorrow / 后天 / 大后天, yesterday / 昨天,
  the day before yesterday / 前天 / 大前天: the whole local day (granularity "day").
* Parts of the day (granularity "hour"): morning / 早上 / 上午 06-12, afternoon / 下午 12-18,
  evening, night, tonight / 晚上 / 今晚 18-24, 凌晨 00-06, 中午 11-13, 傍晚 17-19. "last night" /
  昨晚 is yesterday 18-24; 明早 is tomorrow 06-12; a bare 下午 / 晚上 is today's. A part may follow
  any day: "friday afternoon", "下周五下午".
* Weekdays: "this Friday" / 这周五 / 本周五 = Friday of the current ISO week (even if already past);
  "next Friday" / 下周五 = Friday of the next ISO week; "last Friday" / 上周五 = Friday of the
  previous ISO week; 下下周五 / 上上周五 two weeks away. A bare "Friday" / "on Friday" /
  "coming Friday" / 周五 = the first Friday strictly after today. "(this) past Friday" = the last
  Friday strictly before today.
* Periods (whole): this/next/last week|month|year, 本周/下周/上周, 本月/下个月/上个月, 今年/明年/去年
  (granularity "week"/"month"/"year"). The weekend / 周末 = Saturday-Sunday of the current ISO week
  (next weekend / 下周末: of the next week).
* Offsets (instants, start == end): "in 3 weeks", "3 days from now", "2 hours later", "5 minutes
  ago", 三天后, 两周之后, 3个月后, 半小时后, 三天前. Years/months are calendar units (clamped to the
  month's end), days/weeks calendar days, hours/minutes exact elapsed time.
* Rolling windows (granularity of the unit): "(in/over/within) the last|past N <unit>", 最近/过去/近/前
  N天 = [now - N, now]; "the next N <unit>", "within N <unit>", 未来/接下来N天, N天内 = [now, now + N].
  "the past week" / "the last week" (with "the") is the rolling 7 days; "last week" is the calendar week.
* Amounts: digits, one..ninety-nine, a/an, a couple (of) = 2, a few = 3, a dozen = 12; 一..九十九, 两,
  百/千, full-width digits. Half a unit: half an hour / 半小时 = 30 min, half a day / 半天 = 12 h,
  half a week = 3.5 days, half a month / 半个月 = 15 days (months have no fixed length; 一个半月 =
  1 month + 15 days), half a year / 半年 = 6 months. N月 without 个 is rejected as ambiguous (三个月后).
* Boundaries (granularity "day"): end of the month / 月底 / 月末 = the last calendar day of the month,
  beginning/start of the month / 月初 = the 1st, mid-month / 月中 = the 15th; end of the week = Sunday,
  start of the week = Monday; end of the year / 年底 = Dec 31, 年初 = Jan 1. "next"/"last"/下个/上个
  move the period (end of next month, 下个月底). End/start of the day (EOD) = the last/first hour
  of today (granularity "hour"). EOW/EOM/EOY = end of the week/month/year. 七月底 = the last day
  of July (this year's, or next year's once July is over).
* Dates: "July 15", "15 July", "the 15th of July", "July 15th, 2026", "Jul 15 2026", 7月15日, 7月15号,
  2026年7月15日, 下个月5号, "2026-07-15", "2026/7/15" = that whole local day. Without a year: the
  nearest occurrence on or after today (a date already past this year means next year's).
  "July 2026" / 2026年7月 = that month; 2026年 = that year. A bare 15号 (parse_natural only) = the
  next 15th on or after today.
* Clock times (granularity "minute", [t, t + 1 min)): "tomorrow at 3pm", "3:30 pm on Friday",
  "next Friday 10:00", "tonight at 8:30" (a 12-hour reading is chosen when it falls inside the
  part of the day), 明天下午3点, 周五上午十点半, 今晚8点. A clock time alone ("at 3pm", 下午3点) is today.
* A plain ISO date "2025-10-21" is the whole day in now's time zone; an ISO date-time with an
  offset is that instant; one without an offset is read as wall-clock time in now's time zone.

`parse_natural` tolerates leading filler (by, until, before, on, at, due, since / 在, 到, 截止) and
Chinese trailing filler (之前, 前, 为止, 左右) around a phrase. `lang="auto"` uses the Chinese
grammar when the text contains CJK ideographs, otherwise the English one (`find_natural` then
uses both, so mixed sentences work). Bare weekday abbreviations ("sat", "sun", "wed") are
understood by `parse_natural` only: inside running text they are ordinary words.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Literal

from . import natural_en, natural_zh
from .errors import TimeParseError, quote
from .instants import parse_instant
from .spans import Grammar, Rule, TimeSpan, checked_date, clock_span, day_span, hours_span

__all__ = ["Lang", "TimeSpan", "find_natural", "parse_natural"]

Lang = Literal["auto", "en", "zh"]
_MAX_PHRASE = 200
_CJK = r"\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_CJK_RE = re.compile(f"[{_CJK}]")
_SPACE_NEAR_CJK = re.compile(f"(?<=[{_CJK}])\\s+|\\s+(?=[{_CJK}])")
_EDGE_JUNK = " \t\r\n.,;:!?。，；：！？、\"'“”‘’()（）[]【】「」"


# --- ISO dates shared by both languages -------------------------------------------------------


def _iso(m: re.Match[str], now: datetime) -> TimeSpan:
    raw = m["iso"]
    instant, assumed_utc = parse_instant(raw)
    if len(raw) == 10:
        return day_span(instant.date(), now.tzinfo)
    if assumed_utc:
        instant = instant.replace(tzinfo=now.tzinfo)
    return TimeSpan(instant, instant, "instant")


def _slash_date(m: re.Match[str], now: datetime) -> TimeSpan:
    return day_span(checked_date(int(m["y"]), int(m["m"]), int(m["d"]), m.group(0)), now.tzinfo)


_COMMON_RULES: tuple[Rule, ...] = (
    Rule(
        re.compile(
            r"(?<![0-9a-z])(?P<iso>[0-9]{4}-[0-9]{2}-[0-9]{2}(?:[t ][0-9]{2}:[0-9]{2}"
            r"(?::[0-9]{2}(?:[.,][0-9]{1,30})?)?(?:z|[+-][0-9]{2}(?::?[0-9]{2})?)?)?)"
            r"(?![0-9a-z])"
        ),
        _iso,
    ),
    Rule(
        re.compile(r"(?<![0-9/])(?P<y>[0-9]{4})/(?P<m>[0-9]{1,2})/(?P<d>[0-9]{1,2})(?![0-9/])"), _slash_date
    ),
)

# --- text normalisation -----------------------------------------------------------------------


def _fold_char(ch: str) -> str:
    code = ord(ch)
    if 0xFF01 <= code <= 0xFF5E:  # full-width ASCII
        ch = chr(code - 0xFEE0)
    elif code == 0x3000:  # ideographic space
        ch = " "
    lower = ch.lower()
    return lower if len(lower) == 1 else ch


# full-width ASCII to ASCII, the ideographic space to a space: _fold_char's first step, for a whole text
_HALF_WIDTH = {code: code - 0xFEE0 for code in range(0xFF01, 0xFF5F)} | {0x3000: " "}


def _fold(text: str) -> str:
    """Lower-case, half-width text of exactly the same length (offsets stay valid): `_fold_char` on each
    character. Whole-text lowering is the same whenever it keeps the length (no character lowers to two)
    and no capital sigma is in it (a final one lowers to ς in a text, to σ alone)."""
    if text.isascii():
        return text.lower()
    half = text.translate(_HALF_WIDTH)
    lower = half.lower()
    if len(lower) == len(half) and "\u03a3" not in half:
        return lower
    return "".join(map(_fold_char, text))


def _grammars(text: str, lang: str) -> tuple[Grammar, ...]:
    if lang == "en":
        return (natural_en.GRAMMAR,)
    if lang == "zh":
        return (natural_zh.GRAMMAR,)
    if lang != "auto":
        raise ValueError(f"lang must be 'auto', 'en' or 'zh', got {lang!r}")
    return (natural_zh.GRAMMAR,) if _CJK_RE.search(text) else (natural_en.GRAMMAR,)


def _check_now(now: datetime) -> None:
    if not isinstance(now, datetime) or now.utcoffset() is None:
        raise ValueError(f"now must be a timezone-aware datetime, got {now!r}")


# --- combining a day with a part of the day or a clock time -----------------------------------


def _with_part(base: TimeSpan, part: str, g: Grammar, now: datetime) -> TimeSpan | None:
    if base.granularity != "day":
        return None
    return hours_span(base.start.astimezone(now.tzinfo).date(), *g.part_hours[part], now.tzinfo)


def _with_clock(base: TimeSpan, tod: re.Match[str], g: Grammar, now: datetime) -> TimeSpan | None:
    if base.granularity not in ("day", "hour"):
        return None
    hour, minute, explicit = g.tod_value(tod)
    local = base.start.astimezone(now.tzinfo)
    if base.granularity == "hour" and not explicit and hour < 12:
        first = local.hour
        last = first + round((base.end - base.start).total_seconds() / 3600)
        if not first <= hour < last and first <= hour + 12 < last:
            hour += 12
    return clock_span(local.date(), hour, minute, now.tzinfo)


# --- parse_natural ----------------------------------------------------------------------------


def _rules(g: Grammar) -> tuple[Rule, ...]:
    return g.rules + _COMMON_RULES


def _match_rules(s: str, g: Grammar, now: datetime) -> TimeSpan | None:
    for rule in _rules(g):
        m = rule.pattern.fullmatch(s)
        if m:
            return rule.handler(m, now)
    return None


def _base_then_suffix(s: str, g: Grammar, now: datetime, parse_base, suffix: re.Pattern[str], refine):
    """`s` read whole by parse_base, else as "<base><suffix>", the base refined by the suffix."""
    span = parse_base(s, g, now)
    if span is not None:
        return span
    for i in range(1, len(s)):
        m = suffix.fullmatch(s, i)
        if m:
            base = parse_base(s[:i].strip(), g, now)
            if base is not None:
                return refine(base, m, g, now)
    return None


def _parse_day_part(s: str, g: Grammar, now: datetime) -> TimeSpan | None:
    return _base_then_suffix(
        s, g, now, _match_rules, g.part_suffix, lambda base, m, g, now: _with_part(base, m["part"], g, now)
    )


def _parse_phrase(s: str, g: Grammar, now: datetime) -> TimeSpan | None:
    span = _base_then_suffix(s, g, now, _parse_day_part, g.tod_suffix, _with_clock)
    if span is not None:
        return span
    if g.tod_prefix is not None:
        for i in range(len(s) - 1, 0, -1):
            tm = g.tod_prefix.fullmatch(s, 0, i)
            if tm:
                base = _parse_day_part(s[i:].strip(), g, now)
                if base is not None:
                    return _with_clock(base, tm, g, now)
    tm = g.tod.fullmatch(s) or g.tod_suffix.fullmatch(s)
    if tm:
        return _with_clock(day_span(now.date(), now.tzinfo), tm, g, now)
    return None


def _variants(s: str, g: Grammar) -> list[str]:
    if g is natural_zh.GRAMMAR:  # spaces carry no meaning next to Chinese characters
        s = _SPACE_NEAR_CJK.sub("", s)
    out = [s]
    lead = g.lead.match(s)
    if lead and lead.end() < len(s):
        out.append(s[lead.end() :])
    if g.trail is not None:
        for text in list(out):
            trail = g.trail.search(text)
            if trail and trail.end() == len(text) and trail.start() > 0:
                out.append(text[: trail.start()])
    return out


def parse_natural(text: str, now: datetime, lang: Lang = "auto") -> TimeSpan:
    """Resolve one time phrase ("tomorrow", "next Friday", "三天后", "月底") against `now`.

    Returns a `TimeSpan` in UTC; raises `TimeParseError` when the phrase is not recognised (or
    names an impossible date). `now` must be timezone-aware; its zone defines the calendar.
    """
    if not isinstance(text, str):
        raise TypeError(f"parse_natural expects a str, got {type(text).__name__}")
    _check_now(now)
    folded = " ".join(_fold(text).split()).strip(_EDGE_JUNK)
    if not folded:
        raise TimeParseError(f"no time expression in {quote(text)}")
    if len(folded) > _MAX_PHRASE:
        raise TimeParseError(f"time phrase too long ({len(folded)} characters): {quote(text)}")
    grammars = _grammars(folded, lang)
    try:
        for g in grammars:
            for variant in _variants(folded, g):
                span = _parse_phrase(variant, g, now)
                if span is not None:
                    return span
    except TimeParseError:
        raise
    except (OverflowError, ValueError) as exc:
        raise TimeParseError(f"cannot resolve {quote(text)} (outside the years 1..9999?): {exc}") from exc
    raise TimeParseError(f"not a recognised time expression: {quote(text)}")


def resolve_instant(value: datetime | str, now: datetime, *, end: bool = False) -> datetime:
    """An instant a caller gave: a datetime (naive ones read as UTC), an ISO-8601 string, or a time phrase
    resolved against `now` -- its start, or with `end` its end (an "as of" reads to the end of the day it
    names). Raises TimeParseError for a string that is neither, TypeError for anything else."""
    if isinstance(value, datetime):
        return value if value.tzinfo else value.replace(tzinfo=UTC)
    if not isinstance(value, str):
        raise TypeError(f"a datetime, an ISO-8601 string or a time expression, not {type(value).__name__}")
    try:
        return parse_instant(value)[0]
    except TimeParseError:
        span = parse_natural(value, now)
    return span.end if end else span.start


# --- find_natural -----------------------------------------------------------------------------

_Candidate = tuple[int, int, TimeSpan]


def _word_char(ch: str) -> bool:
    return ch.isascii() and ch.isalnum()


def _bounded(s: str, start: int, end: int) -> bool:
    """The match does not cut an ASCII word or number in two ("mon" in "money", "3" in "13")."""
    if start >= end:
        return False
    if start > 0 and _word_char(s[start]) and _word_char(s[start - 1]):
        return False
    return not (end < len(s) and _word_char(s[end - 1]) and _word_char(s[end]))


def _safe(make: Callable[..., TimeSpan | None], *args: object) -> TimeSpan | None:
    try:
        return make(*args)
    except (TimeParseError, OverflowError, ValueError):
        return None


def _scan(s: str, g: Grammar, now: datetime) -> list[_Candidate]:
    found: list[_Candidate] = []
    for rule in _rules(g):
        if not rule.find:
            continue
        for m in rule.pattern.finditer(s):
            if _bounded(s, m.start(), m.end()):
                span = _safe(rule.handler, m, now)
                if span is not None:
                    found.append((m.start(), m.end(), span))
    with_parts: list[_Candidate] = []
    for start, end, span in found:
        pm = g.part_suffix.match(s, end)
        if pm and _bounded(s, start, pm.end()):
            part = _safe(_with_part, span, pm["part"], g, now)
            if part is not None:
                with_parts.append((start, pm.end(), part))
    found += with_parts
    prefixes: dict[int, re.Match[str]] = {}
    if g.tod_prefix is not None:
        for tm in g.tod_prefix.finditer(s):
            prefixes.setdefault(tm.end(), tm)
    with_clock: list[_Candidate] = []
    for start, end, span in found:
        tm = g.tod_suffix.match(s, end)
        if tm and _bounded(s, start, tm.end()):
            clock = _safe(_with_clock, span, tm, g, now)
            if clock is not None:
                with_clock.append((start, tm.end(), clock))
        before = prefixes.get(start)
        if before is not None and _bounded(s, before.start(), end):
            clock = _safe(_with_clock, span, before, g, now)
            if clock is not None:
                with_clock.append((before.start(), end, clock))
    found += with_clock
    today = _safe(day_span, now.date(), now.tzinfo)
    for tm in g.tod.finditer(s) if today is not None else ():
        if g.tod_strong(tm) and _bounded(s, tm.start(), tm.end()):
            clock = _safe(_with_clock, today, tm, g, now)
            if clock is not None:
                found.append((tm.start(), tm.end(), clock))
    return found


def find_natural(text: str, now: datetime, lang: Lang = "auto") -> list[tuple[int, int, TimeSpan]]:
    """Every time expression inside `text`, as (start_char, end_char, span) in text order.

    Overlapping candidates are resolved longest match first (then leftmost); the kept matches do
    not overlap. `text[start:end]` is the phrase itself, e.g. "remind me next Friday about the deck"
    gives one match for "next Friday". Never raises for any string; returns [] when nothing is found.
    """
    if not isinstance(text, str):
        raise TypeError(f"find_natural expects a str, got {type(text).__name__}")
    _check_now(now)
    s = _fold(text)
    if lang == "auto":
        grammars: tuple[Grammar, ...] = (
            (natural_en.GRAMMAR, natural_zh.GRAMMAR) if _CJK_RE.search(s) else (natural_en.GRAMMAR,)
        )
    else:
        grammars = _grammars(s, lang)
    candidates: list[_Candidate] = []
    for g in grammars:
        candidates += _scan(s, g, now)
    candidates.sort(key=lambda c: (c[0] - c[1], c[0]))
    starts: list[int] = []  # the kept matches, disjoint and sorted, so their ends are sorted too
    kept: list[_Candidate] = []
    for cand in candidates:
        i = bisect.bisect_left(starts, cand[1])  # kept matches starting before this one ends
        if i and kept[i - 1][1] > cand[0]:
            continue
        starts.insert(i, cand[0])
        kept.insert(i, cand)
    return kept
