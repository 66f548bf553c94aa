"""The key a replaced value is given when no fact held the old one (replacements.py): where someone lives or
works for a place, else the words the two turns share nearest the old value, else the noun the old value
was given for ("our landlord is …", "Portugal for the honeymoon"), else what its shape says it is."""

from __future__ import annotations

import re
from itertools import pairwise

from memql.services.tokenize import STOP_WORDS, tokens

from .common import CJK, Reading, Said, sentence_around
from .value_shapes import Value

_I = re.IGNORECASE
_GENERIC_WORDS = """
    now new got get getting week weeks month months year years today yesterday tomorrow day days time
    sorry oops wait actually correction instead switched moved changed said meant thanks okay ok just
    really still already also back last next first old one ones thing things lot bit
    because though although through please until while after before since like lol haha yeah
    现在 如今 目前 改成 换成 不对 搞错 应该 是的 了吧 我们 今天 明天 昨天
"""
_EXTRA_STOP = frozenset(_GENERIC_WORDS.split())  # words two turns share without sharing a topic
# the key of a value whose turns name no attribute: what its shape says it is
_BY_SHAPE = {
    "clock": "time",
    "money": "amount",
    "measure": "amount",
    "number": "number",
    "name": "name",
    "phone": "phone",
    "color": "color",
}


def terms(text: str) -> set[str]:
    """A turn's content words: what two turns on one topic share."""
    return {
        t
        for t in tokens(text)
        if t not in STOP_WORDS and t not in _EXTRA_STOP and not t.isnumeric() and len(t) > 1
    }


def on_topic(shared: set[str], said: str, old: Value, text: str, new: Value) -> bool:
    """Two turns speak of one thing, more firmly than by a word both say somewhere: they name it in the
    same two words or more ("the gate code" … "changed the gate code"), or a word they share stands in the
    sentence of the old value and in that of the new ("deductible is $1,500" … "deductible only $750").
    Not said of Chinese: its sentences run on without stops, and its character pairs (新手机, 涨了) are
    shared by turns on other things."""
    if not shared or CJK.search(text) or CJK.search(said):
        return False
    pairs = {pair for pair in pairwise(tokens(text)) if set(pair) <= shared}
    if any(pair in pairs for pair in pairwise(tokens(said))):
        return True
    around_new, around_old = (
        sentence_around(text, new.start, new.end),
        sentence_around(said, old.start, old.end),
    )
    return bool(shared & terms(text[slice(*around_new)]) & terms(said[slice(*around_old)]))


_GIVEN_FOR = re.compile(
    r"(?:my|our|the|his|her|their|your)\s+((?:[a-z-]+\s+){0,2}[a-z-]+?)(?:'s|\s+is|\s+are|\s+was|:|\s+of)?\s*"
    r"(?:is|are|was|at|in|on|through|with|to|from|for|=|:)?\s*$",
    _I,
)


_RESIDENCE = re.compile(r"\b(?:mov(?:e|ed|ing)|relocat\w*|liv(?:e|es|ed|ing)|settled)\b|住|搬", _I)
_WORKPLACE = re.compile(r"\b(?:transferr?\w*|office|based)\b|调到|调去", _I)


_PRONOUN_CHARS = frozenset("我你您他她它咱")
_ZH_NAME = re.compile(r"(?:小|老|阿)[\u4e00-\u9fff]")  # 小刘, 老王, 阿珍: someone called so


def key_for_old(r: Reading, said: Said, old: Value, shared: set[str], subject: str) -> str:
    """The key of a value no fact held: for a place, where someone lives (a move) or works (a transfer);
    else the words the two turns share, in the old turn's order (the ones nearest the old value); else the
    noun the old value was given for; else what its shape says it is."""
    vocabulary = r.vocabulary
    if old.kind == "name":
        if _RESIDENCE.search(r.text) or _RESIDENCE.search(said.text):
            return "residence"
        if _WORKPLACE.search(r.text):
            return "work_location"
    # who it is about names no attribute, nor does a pronoun's half of a word (我老公: 我老), nor anyone
    # named ("started physio w kerry", 次卧的小刘只要2800: whom the value went with)
    people = {p.name.casefold() for p in r.persons} | {w.casefold() for w in r.speakers}
    shared = {
        w
        for w in shared - terms(subject) - terms(r.speaker)
        if not set(w) & _PRONOUN_CHARS
        and vocabulary.relation(w) is None  # 嫂子 is who, not what
        and w not in people
        and not _ZH_NAME.fullmatch(w)
        and re.search(rf"\b(?:with|w/?)\s+{re.escape(w)}\b", said.text, _I) is None
    }
    if shared:
        words = [w for w in tokens(said.text) if w in shared]
        if words:
            nearest = min(words, key=lambda w: abs(said.text.lower().find(w) - old.start))
            phrase = _phrase(said.text.lower(), nearest, shared)
            return vocabulary.normalize(phrase)
    given = _GIVEN_FOR.search(said.text[: old.start])
    if given:
        return vocabulary.normalize(given[1])
    if old.kind == "name" and (after := _FOR_AFTER.match(said.text, old.end)):  # "Portugal for the honeymoon"
        return vocabulary.normalize(after[1])
    if old.kind == "name" and re.search(r"\b(?:at|in)\s+(?:the\s+)?$", said.text[: old.start], _I):
        return "location"
    return shape_key(old)


def shape_key(value: Value) -> str:
    """The key a value's shape alone gives it ("amount", "schedule"): what `key_for_old` falls back to."""
    return _BY_SHAPE.get(value.kind.split(":")[0], value.kind)


_FOR_AFTER = re.compile(
    r"\s+for\s+(?:the|my|our|his|her|their)\s+((?:[a-z-]+\s+)?[a-z-]+)\s*(?:[.,;!?]|$)", _I
)


def _phrase(text: str, word: str, shared: set[str]) -> str:
    """`word` with the shared words right before or after it ("door" + "code"); a Chinese word with the
    shared character pairs it overlaps (读书 + 书会: 读书会)."""
    if CJK.match(word) and (at := text.find(word)) >= 0:
        start, end = at, at + len(word)
        while start > 0 and text[start - 1 : start + 1] in shared:
            start -= 1
        while end < len(text) and text[end - 1 : end + 1] in shared:
            end += 1
        return text[start:end]
    m = re.search(r"((?:[\w-]+\s+)?)" + re.escape(word) + r"((?:\s+[\w-]+)?)", text)
    if not m:
        return word
    before, after = m[1].strip(), m[2].strip()
    parts = [p for p in (before, word, after) if p and (p == word or p in shared)]
    return " ".join(parts)
