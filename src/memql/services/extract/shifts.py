"""A held day moved by an amount of time, in English and Chinese: "Lina's flight got pushed back two days",
"the meeting was moved up an hour", "出差推迟了两天", "体检提前一周"; and a held moment moved to an hour
("they pushed it to 8": its day kept).

Nothing in such a message is a date, so the grammars read no value in it; this pass finds the held dated
fact the clause is about and gives it its day (or moment) moved by the amount. Which fact: the one whose
key words or owner the message names ("the flight", "Lina's", "体检"); else, when the message names none,
the only dated fact of the recent turns. Two that fit equally are not guessed between.
"""

from __future__ import annotations

import calendar
import re
from datetime import date, datetime, timedelta

from memql.lang.time.numbers import EN_NUMBER_RE, ZH_NUMBER_RE, parse_en_number, parse_zh_number

from .common import HEDGED, STATED, Draft, Reading, latest_held, names_key, names_person, the_one
from .values_en import held_at_hour

_I = re.IGNORECASE
_WHOSE = r"(?:the|our|my|his|her|their|(?-i:[A-Z])[\w-]*'s)"  # "moved Mom's surgery up two days"
_EN_SHIFT = re.compile(
    r"\b(?P<verb>(?:push(?:ed|ing)?|moved|bumped|brought)\s+(?:it\s+|them\s+|" + _WHOSE + r"\s+"
    r"[\w-]+(?:\s+[\w-]+)?\s+)?(?:back|out|up|forward)|(?<=(?:is|'s|as|ot)\s)(?:pushed|bumped)|"
    # "Airline pushed my flight two days": no direction said is later
    r"(?:push(?:ed|ing)?|bumped)\s+(?:it|them|" + _WHOSE + r"\s+[\w-]+(?:\s+[\w-]+)??)(?=\s+(?:by\s+)?"
    r"(?:an?|another|\d+|" + EN_NUMBER_RE + r")\s+(?:minute|hour|day|week|month)s?\b)|"
    r"postponed|delayed|set\s+back)\s+(?:by\s+)?"  # "jury duty is pushed a month": later
    r"(?:another\s+|a\s+further\s+)?(?P<n>an?|another|"
    + EN_NUMBER_RE
    + r"|\d+)\s+(?P<unit>minute|hour|day|week|"
    r"month)s?\b(?!\s+(?:ago|before|earlier|early))",
    _I,
)
# "the airline moved our flight a day earlier", "pushed it two days later"
_EN_SHIFT_DIRECTED = re.compile(
    r"\b(?P<verb>moved|pushed|bumped|changed|rescheduled|shifted|put|(?:will|'ll|should)\s+(?:be\s+)?[a-z]+|"
    # "we now leave a day earlier", "she arrives two days later": the event's own verb
    r"leave|leaves|fly|flies|depart|departs|arrive|arrives|land|lands|start|starts|begin|begins|come|comes|"
    r"leaving|flying|departing|arriving|landing|starting|coming)\s+"  # "she's now arriving two days later"
    r"(?:it\s+|" + _WHOSE + r"\s+"
    r"[\w-]+(?:\s+[\w-]+)?\s+)?(?P<n>an?|"
    + EN_NUMBER_RE
    + r"|\d+)\s+(?P<unit>minute|hour|day|week|month)s?\s+"
    r"(?P<dir>earlier|sooner|later)\b",
    _I,
)
_ZH_SHIFT = re.compile(
    r"(?P<verb>推迟|延后|延期|延误|晚点|往后推|往后挪|往后延|推后|顺延|提前|往前挪|往前提|提早)了?"
    r"(?P<n>半|" + ZH_NUMBER_RE + r")(?:个)?(?P<unit>小时|钟头|分钟|天|日|周|星期|礼拜|月)"
    # (提前一小时提醒我: when to be told, not a move)
    r"(?!(?:就|再|去|来|给|跟)?(?:提醒|通知|叫|喊|告诉|说|出门|出发))"
)
_EARLIER = re.compile(r"up|forward|earlier|sooner|提前|往前|提早", _I)
_EN_UNITS = {"minute": "minutes", "hour": "hours", "day": "days", "week": "weeks", "month": "months"}
_ZH_UNITS = {"小时": "hours", "钟头": "hours", "分钟": "minutes", "天": "days", "日": "days", "周": "weeks",
             "星期": "weeks", "礼拜": "weeks", "月": "months"}  # fmt: skip
