"""The floor one works or lives on, in English ("I sit on the fourth floor", "I got moved to the sixth
floor") and Chinese (办公室在大楼的4楼, 我们搬到9楼了): keyed `floor`, whatever the building; moving to a
floor is no new city."""

from __future__ import annotations

import re

from . import values_en, values_zh
from .common import Reading
from .patterns_en import _ADVERBS

_CLAUSE = r"[^，,。；;！!？?]"
# "I sit on the fourth floor", "I got moved to the sixth floor": the floor one works or lives on
_FLOOR = re.compile(
    _ADVERBS + r"(?:(?:sit|sits|work|works|live|lives|am|'m|is|'s|are|'re)\s+(?:now\s+)?(?:up\s+|down\s+)?on|"
    r"(?:(?:got|was|were|have been|'ve been|has been|'s been|just got)\s+)?(?:moved|relocated|transferred)\s+"
    r"(?:up\s+|down\s+)?to)\s+the\s+(?P<value>(?:\d{1,3}(?:st|nd|rd|th)|first|second|third|fourth|fifth|"
    r"sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|top|ground)\s+floor)\b",
    re.I,
)
_FLOOR_ZH = re.compile(  # the floor of a place one is at (办公室, 公司, 家), not of a thing (电梯在3楼)
    r"(?P<thing>(?:我们|我)?(?:的)?(?:新)?(?:办公室|公司|家|工位|部门|宿舍|房间|教室|工作室|团队|小组|店|住处|"
    r"诊所|实验室|门店|科室)?)(?:现在|目前|已经|也|还)*"
    r"(?:这次|现在)?(?:住在|住|在|搬到了?|搬去了?|换到了?|挪到了?|改到了?|调到了?)"
    r"(?:" + _CLAUSE + r"{0,5}的)?"
    r"(?P<v>(?:[0-9]{1,3}|[一二两三四五六七八九十]{1,3})(?:楼|层))(?:了|啦|呢)?$"
)


def floor_en(
    r: Reading, subject: str, pos: int, at: int, end: int, confidence: float, correction: bool
) -> bool:
    if (m := _FLOOR.match(r.text, at, end)) is None:
        return False
    values_en.add_fact(
        r, subject, "floor", m["value"], pos, end, confidence, correction, "text", m.span("value")
    )
    return True


def floor_zh(r: Reading, subject: str, a: int, at: int, b: int, confidence: float, correction: bool) -> bool:
    """办公室在大楼的4楼, 我们搬到9楼了: a floor, whatever is on it (搬到 a floor is no new city)."""
    if (m := _FLOOR_ZH.match(r.text, at, b)) is None:
        return False
    values_zh.add_fact(r, subject, "floor", m["v"], a, b, confidence, correction, "text", m.span("v"))
    return True
