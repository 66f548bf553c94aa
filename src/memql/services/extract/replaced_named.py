"""The value a change names as the one it ends, said around the new value: "moved from Boise to Denver",
"left Google for Stripe", "went from 80 mg to 160 mg", "Denver, not Boise", "cold brew instead of lattes";
从上海搬到杭州, 房租从5800涨到6300, 由周三改成周五, 定在周五，不是周四. The span of those words, so a
fact can say what it replaced (FactCandidate.replaces) even when no earlier message made that a fact.
Plain patterns on the text, no reading of its own: one place serves every grammar (common.Reading.add)."""

from __future__ import annotations

import re

_I = re.IGNORECASE
_OWNER = r"(?:(?:the|a|an|my|our|his|her|their|your)\s+)?"
_CHAR = r"(?:[^,.;:!?()]|(?<=\d)[,.](?=\d))"  # (a point or comma between digits: "1,850", "2.5")
# words before the new value: "from <old> to", "left <old> for", "swapped <old> for"
_BEFORE_EN = re.compile(
    r"\b(?:from|left|quit|swapped|traded(?:\s+in)?|replaced|ditched)\s+" + _OWNER
    + r"(?P<old>[^\s,.;:!?()]" + _CHAR + r"{0,38}?)\s+(?:in\s+)?(?:to|for|with|in favou?r of|->|→)\s+"
    + _OWNER + r"$",
    _I,
)  # fmt: skip
# words after it: ", not <old>", "instead of <old>", "rather than <old>"
_AFTER_EN = re.compile(
    r"^\s*(?:,\s*|\s-+\s*)?(?:not|instead of|rather than|no longer)\s+" + _OWNER
    + r"(?P<old>[^\s,.;:!?()]" + _CHAR + r"{0,30}?)"
    + r"(?=\s*(?:[,.;:!?()]|$|\s(?:anymore|any more|now|lol|haha)\b))",
    _I,
)  # fmt: skip
_BEFORE_ZH = re.compile(
    r"(?:从|由)(?P<old>[^，,。！!？?；;：:从由\s]{1,12}?)"
    r"(?:搬|换|调|转|改|涨|降|升|跳槽|挪|推|提|延|变)?(?:到|成|去|为|至)了?$"
)
_AFTER_ZH = re.compile(
    r"^[，,]?\s*(?:而)?不是(?P<old>[^，,。！!？?；;了的\s]{1,12})(?:了|啦)?(?=[，,。！!？?；;\s]|$)"
)
_WORDS_EN = 6
_ANY = re.compile(r"from|left|quit|swapped|traded|replaced|ditched|not|instead|rather|longer|从|由|不是", _I)


def named_old(text: str, v0: int, v1: int) -> tuple[int, int] | None:
    """The span of the words around the value at [v0, v1) of `text` that name the value it replaces; None
    when they name none (or name the value itself)."""
    before, after = max(0, v0 - 60), v1  # (each pattern read only when the ones before it found nothing)
    if _ANY.search(text, before, v1 + 48) is None:  # (the words each pattern needs, where they read)
        return None  # (most values have no old one named around them)
    value = text[v0:v1].casefold().strip()
    for pattern, english, offset, span in (
        (_BEFORE_ZH.search, False, max(0, v0 - 20), (max(0, v0 - 20), v0)),
        (_AFTER_ZH.match, False, after, (after, v1 + 20)),
        (_BEFORE_EN.search, True, before, (before, v0)),
        (_AFTER_EN.match, True, after, (after, v1 + 48)),
    ):
        m = pattern(text[span[0] : span[1]])
        if m is None:
            continue
        old = m["old"].strip()
        if english and len(old.split()) > _WORDS_EN:
            continue
        if not old or old.casefold() == value or old.casefold() in value or value in old.casefold():
            continue
        start = offset + m.start("old")
        return start, start + len(m["old"].rstrip())
    return None
