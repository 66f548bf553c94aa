"""How a value is written in a message, and which written values are stale at an instant: what
`formation.label_stale` looks for in a context's lines to label them ``until <date>:``.

A value is found by its forms: as stored, a date's and a clock time's usual spellings, an amount's and a
head count's ("$1,950 a month" is said "$1,950"; 四个人 is 四位), the short parts of a long name. A value
too short to be found anywhere (7, 三) is looked for only in the message that stated it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime
from typing import Any

from memql.lang.time.natural_en import MONTHS, WEEKDAYS
from memql.services.extract.common import count_of
from memql.services.extract.sums import amount
from memql.services.extract.values_zh import ZH_MEASURE


@dataclass(frozen=True)
class StoredFact:
    """A typed fact of a conversation as its context reads it (formation re-exports it): one window of one
    value, and the turn that said it."""

    id: str
    subject: str
    attribute: str
    value: Any
    valid_from: datetime
    valid_to: datetime | None
    source: str | None
    evidence: str | None = None  # the words of the message that state it
    replaced: str | None = None  # the words that named the value it ended ("left Boise for Denver": Boise)


_OPEN = datetime.max.replace(tzinfo=UTC)
_ISO_DAY = re.compile(r"^(\d{4})-(\d{2})-(\d{2})$")
_ISO_MOMENT = re.compile(r"^\d{4}-\d{2}-\d{2}T(?P<h>\d{2}):(?P<m>\d{2})")


_HAN = re.compile(r"[\u4e00-\u9fff]")


def stale_forms(
    facts: Sequence[StoredFact], at: datetime, ending: bool = False
) -> dict[str, tuple[datetime, set[tuple[str, str]]]]:
    """Each way of writing a value no longer true at `at` (and not true of any fact then): when it stopped
    being true, and the keys it was a value of. With `ending`, a value true at `at` whose end is already
    known (a change said for later) counts too: it is history from that end."""
    current_forms: set[str] = set()
    for f in facts:
        if f.valid_from <= at < (f.valid_to or _OPEN) and not (ending and f.valid_to is not None):
            current_forms.update(value_forms(f.value))
    stale: dict[str, tuple[datetime, set[tuple[str, str]]]] = {}
    # a value a fact said it ended, though no fact held it ("left Boise for Denver"): history from its start
    ended = [replace(f, value=f.replaced, valid_to=f.valid_from) for f in facts if f.replaced]
    ended = [f for f in ended if f.valid_to <= at]
    for f in [*facts, *ended]:
        if f.valid_to is not None and (f.valid_to <= at or (ending and f.valid_from <= at)):
            parts = _name_parts(f.value) if isinstance(f.value, str) and not as_date(f.value) else set()
            for form in value_forms(f.value) | parts:
                if form in current_forms or (form in parts and any(form in c for c in current_forms)):
                    continue  # "Spotify" is no stale form while "Spotify Premium" holds
                # two Chinese characters name a city (成都) as three Latin letters do a word
                if len(form) >= (2 if _HAN.search(form) else 3):
                    until, keys = stale.get(form, (f.valid_to, set()))
                    stale[form] = (max(until, f.valid_to), keys | {(f.subject, f.attribute)})
    return stale


CITE = re.compile(r"\[([^\]\n]+)\]")


def short_stale(
    facts: Sequence[StoredFact], at: datetime, ending: bool = False
) -> dict[str, list[tuple[str, datetime, set[tuple[str, str]]]]]:
    """A value too short to be found anywhere ("7", 3) is stale in the message that stated it: by the
    message's turn id, (form, until, keys) of each such value no longer true at `at`."""
    out: dict[str, list[tuple[str, datetime, set[tuple[str, str]]]]] = {}
    for f in facts:
        if f.source and f.valid_to is not None and (f.valid_to <= at or (ending and f.valid_from <= at)):
            short = {form for form in value_forms(f.value) if len(form) < (2 if _HAN.search(form) else 3)}
            if isinstance(f.value, int) and not isinstance(f.value, bool):
                short |= _spoken_numbers(f.value)  # 7 is said 七 and "seven" too
            elif isinstance(f.value, str) and (bare := _MEASURE.fullmatch(f.value.strip())) is not None:
                short.add(bare["num"])  # "Down to 195!" stated "195 pounds": its number, in that message
            elif isinstance(f.value, str) and (moment := _ISO_MOMENT.match(f.value)) and moment["m"] == "00":
                short.add(str(int(moment["h"]) % 12 or 12))  # "Friday at 7" said a 19:00
            elif isinstance(f.value, str) and (month := YEAR_MONTH.fullmatch(f.value)) is not None:
                short |= _month_forms(int(month["m"]))  # "getting married next June", 明年六月结婚
            if isinstance(f.value, str) and (day := as_date(f.value[:10])) is not None:
                short |= _weekday_forms(day.weekday())  # "lunch on Thursday at noon": its weekday
                short |= {f"{day.day}号", f"{day.day}日"}  # 定在20号: the day of the month alone
            for form in short:
                out.setdefault(f.source, []).append((form, f.valid_to, {(f.subject, f.attribute)}))
    return out


