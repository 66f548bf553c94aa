"""Values by their shape, as a change or correction says them (replacements.py pairs an old value with a new
one of the same shape): an email, an amount, a measure in its unit, a date or a clock time, a Chinese title
or colour, a phone number, a code, a name, a number, a count in words."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import lru_cache

from memql.services.tokenize import STOP_WORDS

from .common import CJK, WEEKLY, last_said, time_value
from .marks import Marks
from .patterns_en import NOT_NAMES  # the grammar's capitalised words that name nothing
from .times_found import find_times

_I = re.IGNORECASE

_EMAIL = re.compile(
    r"(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)+"
)  # (from a word's start: not each of its letters)
# a sum's period said after it: "142/mo", "17.99 a month", "$600 per year"
SUM_PERIOD = r"\s?/\s?(?:mo|month|yr|year)\b|\s(?:a|per)\s(?:month|year)\b"
# a thousands figure after 万 (1万5: 15,000), when nothing but the sentence's end or a word of amounts follows
_WAN_TAIL = r"(?:\d(?=$|[，,。！!？?\s~]|千|左右|多|了|啦|吧|呢|的|一个月|每个?月))?"
_MONEY = re.compile(
    r"(?:[$€£¥]\s?\d(?:[\d,]*\d)?(?:\.\d+)?(?:\s?[kKmM]\b)?)|"
    # (not from inside a number: a search would try each digit of a long one, each trying all the rest)
    r"(?:(?<![\d,])\d(?:[\d,]*\d)?(?:\.\d+)?\s?(?:dollars|bucks|euros|grand|元|块|万" + _WAN_TAIL + r"))|"
    r"(?:(?<![\d.,])\d{3,6}(?=一个月|每个?月|一年|每年))|"  # 3200一个月: a sum by the period it is paid for
    # "142/mo", "17.99 a month": a sum by its period (of two digits or more, or with cents)
    r"(?:(?<![\w.,$€£¥])(?:(?:\d{1,3}(?:,\d{3})+|\d{2,})(?:\.\d\d)?|\d\.\d\d)(?=" + SUM_PERIOD + r"))|"
    # "72k base", "104k": thousands without a sign (a 5k run, 10k steps are no sum)
    r"(?:(?<![\w.$€£¥])(?<!\ba )(?<!\bthe )\d{2,3}(?:\.\d)?k\b"
    r"(?!\s*(?:runs?|races?|steps?|followers|views|subs|subscribers|miles|words|pieces|feet|ft|lbs?|kg|km|m\b)))"
)
_UNITS = {
    "mg": "mg", "毫克": "mg", "g": "g", "克": "g", "kg": "kg", "公斤": "kg", "千克": "kg", "斤": "jin",
    "lb": "lb", "lbs": "lb", "pound": "lb", "pounds": "lb", "km": "km", "公里": "km", "mile": "mi",
    "miles": "mi", "mi": "mi", "cm": "cm", "厘米": "cm", "%": "%", "percent": "%", "hours": "h", "hour": "h",
    "小时": "h", "minutes": "min", "minute": "min", "分钟": "min", "mph": "mph", "gb": "gb", "tb": "tb",
    "kilo": "kg", "kilos": "kg", "kgs": "kg", "kilogram": "kg", "kilograms": "kg", "grams": "g",
    "kilometers": "km", "kilometres": "km", "mins": "min", "hrs": "h", "mbps": "mbps", "gbps": "gbps",
}  # fmt: skip
_MEASURE = re.compile(
    r"(?<![A-Za-z\d.])(\d+(?:\.\d+)?)\s?("  # (\d: not from inside a number of any digits, "１２")
    + "|".join(sorted(map(re.escape, _UNITS), key=len, reverse=True))
    + r")(?![a-z])",
    _I,
)
# a password or a network's name: a word of letters and digits that opens with a letter ("bluemoose88",
# "M1ssionBay#4", "Nguyen_5G"; "150lbs" is an amount)
_SECRET = re.compile(  # (in ASCII: wifi密码改为Zh#home2026 holds the code Zh#home2026)
    r"(?<![\w#@!$%&*.-])(?=[\w#@!$%&*-]*\d)[A-Za-z][\w#@!$%&*-]{4,}[\w#!$%&*]"
    r"(?![\w#@!$%&*]|\.\w)",
    re.ASCII,
)
_CODE = re.compile(  # UA 828, 14C, and a level and a number (parking B2-105, desk 3B-41)
    r"(?<![A-Za-z\d])(?:[A-Z]{1,4}[- ]?\d{2,}[A-Z0-9-]*|\d+[A-Z]{1,3}(?:-?\d+)?|"  # (\d: any digits, "１２")
    r"[A-Z]{1,3}\d{1,3}-\d{1,5}[A-Z]?)"
    r"(?![A-Za-z0-9])"
)
_PHONE = re.compile(
    r"(?<![A-Za-z0-9])(?:(?:\+?\d{1,3}[ -])?\d{3}[ -]\d{3,4}[ -]\d{4}|1[3-9]\d[ -]?\d{4}[ -]?\d{4}|"
    r"\d{3}-\d{4}|0\d{2,3}-\d{7,8})(?![0-9-])"
)  # a Chinese mobile: 11 digits from 13…-19…, grouped or not; a local 555-0134; a landline 010-66881234
# a number of months or years is how long ("a 12 month lease"), "like 2 blocks" how far: no value
_HOW_LONG = r"(?!\s*(?:months?|years?|yrs?|blocks?)\b)"
_NUMBER = re.compile(r"(?<![A-Za-z0-9.$€£¥-])\d(?:[\d,.-]*\d)?(?![A-Za-z0-9%])" + _HOW_LONG, _I)
# a count in words ("a table for four" … "make that six"; 六个人, 八位), read as its number
_COUNT_EN = re.compile(  # "one" is more often a pronoun ("the new one") than a count
    r"\b(?:two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|"
    r"seventeen|eighteen|nineteen|twenty)\b(?!-)" + _HOW_LONG,
    _I,
)
_COUNT_ZH = re.compile(r"(?<![周期拜])[一二两三四五六七八九十]{1,3}(?=个人|个|位|人|名|口|间|张|只|天|晚|次)")
_TITLE_ZH = re.compile(r"《[^》]{1,30}》")
_COLOR_ZH = re.compile(r"(?:[深浅淡亮暗墨米]?[红橙黄绿青蓝紫黑白灰粉棕金银]|咖啡|卡其|藏青|米白)色")
_NAME_EN = re.compile(
    r"(?<![A-Za-z0-9'])(?:(?:Mr|Mrs|Ms|Miss|Dr|Prof)\.?\s+)?(?:[A-Z][A-Za-z0-9_&'.-]*[A-Za-z0-9_&]|"
    r"i[A-Z][A-Za-z0-9]+|[A-Z])(?:\s+(?:(?:of|de|la|del|the|&)\s+)?(?:[A-Z][A-Za-z0-9_&'.-]*[A-Za-z0-9_&]|\d+))*"
)
# a Chinese name or place after the verb that states it, up to a particle or punctuation
_NAME_ZH = re.compile(
    r"(?:(?:[一两几这那]|(?<=[了买换订提]))(?:杯|辆|台|部|只|家|份|件|双|本|款)|住在|搬到|搬去|搬回|(?<![现实存正])在(?!家)|去了|去|到|是|用|叫|换成|改成|改为|"
    r"转到|调到|换到|报了|变成|改喝|改用|改吃|改练|改开|改学|买了|入了|换了|提了)"
    r"了?(?P<name>(?![住在到是去了个])[\u4e00-\u9fffA-Za-z0-9·]{2,10}?(?:\s\d+)?)(?=了|啦|呢|吧|的|，|。|！|？|,|\.|!|\?|\s|$|上班|工作|住|学习|读书|健身|锻炼|当|做)"
)  # 去县城当保安: the place, not "县城当保安"; 在家 is at home


_NOT_IN_A_NAME = re.compile(r"[在要把被给想就也还]")
_DAY = timedelta(days=1)
_CLOCK_WORDS = re.compile(r"\d:\d|\d\s*(?:am|pm|a\.m\.|p\.m\.|o'clock)|点|noon|midnight", _I)
_DATE_GRANULARITIES = frozenset({"day", "week", "month", "year"})


@dataclass(frozen=True)
class Value:
    kind: str  # email, money, measure:<unit>, code, date, clock, number, name
    start: int
    end: int
    value: str | int | float

    def rare(self) -> bool:
        return self.kind in ("email", "money", "code", "phone") or self.kind.startswith("measure:")


def values(text: str, now: datetime) -> list[Value]:
    """The values a turn states, each once, by shape (the first shape that covers a span wins). A recent
    turn is read again for each of the next messages: its values are remembered."""
    return list(_values(text, now))


@lru_cache(maxsize=256)
def _values(text: str, now: datetime) -> tuple[Value, ...]:
    found: list[Value] = []
    covered = Marks(len(text))
    free = covered.free

    def add(value: Value) -> None:
        found.append(value)
        covered.mark(value.start, value.end)

    for m in _EMAIL.finditer(text):
        add(Value("email", m.start(), m.end(), m[0].lower()))
    for m in _SECRET.finditer(text):  # (before amounts: "Nguyen_5G" holds no 5 g)
        if free(m.start(), m.end()):
            add(Value("code", m.start(), m.end(), m[0]))
    for m in _MONEY.finditer(text):
        if free(m.start(), m.end()):
            add(Value("money", m.start(), m.end(), m[0].strip()))
    for m in _MEASURE.finditer(text):
        if free(m.start(), m.end()):
            add(Value(f"measure:{_UNITS[m[2].lower()]}", m.start(), m.end(), m[0].strip()))
    for m in WEEKLY.finditer(text):  # "Tuesdays 6pm": one weekly time, as said (not the next Tuesday)
        words = re.sub(r"^on\s+", "", m[0], flags=re.I)
        add(Value("schedule", m.end() - len(words), m.end(), words))
    for a, b, span in find_times(text, now):
        if free(a, b):
            value = time_value(span, now)
            if span.granularity in _DATE_GRANULARITIES:
                add(Value("date", a, b, value))
            elif not _CLOCK_WORDS.search(text, a, b) and abs(span.start - now) >= _DAY:
                # "in two weeks": a day, not the moment two weeks from the message's minute
                add(Value("date", a, b, span.start.astimezone(now.tzinfo).date().isoformat()))
            else:
                add(Value("clock", a, b, value))
    for m in _TITLE_ZH.finditer(text):
        add(Value("name", m.start(), m.end(), m[0]))
    for m in _COLOR_ZH.finditer(text):
        if free(m.start(), m.end()):
            add(Value("color", m.start(), m.end(), m[0]))
    for m in _PHONE.finditer(text):
        if free(m.start(), m.end()):
            add(Value("phone", m.start(), m.end(), m[0]))
    for m in _CODE.finditer(text):
        if free(m.start(), m.end()):
            add(Value("code", m.start(), m.end(), m[0]))
    for m in _NAME_EN.finditer(text):
        name, start = m[0].strip(), m.start()
        if re.match(r"The\s+(?-i:[A-Z])", name):  # "The Overstory": the title, without its article
            name, start = name[4:].lstrip(), start + len(name) - len(name[4:].lstrip())
        elif (verb := _OPENING_VERB.match(name)) is not None and _sentence_start(text, start):
            # "Cancelled Anytime Fitness", "Sold the Volvo": a past verb opening the sentence is no name's
            name, start = name[verb.end() :], start + verb.end()
            if not name[:1].isupper():
                continue
        if free(start, start + len(name)) and _is_name(text, start, name):
            add(Value("name", start, start + len(name), name))
    for m in _NAME_ZH.finditer(text):
        if _NOT_IN_A_NAME.search(m["name"]):
            continue  # 就是爱在微信发养生文章, 到期要涨到4500: a clause after 是/到, no name
        if free(m.start("name"), m.end("name")) and CJK.search(m["name"]):
            add(Value("name", m.start("name"), m.end("name"), m["name"]))
    for m in _NUMBER.finditer(text):
        if free(m.start(), m.end()):
            add(Value("number", m.start(), m.end(), m[0]))
    for m in (*_COUNT_EN.finditer(text), *_COUNT_ZH.finditer(text)):
        if free(m.start(), m.end()):
            add(Value("number", m.start(), m.end(), m[0]))
    return tuple(sorted(found, key=lambda v: v.start))


_TITLES = frozenset({"Mr", "Mrs", "Ms", "Miss", "Dr", "Prof"})
_OPENING_VERB = re.compile(
    r"(?:[A-Z][a-z]{2,}(?:ed|pped|tted)|Sold|Left|Quit|Got|Took|Bought|Gave|Went|Made|Lost|Ditched|Swapped)"
    r"\s+(?:the\s+|my\s+|our\s+)?"
)


def _sentence_start(text: str, at: int) -> bool:
    before = last_said(text, at)
    return before < 0 or text[before] in ".!?;:。！？"


def _is_name(text: str, start: int, name: str) -> bool:
    first = name.split()[0].split("'")[0].split("\u2019")[0]  # "It's 4471": the word is "It"
    if first.rstrip(".") in _TITLES:
        return " " in name  # "Mr. Osei": a person by title and name
    if first in NOT_NAMES or first.lower() in STOP_WORDS or (first.upper() == first and len(first) == 1):
        return False
    if _SPEAKS.match(text, start + len(name)):
        return False  # "Marisol just texted the group": who says something, not a value said
    before = last_said(text, start)
    opening = before < 0 or text[before] in ".!?"
    return not (opening and " " not in name)  # a single capitalised word opening a sentence: any word


_SPEAKS = re.compile(
    r"\s+(?:just\s+|already\s+|also\s+)?(?:texted|texts|said|says|told|tells|called|calls|emailed|emails|"
    r"wrote|writes|asked|asks|messaged|mentioned|thinks|reckons|swears|confirmed|replied)\b",
    _I,
)


_DAY_ALONE = re.compile(r"(?:the\s+)?\d{1,2}(?:st|nd|rd|th)|\d{1,2}[号日]", _I)


def day_alone(text: str, v: Value) -> bool:
    """Is the date `v` of `text` said as a day of the month alone ("the 12th", 12号)?"""
    return (
        v.kind == "date"
        and len(str(v.value)) == 10
        and _DAY_ALONE.fullmatch(text[v.start : v.end].strip()) is not None
    )


def in_month_of(v: Value, old: Value) -> Value:
    """A day of the month said alone, of a held date: that day in the month nearest the held date ("moved
    to the 19th" of December 12 is December 19, said in March; "to the 3rd" of December 28 is January 3)."""
    try:
        held = datetime.fromisoformat(str(old.value)[:10])
        day = int(str(v.value)[8:10])
    except ValueError:
        return v
    months = [(held.year + (held.month + k - 1) // 12, (held.month + k - 1) % 12 + 1) for k in (-1, 0, 1)]
    options = []
    for year, month in months:
        try:
            options.append(datetime(year, month, day))
        except ValueError:  # no 31st in that month
            continue
    if not options:
        return v
    best = min(options, key=lambda d: abs((d - held).days))
    return Value(v.kind, v.start, v.end, best.date().isoformat())