_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")
_MINE = re.compile(r"我(?:那个|的|这个)|\bmy\b|\bmine\b", re.I)
_MOMENT = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z")


# "rescheduled it for the following Monday", "the day after", "the week after": a day counted from the
# held one, not from the day the message is said
_FOLLOWING = re.compile(
    r"\bthe\s+(?:following\s+(?P<wd>monday|tuesday|wednesday|thursday|friday|saturday|sunday|day|week)|"
    # ("the week after the survey closes": after something else)
    r"(?P<wd2>day|week)\s+after(?!\s+(?:next|tomorrow|the|that|this|my|our|his|her|their|we|i|you|he|she|"
    r"they|it|me|him|us|them)\b)\b)",  # ("flies out the day after me": someone else's day)
    _I,
)
_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
# "they pushed it to 8", "moved the dinner to 7:30 instead": a held moment's new hour, its day kept
_EN_TO_HOUR = re.compile(
    r"\b(?:push(?:ed)?|mov(?:e|ed)|bump(?:ed)?|chang(?:e|ed)|switch(?:ed)?|reschedul(?:e|ed)|shift(?:ed)?)\s+"
    r"(?:it\s+|them\s+|" + _WHOSE + r"\s+[\w-]+(?:\s+[\w-]+)?\s+)?(?:back\s+|up\s+|forward\s+)?to\s+"
    r"(?P<h>\d{1,2})(?::(?P<m>[0-5]\d))?\s*(?P<ap>[ap]\.?m\.?|o'?clock)?"
    r"(?=\s*(?:$|[.,!;:)]|\s(?:instead|now|tonight|then|and|but|so|because|bc|since|lol)\b))",
    _I,
)


def bind(r: Reading) -> None:
    """Draft the moved day a message states (see the module docstring) into `r.facts`."""
    if (following := _FOLLOWING.search(r.text)) is not None:
        if not re.match(r"[^.!?]*\?", r.text[following.end() :]):  # "the day after, maybe?": asked
            _following(r, following)
        return
    if (to_hour := _EN_TO_HOUR.search(r.text)) is not None and not any(d.kind == "date" for d in r.facts):
        _to_hour(r, to_hour)
        return
    m = _EN_SHIFT.search(r.text) or _EN_SHIFT_DIRECTED.search(r.text) or _ZH_SHIFT.search(r.text)
    if m is None or any(d.kind == "date" for d in r.facts):
        return  # (before the recent turns are read: most messages end here); a day said is the grammar's
    amount = _amount(m)
    if amount is None:
        return
    moved = {
        id(d): _shifted(d.value, amount) for d in r.earlier if d.kind == "date" and isinstance(d.value, str)
    }
    held = latest_held(r, lambda d: moved.get(id(d)) is not None)
    named = [d for d in held.values() if _names(r.text, d)]
    if len(named) > 1 and _MINE.search(r.text):  # 我那个体检往后挪了一周: mine, not my husband's
        named = [d for d in named if d.subject == r.speaker]
    found = the_one(held, named, alone=True)
    if found is None:
        return
    old, named = found
    value = moved[id(old)]
    r.add(Draft(old.subject, old.attribute, value, m.start(), m.end(), r.now, STATED if named else HEDGED,
                False, "date", m.span()))  # fmt: skip


def _amount(m: re.Match[str]) -> tuple[str, float] | None:
    """(unit, signed count) of a shift match: "pushed back two days" is (days, 2), 提前一周 (weeks, -1)."""
    n = m["n"].lower()
    if m.re is not _ZH_SHIFT:
        count = 1 if n in ("a", "an", "another") else int(n) if n.isdigit() else parse_en_number(n)
        unit = _EN_UNITS[m["unit"].lower()]
    else:
        count = 0.5 if n == "半" else parse_zh_number(n)
        unit = _ZH_UNITS[m["unit"]]
    if not count:
        return None
    return unit, -count if _EARLIER.search(m.groupdict().get("dir") or m["verb"]) else count


