"""Sums of money as said, for the replacement pass (replacements.py): their amount, a bare number read as
a held sum of its size, and sums too far apart to be one thing's old and new value."""

from __future__ import annotations

import re

from .value_shapes import Value

# a sum as written: its sign, digits (grouped or not), cents, and thousands (k), millions (m) or 万
_WRITTEN = re.compile(r"([$€£¥]?)\s?(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?\s?([kKmM万])?")
_TIMES = {"k": 1e3, "m": 1e6, "万": 1e4}
# words before a sum that say it is by how much one differs from another: "raised it by 50", "adding $400",
# 贵400, 便宜了200
_BY = re.compile(
    r"(?:\b(?:by|adding|plus|extra|another)\s+(?:about\s+|another\s+)?|(?:贵|便宜|多|少|差|省)了?)$",
    re.IGNORECASE,
)


def amount(value: object) -> float | None:
    """A sum's amount as a number ("$1,850" 1850, "17.2k" 17200); None when it is written otherwise."""
    m = _WRITTEN.match(str(value))
    if m is None:
        return None
    n = float(m[2].replace(",", "") + (m[3] or "")) * _TIMES.get((m[4] or "").lower(), 1)
    if not m[4] and (jiao := _JIAO.match(str(value), m.end())) is not None:
        n += int(jiao[1]) / 10  # 2块5: 2.5
    elif m[4] == "万" and (qian := _QIAN.match(str(value), m.end())) is not None:
        n += int(qian[1]) * 1000  # 1万5: 15,000
    return n


_JIAO = re.compile(r"块(\d)")
_QIAN = re.compile(r"(\d)(?![\d.])")


# words after a sum that say so: "almost $1,500 less", "$200 more", "50 bucks cheaper"
_THAN = re.compile(r"\s*(?:less|more|cheaper|extra|higher|lower|off)\b", re.IGNORECASE)


def by_how_much(v: Value, text: str) -> bool:
    """Is `v` said as a difference ("by 50", 贵400, "$1,500 less"), not as the sum something is?"""
    return _BY.search(text, 0, v.start) is not None or _THAN.match(text, v.end) is not None


def as_sum(v: Value, old: Value, text: str) -> Value:
    """A bare number of `text` as a sum in the old one's currency when it is of the old sum's size (half to
    twice: "$1,850" … "they wanted 2,050 … we landed at 1,975"); anything else as it is ("raised it by 50"
    says by how much)."""
    held, bare = _WRITTEN.fullmatch(str(old.value)), _WRITTEN.fullmatch(str(v.value))
    if v.kind != "number" or held is None or bare is None or bare[1] or by_how_much(v, text):
        return v
    size, said = amount(old.value), amount(v.value)
    if not size or not said or not 0.5 <= said / size <= 2:
        return v
    return Value("money", v.start, v.end, f"{held[1]}{v.value}")


def sums_apart(old: Value, new: Value) -> bool:
    """Two sums more than twenty times apart (more than a month's and a year's) are no old and new value
    of one thing ("buyout is 17.2k" … "cx-5 is $118 a month w them": the insurance)."""
    if old.kind != "money" or new.kind != "money":
        return False
    a, b = amount(old.value), amount(new.value)
    return bool(a and b) and not 0.05 <= b / a <= 20  # type: ignore[operator]