WEEKDAYS_ZH = "一二三四五六日"
YEAR_MONTH = re.compile(r"(?P<y>\d{4})-(?P<m>0[1-9]|1[0-2])")  # a value that is a month


def _month_forms(month: int) -> set[str]:
    """How a month is said: June, Jun, 6月, 六月."""
    name = MONTHS[month - 1]
    return {name, name[:3], f"{month}月"} | {f"{n}月" for n in _spoken_numbers(month) if _HAN.search(n)}


def _weekday_forms(weekday: int) -> set[str]:
    """How a day's weekday is said: Thursday, 周四, 星期四, 礼拜四 (Sunday also 周天, 星期天)."""
    zh = WEEKDAYS_ZH[weekday]
    out = {WEEKDAYS[weekday], f"周{zh}", f"星期{zh}", f"礼拜{zh}"}
    return out | ({"周天", "星期天", "礼拜天"} if weekday == 6 else set())


def says_whole(form: str, line: str) -> bool:
    """`form` said in `line` with no digit running on at either end ("jun 20" is not said by "Jun 2026",
    nor 14 by 140)."""
    if form not in line:
        return False
    if not (form[:1].isdigit() or form[-1:].isdigit()):
        return True
    before = r"(?<!\d)" if form[:1].isdigit() else ""
    after = r"(?!\d)" if form[-1:].isdigit() else ""
    return re.search(before + re.escape(form) + after, line) is not None


def says_short(form: str, line: str) -> bool:
    """`form` said in `line` as a number of its own ("Eli is 7." and 今年七岁 say 7; "17", "7.5", 十七 do
    not)."""
    if _HAN.search(form):
        return re.search(rf"(?<![{_ZH_NUMERALS}]){re.escape(form)}(?![{_ZH_NUMERALS}])", line) is not None
    # a Latin word or digits end at a Chinese character too (今年89岁 says 89)
    return re.search(rf"(?<![A-Za-z0-9_.,]){re.escape(form)}(?![A-Za-z0-9_]|[.,]\d)", line) is not None


_ZH_NUMERALS = "零〇一二两三四五六七八九十百千万0-9"


def _spoken_numbers(n: int) -> set[str]:
    """A small whole number as people say it: 7, 七; 2, 二, 两; 17, 十七; 23, 二十三; "seven"."""
    if not 0 < n < 100:
        return set()
    tens, units = divmod(n, 10)
    zh = (_ZH_UNITS[tens] if tens > 1 else "") + ("十" if tens else "") + (_ZH_UNITS[units] if units else "")
    return {str(n), zh} | ({"两"} if n == 2 else set()) | ({_EN_SMALL[n]} if n < len(_EN_SMALL) else set())


def value_forms(value: Any) -> set[str]:
    """How a value may be written in a message: as stored, and a date's usual spellings."""
    text = str(value).casefold().strip()
    out = {text} if text else set()
    day = as_date(value)
    moment = _ISO_MOMENT.match(value) if isinstance(value, str) else None
    if moment is not None:  # a moment: its day's spellings and its clock's ("Tuesday 2 pm" echoes it)
        day = as_date(value[:10])
        out.update(_clock_forms(int(moment["h"]), int(moment["m"])))
        out.add(value[:10])  # the day a message's relative words were resolved to ("Wednesday (2026-03-18)")
    if day is None and moment is None:
        out |= _amount_forms(text) | _count_forms(text)
        measure = ZH_MEASURE.fullmatch(text)
        if measure is not None and not measure["unit"].isascii() and len(measure["num"]) >= 3:
            out.add(measure["num"])  # 135斤 is said 135 (称了一下是135)
        if isinstance(value, int) and not isinstance(value, bool):
            out |= _zh_amount(value)  # 3200 said 三千二
        elif _WAN.fullmatch(text) and (n := amount(text)) is not None and n == int(n):
            out |= {str(int(n)), f"{int(n):,}"} | _zh_amount(int(n))  # 1万5 said 15000, 一万五, 1.5万
    if day is not None:
        month = MONTHS[day.month - 1]
        out.update(
            {
                f"{month} {day.day}",
                f"{day.day} {month}",
                f"{month[:3]} {day.day}",
                f"{day.month}月{day.day}日",
                f"{day.month}月{day.day}号",
                _ordinal(day.day),  # "the 14th", said of a day of the month
            }
        )
    return out


