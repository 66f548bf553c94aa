"""A held amount moved by an amount, in English and Chinese: "the landlord raised my rent by $100", "got a
10% raise", "they cut it by 50", 房东给我涨了200, 月薪涨了两千, 降了10%.

The message says how much an amount changed, not what it is now, so the grammars read no value in it. This
pass finds the held amount the message is about — the one whose key it names (rent, 房租; a raise or a pay
cut is the salary), else the only amount of the recent turns — and gives it the new amount in the held
value's own form ("$1,500 a month" → "$1,600 a month", "80k" → "88k", 3000 → 3200). Two that fit are not
guessed between.
"""

from __future__ import annotations

import re
from datetime import datetime

from memql.lang.time.natural_en import MONTHS
from memql.lang.time.spans import month_span

from .common import CJK, HEDGED, STATED, Draft, Reading, latest_held, names_key, the_one
from .predicates_zh import zh_amount

_I = re.IGNORECASE
_AMOUNT = r"[$€£]?\d[\d,]*(?:\.\d+)?\s*(?:k|%|percent)?"
_UP = (
    r"raised|increased|upped|bumped(?:\s+up)?|hiked|went\s+up|goes\s+up|gone\s+up|going\s+up|go\s+up|rose|"
    r"rising|increasing|is\s+up|'s\s+up"
)
_DOWN = (
    r"cut|lowered|reduced|dropped|decreased|went\s+down|came\s+down|going\s+down|go\s+down|decreasing|"
    r"is\s+down|'s\s+down"
)
_EN_BY = re.compile(
    rf"\b(?P<verb>{_UP}|{_DOWN})\s+(?:(?:it|(?:my|our|the|his|her|their)\s+(?P<what>[\w-]+(?:\s+[\w-]+)?))\s+)?"
    rf"by\s+(?:another\s+)?(?P<amt>{_AMOUNT})",
    _I,
)
_EN_RAISE = re.compile(
    rf"\b(?:a|an)\s+(?P<amt>{_AMOUNT})\s+(?P<verb>raise|pay\s+rise|pay\s+raise|bump|increase|hike|pay\s+cut|cut)\b",
    _I,
)
_ZH = re.compile(  # (涨35 with no 了: a rise to come, 从10月起每月涨35)
    r"(?P<verb>涨了?|加了|上涨了?|提高了?|上调了?|多了|降了?|减了|少了|下调了?|降低了?)(?P<amt>\d[\d,]*(?:\.\d+)?%?|"
    r"百分之[零一二两三四五六七八九十]+|[零一二两三四五六七八九十百千万]+)(?:块钱?|元)?"
)
# a weight lost or gained: "lost 15 pounds", 瘦了8公斤 (the held weight, in the same unit or none)
_EN_WEIGHT = re.compile(
    r"\b(?P<verb>lost|dropped|shed|gained|put\s+on)\s+(?:another\s+)?(?P<amt>\d+(?:\.\d+)?)\s*"
    r"(?P<unit>pounds|lbs?|kilos?|kg|kilograms)\b",
    _I,
)
_ZH_WEIGHT = re.compile(
    r"(?P<verb>瘦了|减了|掉了|胖了|长了|重了)(?P<amt>\d+(?:\.\d+)?|[一二两三四五六七八九十]+)(?P<unit>公斤|斤|千克|kg)"
)
_UNIT = {
    "pound": "lb",
    "lb": "lb",
    "kilo": "kg",
    "kg": "kg",
    "kilogram": "kg",
    "公斤": "kg",
    "千克": "kg",
    "斤": "jin",
}
_DOWNWARD = re.compile(rf"^(?:{_DOWN})$|pay\s+cut|^cut$|lost|shed|降|减|少|下调|瘦|掉", _I)
_PAY = re.compile(r"raise|pay|工资|薪", _I)  # a raise or a pay cut is the salary's
_PAY_KEYS = re.compile(r"salary|pay|wage|income|工资|薪|收入")
# what may stand before a change of the speaker's amount without naming another thing that changed
_BY_WHOM = re.compile(
    r"(?:(?:so|and|well|ugh|wow|yay|oh|great|update|news)[,:!]?\s*)*(?:(?:my|the|our)\s+)?"
    r"(?:i|we|they|he|she|it|landlord|boss|company|work|employer|manager|hr)?(?:\s+(?:got|just|finally|also|have|has|"
    r"'ve|'s|gave me|gave us))*|"
    r"(?:我|我们|又|也|刚|刚刚|终于|今年|这个月|下个月|公司|老板|房东|领导|单位|给我|给我们|给)*",
    _I,
)
# an amount as a value begins with it (not a day, a clock time or a code: 2026-03-14, 7:40, 4/12)
_HELD_AMOUNT = re.compile(r"(?P<cur>[$€£]?)(?P<n>\d[\d,]*(?:\.\d+)?)(?P<k>\s*k\b)?(?![\d.:/-])", _I)