def _shifted(value: str, amount: tuple[str, float]) -> str | None:
    """`value` (a day, YYYY-MM-DD, or a moment, ISO UTC) moved by `amount`; None for a value that amount
    cannot move (a day moved by hours, a clock time without a day)."""
    unit, n = amount
    if _MOMENT.fullmatch(value):
        at = datetime.strptime(value, "%Y-%m-%dT%H:%M:%SZ")
        return _moved(at, unit, n).strftime("%Y-%m-%dT%H:%M:%SZ")
    if _DAY.fullmatch(value) and unit not in ("hours", "minutes") and n == int(n):
        return _moved(date.fromisoformat(value), unit, n).isoformat()
    return None


def _moved(at, unit: str, n: float):
    if unit == "months":
        month = at.month - 1 + int(n)
        year, month = at.year + month // 12, month % 12 + 1
        day = min(at.day, calendar.monthrange(year, month)[1])
        return at.replace(year=year, month=month, day=day)
    return at + timedelta(**{unit: n})


def _names(text: str, d: Draft) -> bool:
    """Does the message name the fact: a word of its key ("the flight", 体检) or its owner ("Lina's", "my
    sister's")?"""
    return names_key(text, d.attribute) or names_person(text, d.subject)


def _following(r: Reading, m: re.Match[str]) -> None:
    """ "… moved it to the following Monday" after a held day: that day's following Monday, in place of
    the day the grammar counted from now; the held day the message names, or the only one held."""
    held = latest_held(r, lambda d: d.kind == "date" and isinstance(d.value, str) and _DAY.match(d.value))
    found = the_one(held, [d for d in held.values() if _names(r.text, d)], alone=True)
    if found is None:
        return
    old, named = found
    r.facts[:] = [d for d in r.facts if (d.subject, d.attribute) != (old.subject, old.attribute)]
    r.add(Draft(old.subject, old.attribute, _after(m, str(old.value)), m.start(), m.end(), r.now,
                STATED if named else HEDGED, False, "date", m.span()))  # fmt: skip


def _to_hour(r: Reading, m: re.Match[str]) -> None:
    """ "pushed it to 8" after a held moment (dinner Saturday at 7 pm): that day at 8, in the held hour's half
    of the day when no am/pm is said; the held moment the message names, or the only one."""
    held = latest_held(r, lambda d: d.kind == "date" and isinstance(d.value, str) and _MOMENT.match(d.value))
    found = the_one(held, [d for d in held.values() if _names(r.text, d)], alone=True)
    hour, minute = int(m["h"]), int(m["m"] or 0)
    if found is None or not 0 < hour <= 23:
        return
    old, named = found
    ampm = m["ap"] if m["ap"] and m["ap"][0].lower() in "ap" else None  # ("o'clock" says neither)
    moved = held_at_hour(r, str(old.value), hour, minute, ampm)
    if moved != old.value:
        r.facts[:] = [d for d in r.facts if (d.subject, d.attribute) != (old.subject, old.attribute)]
        said = (m.start("h"), max(m.end("h"), m.end("m"), m.end("ap")))
        r.add(Draft(old.subject, old.attribute, moved, m.start(), m.end(), r.now, STATED if named else HEDGED,
                    True, "date", said))  # fmt: skip


def following_day(text: str, start: int, end: int, held: object) -> str | None:
    """The day "the following Monday" (the day, the week after) said in text[start:end] names when it
    follows the `held` day (YYYY-MM-DD…); None when the words say no such thing."""
    m = _FOLLOWING.search(text, max(0, start - 14), end)
    if m is None or m.end() < start or not _DAY.match(str(held)):
        return None
    return _after(m, str(held))


def _after(m: re.Match[str], held: str) -> str:
    day = date.fromisoformat(held[:10])
    what = (m["wd"] or m["wd2"]).lower()
    if what in ("day", "week"):
        return (day + timedelta(days=1 if what == "day" else 7)).isoformat()
    return (day + timedelta(days=(_WEEKDAYS.index(what) - day.weekday() - 1) % 7 + 1)).isoformat()
