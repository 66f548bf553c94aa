"""A renewal good for a number of years ("Renewed it, the new one's good for ten years", 驾照换好了，新的
有效期十年): the one expiry the speaker holds moves to that many years from now; several held, none (never a
guess)."""

from __future__ import annotations

import re

from memql.lang.time.numbers import EN_NUMBER_RE, parse_en_number, parse_zh_number

from .common import Reading

_GOOD_FOR_EN = re.compile(
    r"(?:.*?\b(?:renew\w*|new one|replaced|got a new)\b.*?)\b(?:good|valid)\s+(?:for\s+)?(?:another\s+)?"
    r"(?P<n>\d{1,2}|" + EN_NUMBER_RE + r")\s+years?\b",
    re.I,
)


def _years_on(r: Reading, years: int) -> str:
    try:
        return r.now.replace(year=r.now.year + years).date().isoformat()
    except ValueError:  # 29 February
        return r.now.replace(year=r.now.year + years, day=28).date().isoformat()


def _held_expiry(r: Reading):
    return lambda d: d.speaker == r.speaker and d.attribute.endswith(".expiry")


def renewed_for_en(r: Reading, pos: int, end: int) -> bool:
    m = _GOOD_FOR_EN.match(r.text, pos, end)
    years = (int(m["n"]) if m["n"].isdigit() else parse_en_number(m["n"])) if m is not None else None
    if not years:
        return False
    return r.correct_the_one(_held_expiry(r), _years_on(r, years), pos, end, m.span("n"))  # type: ignore[union-attr]


# 驾照换好了，新的有效期十年: a renewal good for a number of years, of the one expiry held
_GOOD_FOR_ZH = re.compile(
    r"(?:新的?|新证|新本)?(?:有效期|期限)(?:是|为|有)?(?P<n>[0-9]{1,2}|[一二两三四五六七八九十]{1,3})年(?:了|啦)?[。！!]*$"
)


def renewed_for_zh(r: Reading, a: int, b: int) -> bool:
    m = _GOOD_FOR_ZH.match(r.text, a, b)
    years = (int(m["n"]) if m["n"].isdigit() else parse_zh_number(m["n"])) if m is not None else None
    if not years:
        return False
    return r.correct_the_one(
        _held_expiry(r),
        _years_on(r, years),
        a,
        b,
        m.span("n"),  # type: ignore[union-attr]
    )