# a value led by an amount or a measure: "$1,950 a month" is said "$1,950"; "12 kg" is said "12kg"
_AMOUNT = re.compile(r"^(?P<cur>[$€£¥]?)(?P<num>\d[\d,]*(?:\.\d+)?)\s*(?P<unit>[a-z%]{1,5}\b)?")
_MEASURE = re.compile(r"(?P<num>\d[\d,]*(?:\.\d+)?)\s*[a-z]{2,6}", re.I)  # "195 pounds", "82 kg"
_WAN = re.compile(r"\d+(?:\.\d)?万\d?")  # an amount in ten thousands: 1万5, 2.5万
_ZH_COUNT = re.compile(r"^(?P<num>[0-9]{1,3}|[一二两三四五六七八九十]{1,3})(?:个人|个|位|人|口人|口)$")
_EN_COUNT = re.compile(r"^(?P<num>[a-z]+|[0-9]{1,3})\s+(?:people|persons|guests|adults|of us)$")
_EN_SMALL = (
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
)


def _amount_forms(text: str) -> set[str]:
    match = _AMOUNT.match(text)
    if match is None or match.end() == 0:
        return set()
    number, unit = match["cur"] + match["num"], match["unit"] or ""
    forms = {number, match["num"]} if match["cur"] or "," in number else set()
    if unit and unit not in ("a", "an", "per"):
        forms |= {f"{number} {unit}", f"{number}{unit}"}
    if unit == "k" and "," not in match["num"]:  # "72k" is said "$72,000" too
        whole = round(float(match["num"]) * 1000)
        forms |= {f"{whole:,}", f"{match['cur'] or '$'}{whole:,}", str(whole)}
    return {f for f in forms if len(f) >= 3}


def _count_forms(text: str) -> set[str]:
    """A head count as people write it: 四个人, 四位, 4人; "six people", "party of six", "6 people"."""
    match = _ZH_COUNT.match(text) or _EN_COUNT.match(text)
    count = count_of(match["num"]) if match else None
    if count is None or not 0 < count < 100:
        return set()
    spoken = [str(count)]
    if count <= 10:
        spoken.append(_ZH_DIGITS[count])  # 两 for two: 两个人, not 二个人
    forms = {f"{n}{c}" for n in spoken for c in ("个人", "位", "人")}
    words = [str(count)] + ([_EN_SMALL[count]] if count < len(_EN_SMALL) else [])
    return forms | {f"{w} people" for w in words} | {f"party of {w}" for w in words}


# the parts of a name that name nothing by themselves ("Family" of "Spotify Family", 驾校 of 东方驾校)
_GENERIC_WORDS = """
    family street road avenue home house care office team hotel inn barn pavilion hall park center centre
    school community college clinic hospital bank club group plan plus pro max mini air the and of
    驾校 公司 医院 学校 小学 中学 大学 餐厅 酒店 银行 中心 超市 公园 小区 大厦 广场 门店 分店 集团 科技
"""
_GENERIC_PARTS = frozenset(_GENERIC_WORDS.split())


