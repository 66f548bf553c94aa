"""A value said to hold no longer, then the new one: "no longer Zuni, it's Flour + Water now", "not 7:30
anymore: 8"; only a value the speaker holds can be "no longer"."""

from __future__ import annotations

import re

from .common import Reading, same_value
from .patterns_en import _I, _JUDGEMENT
from .values_en import value_of

_NO_LONGER = re.compile(
    r"(?:(?:it'?s|it is|that'?s)\s+)?(?:no longer|not)\s+(?P<old>[^,;]+?)(?:\s+(?:anymore|any more|now))?"
    r"\s*[,;:]\s*(?:it'?s|it is|now)?\s*",
    _I,
)


def no_longer(r: Reading, pos: int, end: int) -> bool:
    m = _NO_LONGER.match(r.text, pos, end)
    if m is None:
        return False
    held = [d for d in reversed(r.earlier) if d.speaker == r.speaker and same_value(d.value, m["old"])]
    if not held:
        return False
    got = value_of(r, m.end(), end, held[0].kind)
    if got is None or _JUDGEMENT.fullmatch(r.text[got[1] : got[2]]):
        return False
    value, v0, v1, _ = got
    r.correct(held[0], value, pos, end, (v0, v1))
    return True