def bind(r: Reading) -> None:
    """Draft the moved amount a message states (see the module docstring) into `r.facts`."""
    weight = _EN_WEIGHT.search(r.text) or _ZH_WEIGHT.search(r.text)
    m = weight or _EN_BY.search(r.text) or _EN_RAISE.search(r.text) or _ZH.search(r.text)
    if m is not None:  # "the fee is going up by $35" read as the fee's value: the grammar's misreading
        r.drop(r.valued_in(m.start(), m.end()))
    if m is None or any(d.kind == "number" or _HELD_AMOUNT.match(str(d.value)) for d in r.facts):
        return  # (before the recent turns are read: most messages end here); an amount said is the grammar's
    change = _change(m)
    if change is None:
        return

    def amount(d: Draft) -> bool:
        if (
            d.kind in ("date", "schedule")
            or isinstance(d.value, bool)
            or not _HELD_AMOUNT.match(str(d.value))
        ):
            return False
        return weight is None or (d.attribute == "weight" and _same_unit(str(d.value), weight["unit"]))

    held = latest_held(r, amount)
    named = [d for d in held.values() if weight is not None or _names(r, m, d)]
    # with nothing named, the only amount held — unless something else is said to rise ("stocks went up")
    alone = _BY_WHOM.fullmatch(r.text[: m.start()].strip(" ,，")) is not None and not m.groupdict().get(
        "what"
    )
    found = the_one(held, named, alone)
    if found is None:
        return
    old, named_it = found
    value = _moved(old.value, change)
    if value is None:
        return
    confidence, span = STATED if named_it else HEDGED, m.span("amt")
    r.add(
        Draft(
            old.subject,
            old.attribute,
            value,
            m.start(),
            m.end(),
            starts(r),
            confidence,
            False,
            old.kind,
            span,
        )
    )


# "going up by $35 starting October", 从10月起每月涨35: a change from a time to come
_STARTING_EN = re.compile(r"\b(?:starting|beginning|effective|from|as of)\s+(?:in\s+|on\s+)?$", _I)
_STARTING_MONTH = re.compile(
    r"\b(?:starting|beginning|effective)\s+(?:in\s+)?(?P<month>" + "|".join(MONTHS) + r")\b", _I
)


def starts(r: Reading) -> datetime:
    """When the moved amount holds: from a time to come the message says it starts at (a month alone: its
    next first day), else now."""
    if (m := _STARTING_MONTH.search(r.text)) is not None:
        month = MONTHS.index(m["month"].lower()) + 1
        year = r.now.year if month >= r.now.month else r.now.year + 1
        return month_span(year, month, r.now.tzinfo).start
    for t0, t1, span in r.times:
        if span.start > r.now and (
            _STARTING_EN.search(r.text, max(0, t0 - 16), t0)
            or r.text[max(0, t0 - 1) : t0] == "从"
            or r.text.startswith(("起", "开始"), t1)
        ):
            return span.start
    return r.now


def _same_unit(held: str, said: str) -> bool:
    """Is the held weight in the unit said, or in none ("190", "90公斤" for 公斤; not 180斤 for 公斤)?"""
    unit = next((u for w, u in _UNIT.items() if said.lower().startswith(w)), None)
    words = held.lower()
    held_unit = next((u for w, u in _UNIT.items() if w in words), None)
    return held_unit is None or held_unit == unit


def _change(m: re.Match[str]) -> tuple[float, bool] | None:
    """(signed amount, is a percentage) of a match: "by $100" is (100, False), "降了10%" (-10, True)."""
    said = m["amt"].replace(",", "").replace("$", "").replace("€", "").replace("£", "").strip().lower()
    percent = said.endswith(("%", "percent")) or said.startswith("百分之")
    said = said.removesuffix("percent").removesuffix("%").removeprefix("百分之").strip()
    if re.fullmatch(r"\d+(?:\.\d+)?k?", said):
        n = float(said.removesuffix("k")) * (1000 if said.endswith("k") else 1)
    else:
        n = zh_amount(said)
    if not n:
        return None
    return (-n if _DOWNWARD.search(m["verb"]) else n), percent


def _moved(value: object, change: tuple[float, bool]) -> object:
    """`value` moved by `change`, in its own form: an int stays an int, "$1,500 a month" keeps its words."""
    n, percent = change
    if isinstance(value, int | float):
        new = value * (1 + n / 100) if percent else value + n
        return round(new) if isinstance(value, int) and float(new).is_integer() else round(new, 2)
    m = _HELD_AMOUNT.match(str(value))
    if m is None:
        return None
    held = float(m["n"].replace(",", ""))
    scale = 1000 if m["k"] else 1
    new = held * (1 + n / 100) if percent else held + n / scale
    if new <= 0:
        return None
    shown = f"{new:,.0f}" if "," in m["n"] else f"{new:g}" if not float(new).is_integer() else f"{int(new)}"
    return with_number(value, shown)


def with_number(held: object, number: str) -> str | None:
    """The held amount as said with its number replaced, its currency, "k" and words kept: ("$1,500 a
    month", "1,600") -> "$1,600 a month"; None when the held value does not begin with an amount."""
    m = _HELD_AMOUNT.match(str(held))
    return None if m is None else f"{m['cur']}{number}{m['k'] or ''}{str(held)[m.end() :]}"


def _names(r: Reading, m: re.Match[str], d: Draft) -> bool:
    """Does the message name the held amount: a word of its key ("my rent", 房租) or of its aspect ("the
    fee" of hoa.price), the end of a Chinese key (物业费 of 小区物业费), or a raise for a salary?"""
    text, key = r.text, d.attribute
    aspect = r.vocabulary.aspects.get(key.rpartition(".")[2], ()) if "." in key else ()
    if names_key(text, key) or any(
        re.search(rf"\b{re.escape(w)}\b", text, _I) for w in aspect if w.isascii()
    ):
        return True
    if CJK.search(key) and len(key) > 3 and key[-3:] in text:
        return True
    return bool(_PAY.search(m[0]) or _PAY.search(text)) and _PAY_KEYS.search(d.attribute) is not None