def _name_parts(value: str) -> set[str]:
    """How a many-word name is said again in short: its capitalised words ("Rosewood" of "Rosewood
    Barn", "Haddad" of "Mr. Haddad"), the words before its generic ones ("pine valley" of "pine valley
    community college"), the head or brand of a Chinese name (朗逸 of 大众朗逸), never a
    generic word."""
    words = value.split()
    out: set[str] = set()
    if len(words) > 1:
        out |= {w.casefold().strip(".,") for w in words if w[:1].isupper() and len(w.strip(".,")) >= 4}
        # "pine valley" of "pine valley community college": the words before the generic ones
        named = next((i for i, w in enumerate(words) if w.casefold() in _GENERIC_PARTS), 0)
        if named > 0 and len(" ".join(words[:named])) >= 4:
            out.add(" ".join(words[:named]).casefold())
    elif (titled := _ZH_TITLED.fullmatch(value)) is not None:  # 刘芳老师 is said 刘芳, 刘老师
        out |= {titled["name"], titled["name"][0] + titled["title"]}
    elif _HAN.search(value) and len(value) >= 4 and re.fullmatch(r"[\u4e00-\u9fff]+", value):
        out |= {value[:2], value[-2:]}
    return {p for p in out if p not in _GENERIC_PARTS}


# a Chinese name and the title people call them by
_ZH_TITLED = re.compile(
    r"(?P<name>[\u4e00-\u9fff]{2,3}?)(?P<title>老师|医生|大夫|教练|主任|经理|律师|阿姨|先生|女士|师傅|护士|总)"
)


_ZH_DIGITS = "零一两三四五六七八九十"
_ZH_UNITS = _ZH_DIGITS[:10].replace("两", "二")  # in a compound: 二十三, 十二


def _ordinal(day: int) -> str:
    suffix = "th" if 10 <= day % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(day % 10, "th")
    return f"{day}{suffix}"


def _clock_forms(hour: int, minute: int) -> set[str]:
    """How people write a clock time: 2 pm, 2pm, 2:00 pm, 14:00; 下午2点, 两点, 14点; 8:05 pm, 8点05."""
    half = hour % 12 or 12
    suffix = "am" if hour < 12 else "pm"
    forms = {f"{hour:02d}:{minute:02d}", f"{half}:{minute:02d} {suffix}", f"{half}:{minute:02d}{suffix}"}
    spoken = _ZH_DIGITS[half] if half <= 10 else f"十{_ZH_DIGITS[half - 10]}"
    if minute:
        forms |= {f"{half}:{minute:02d}", f"{half}点{minute:02d}", f"{hour}点{minute:02d}"}
        # 三点半, 三点一刻, 三点十五, 九点四十五: a Chinese clock said in words
        words = {30: ("半",), 15: ("一刻", "十五"), 45: ("三刻", "四十五")}.get(minute, ())
        forms |= {f"{spoken}点{w}" for w in words} | {f"{half}点{w}" for w in words}
    else:
        forms |= {f"{half} {suffix}", f"{half}{suffix}", f"{half}点", f"{hour}点", f"{spoken}点"}
    return forms


def as_date(value: Any) -> date | None:
    match = _ISO_DAY.match(str(value)) if isinstance(value, str) else None
    if not match:
        return None
    try:
        return date(int(match[1]), int(match[2]), int(match[3]))
    except ValueError:
        return None


_PLACES = ((10000, "万"), (1000, "千"), (100, "百"))


def _zh_amount(n: int) -> set[str]:
    """An amount of hundreds to tens of thousands as Chinese says it: 3200 is 三千二百 and 三千二, 2000 两千,
    12000 一万二千 and 一万二 (only amounts of one or two figures: 3250 is said in too many ways)."""
    if not 100 <= n < 100000 or n % 100:
        return set()
    figures = [(i, n // place % 10, unit) for i, (place, unit) in enumerate(_PLACES) if n // place % 10]
    if len(figures) > 2 or (len(figures) == 2 and figures[1][0] != figures[0][0] + 1):
        return set()  # (10500 is 一万零五百: a zero said between)
    full = "".join(_ZH_UNITS[d] + unit for _, d, unit in figures)
    out = {full, "两" + full[1:] if full.startswith("二") else full}
    if len(figures) == 2:
        out |= {form[:-1] for form in out}  # 三千二百 is said 三千二 (the last unit left out)
    return out | _wan_forms(n)


def _wan_forms(n: int) -> set[str]:
    """Ten thousands in digits with 万: 18000 is 1.8万 and 1万8, 24000 2.4万 and 2万4 (a thousands figure at
    most after the 万)."""
    if n < 10000 or n % 1000:
        return set()
    wan, thousands = divmod(n // 1000, 10)
    return {f"{n / 10000:g}万", f"{wan}万{thousands}"} if thousands else {f"{wan}万"}
