"""Which value of an old turn a message's new value replaces, for the replacement pass (replacements.py):
values of one kind paired, the one the message's topic words lead to first; a bargain's last sum; a day
of the month said alone read in the held date's month."""

from __future__ import annotations

import re
from collections.abc import Callable

from .common import same_value
from .replacement_keys import terms
from .sums import as_sum, by_how_much, sums_apart
from .value_shapes import Value, day_alone, in_month_of

_I = re.IGNORECASE


def pairs(
    olds: list[Value], candidates: list[Value], old_text: str, text: str, named: Callable[[Value], int]
) -> list[tuple[Value, Value]]:
    """(old, new) of the same kind: first an old value the message's topic words lead to in the old turn
    ("netflix 17.99, spotify family 16.99" … "spotify … going up to 19.99": 16.99), of those first the one
    held under a key the message names more words of (`named`: "changed the wifi password" of
    "wifi is Henderson5G, password tangerine42": tangerine42, held as wifi.password), then the closest in
    form ("1502" before "3" for "1205"), else in the order the old turn says them."""
    olds = [v for v in olds if not by_how_much(v, old_text)]  # "贵400": how much more, no thing's value
    pairs = [(old, new) for old in olds if (new := new_value(candidates, old, old_text, text)) is not None]
    pairs = [(old, new) for old, new in pairs if not sums_apart(old, new)]
    topic = terms(old_text) & terms(text)
    ends = [0, *(v.end for v in olds)]  # what each old value follows: the words since the value before it
    led = {id(v): bool(topic & terms(old_text[max(e for e in ends if e <= v.start) : v.start])) for v in olds}
    return sorted(pairs, key=lambda p: (not led[id(p[0])], -named(p[0]), _length_gap(*p)))


def _length_gap(old: Value, new: Value) -> int:
    """How far apart two digit strings are in length (only digits' lengths say which is the same thing)."""
    if old.kind not in ("number", "code", "phone"):
        return 0
    return abs(len(str(old.value)) - len(str(new.value)))


# words before the value a bargain ended on: "they wanted 2,050 … we landed at 1,975"
_SETTLED = re.compile(
    r"\b(?:landed (?:at|on)|settled (?:at|on|for)|agreed (?:on|to)|ended up (?:at|with|paying)|came down to|"
    r"(?:got|talked) (?:it|them|him|her) down to|final(?:ly)?)\s+(?:at\s+|on\s+)?[$€£]?$|"
    r"(?:最后|最终|谈到|谈成|砍到|砍成)了?$",
    _I,
)


def new_value(candidates: list[Value], old: Value, old_text: str, text: str) -> Value | None:
    """The message's value that replaces `old`: the first of its kind that the old turn does not say, or
    the one a bargain ended on."""
    if old.kind == "money":
        candidates = [as_sum(v, old, text) for v in candidates]
    alike = [v for v in candidates if v.kind == old.kind and not same_value(v.value, str(old.value))]
    if (settled := next((v for v in alike[1:] if _SETTLED.search(text, 0, v.start)), None)) is not None:
        return settled
    for i, v in enumerate(candidates):
        if v.kind == old.kind and not same_value(v.value, str(old.value)):
            if v.kind == "name" and v.value.casefold() in old_text.casefold():
                continue  # "Jin moved over to …": a name both turns say is who it is about, not the value
            if old.kind == "date" and day_alone(text, v):
                if str(v.value)[8:10] == str(old.value)[8:10]:
                    continue  # "double-booked the 12th so it's moved to the 19th" of December 12: the old day
                v = in_month_of(v, old)  # "moved to the 19th" of December 12: December 19
            after = next((w for w in candidates[i + 1 :] if w.kind == v.kind), None)
            if after is not None and v.kind == "date" and not text[v.end : after.start].strip(" "):
                return after  # "延到月底 4月30号": the date said next, after a space, says it exactly
            if v.kind == "date" and len(str(v.value)) != len(str(old.value)):
                # "今年改期到4月18号" of a day: the day, not the year
                alike = (w for w in candidates[i + 1 :] if w.kind == v.kind)
                return next((w for w in alike if len(str(w.value)) == len(str(old.value))), v)
            return v
    return None
