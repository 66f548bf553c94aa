"""Number words for the natural-language grammars.

English: digits, zero..nineteen, twenty..ninety (optionally with a unit word, "twenty-one"),
a/an = 1, a couple (of) = 2, a few / few = 3, a dozen = 12.

Chinese: Arabic digits, 零〇一二两三四五六七八九 with 十/百/千 (十五, 二十三, 一百零五, 两百),
and positional digit strings (二〇二六).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from .errors import TimeParseError, quote

__all__ = ["EN_NUMBER_RE", "ZH_NUMBER_RE", "parse_en_number", "parse_zh_number"]

_EN_ONES = {
    "zero": 0,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
}
_EN_TEENS = {
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "seventeen": 17,
    "eighteen": 18,
    "nineteen": 19,
}
_EN_TENS = {
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "sixty": 60,
    "seventy": 70,
    "eighty": 80,
    "ninety": 90,
}
_EN_SPECIAL = {
    "a": 1,
    "an": 1,
    "a couple of": 2,
    "a couple": 2,
    "couple of": 2,
    "a few": 3,
    "few": 3,
    "a dozen": 12,
    "dozen": 12,
}


def _alternation(words: Iterable[str]) -> str:
    return "|".join(w.replace(" ", r"\s+") for w in sorted(words, key=len, reverse=True))


EN_NUMBER_RE = (
    rf"(?:(?:{_alternation(_EN_TENS)})(?:[-\s]+(?:{_alternation(set(_EN_ONES) - {'zero'})}))?"
    rf"|{_alternation(_EN_TEENS)}|{_alternation(_EN_ONES)}|{_alternation(_EN_SPECIAL)}|[0-9]{{1,6}})"
)
"""A regex (no groups) matching an English amount: digits or number words (lowercase text)."""


MAX_DIGITS = 18  # the digits an amount is read from (past them: no amount, and no int of thousands of digits)


def whole_number(digits: str) -> int | str:
    """Digits as the int they spell, or as said (a string) past MAX_DIGITS: a code or a serial number that
    long is no amount, and Python refuses an int of over 4,300 digits (ValueError)."""
    return int(digits) if len(digits.lstrip("-")) <= MAX_DIGITS else digits


def parse_en_number(text: str) -> int:
    """'3' -> 3, 'twenty-one' -> 21, 'a few' -> 3, 'an' -> 1."""
    words = " ".join(re.split(r"[\s-]+", text.strip().lower()))
    if words.isascii() and words.isdigit():
        if len(words) > MAX_DIGITS:
            raise TimeParseError(f"not a number of at most {MAX_DIGITS} digits: {quote(text[:40])}")
        return int(words)
    for table in (_EN_ONES, _EN_TEENS, _EN_TENS, _EN_SPECIAL):
        if words in table:
            return table[words]
    tens, _, ones = words.partition(" ")
    if tens in _EN_TENS and ones in _EN_ONES and ones != "zero":
        return _EN_TENS[tens] + _EN_ONES[ones]
    raise TimeParseError(f"not a number: {quote(text)}")


_ZH_DIGITS = {
    "零": 0,
    "〇": 0,
    "一": 1,
    "二": 2,
    "两": 2,
    "三": 3,
    "四": 4,
    "五": 5,
    "六": 6,
    "七": 7,
    "八": 8,
    "九": 9,
}
_ZH_UNITS = {"十": 10, "百": 100, "千": 1000}

ZH_NUMBER_RE = r"(?:[0-9]{1,6}|[零〇一二两三四五六七八九十百千]{1,8})"
"""A regex (no groups) matching a Chinese amount: Arabic digits or Chinese numerals."""


def parse_zh_number(text: str) -> int:
    """'3' -> 3, '十五' -> 15, '二十三' -> 23, '两百' -> 200, '一百零五' -> 105, '二〇二六' -> 2026."""
    s = text.strip()
    if s.isascii() and s.isdigit() and len(s) <= 9:
        return int(s)
    if not s or len(s) > 12 or any(c not in _ZH_DIGITS and c not in _ZH_UNITS for c in s):
        raise TimeParseError(f"not a Chinese number: {quote(text)}")
    if not any(c in _ZH_UNITS for c in s):
        if len(s) == 1:
            return _ZH_DIGITS[s]
        return int("".join(str(_ZH_DIGITS[c]) for c in s))  # positional: 二〇二六
    total, digit, last_unit, previous_digit = 0, None, 10_000, False
    for c in s:
        if c in _ZH_DIGITS:
            if previous_digit and digit != 0:
                raise TimeParseError(f"not a Chinese number: {quote(text)}")
            digit, previous_digit = _ZH_DIGITS[c], True
            continue
        unit = _ZH_UNITS[c]
        if unit >= last_unit:
            raise TimeParseError(f"not a Chinese number: {quote(text)}")
        total += (digit if digit else 1) * unit
        digit, last_unit, previous_digit = None, unit, False
    return total + (digit or 0)
