"""A pet's name, given and changed, in English and Chinese: "WE GOT A KITTEN, we named her Biscuit",
"so she's Mochi now"; "领养了一只小橘猫，取名叫年糕", "最后改叫汤圆了".

A name given ("named her", 取名叫) is the name of the pet the same message names (`<pet>.name` of the
speaker); a new name said of "her"/"him"/"it" ("she's Mochi now", "renamed him Rex", 改叫/改名叫) replaces
the one pet name the speaker holds — none or several held, nothing is guessed. A pet introduced by its
name after it was adopted or got ("i adopted her. meet pickle 🐱": its kind by the pet word or emoji) is
named, and "its officially mochi now" renames it (but not "officially spayed").
"""

from __future__ import annotations

import re

from .common import CJK, Draft, Reading, latest_held

_PET_EN = r"kitten|kitty|cat|puppy|pup|dog|bunny|rabbit|hamster|parrot|budgie|bird|fish|turtle|tortoise|gecko"
_PET_ZH = r"小?[橘黑白灰花狸三奶]?猫咪?|小?[黑白黄花]?狗狗?|柯基|金毛|泰迪|柴犬|兔子|仓鼠|鹦鹉|乌龟"
_PET = re.compile(rf"\b(?P<pet>{_PET_EN})\b|(?P<zh>{_PET_ZH})", re.IGNORECASE)
_NAMED = re.compile(
    r"\b(?:named|called|calling|naming)\s+(?:her|him|it|them)\s+(?P<name>(?-i:[A-Z][a-z]+))\b|"
    # in lower case when "we" give it and it ends the message: "got a cat, we're calling him biscuit"
    r"\bwe(?:'re|re| are)?\s+(?:calling|naming|named|called)\s+(?:her|him|it)\s+"
    r"(?P<given>[a-z]{3,})[\s.!~]*$|"
    # "i adopted her. meet pickle 🐱": a pet introduced by its name, in any case
    r"(?<=[.!,:] )(?:meet|say hi to|this is)\s+(?P<met>[a-z]{3,})\b(?P<emoji>[\s.!,~]*(?:$|[🐱🐶🐰🐹🐈🐕]))|"
    r"(?:取名|起名|起了个名字?|取了个名字?|(?<![不没])叫它)(?:叫|为)?(?P<zh>[\u4e00-\u9fff]{2,4}?)(?=[，,。！!\s~🐱🐶]|$)",
    re.IGNORECASE,
)
_RENAMED = re.compile(
    r"\b(?:(?:she|he|it)(?:'s| is)|renamed\s+(?:her|him|it)(?:\s+to)?|(?:we|i)\s+call\s+(?:her|him|it))\s+"
    r"(?P<name>(?-i:[A-Z][a-z]+))(?=\s+now\b|\s+instead\b)|"
    # "its officially mochi now": a new name in any case, said to be official
    r"\b(?:she|he|it)(?:'s|s| is)\s+officially\s+(?!(?:done|ours|mine|home|back|fine|good|healthy|spayed|"
    r"neutered|fixed|chipped|registered|vaccinated|trained|legal|free|here|adopted|family)\b)"
    r"(?P<official>[a-z]{3,})(?=\s+now\b)|"
    r"(?:改叫|改名叫|改名为|改名成|改成叫)(?P<zh>[\u4e00-\u9fff]{2,4}?)(?=了|[，,。！!\s]|$)|"
    # "the cat has been renamed … he's captain mochi now": after "renamed", a new name in any case
    r"(?<=\brenamed\b)[^?]*?\b(?:she|he|it)(?:'s|s| is)\s+(?P<lower>[a-z]{3,}(?:\s[a-z]{3,})?)(?=\s+now\b)",
    re.IGNORECASE,
)
_ADOPTED = re.compile(r"\b(?:adopted|rescued|got|brought home|picked up)\b", re.IGNORECASE)
_ADOPTED_EMOJI = {"🐱": "cat", "🐈": "cat", "🐶": "dog", "🐕": "dog", "🐰": "rabbit", "🐹": "hamster"}
_ZH_PET_KEY = {"猫": "cat", "狗": "dog", "柯基": "dog", "金毛": "dog", "泰迪": "dog", "柴犬": "dog"}


def bind(r: Reading) -> None:
    """Draft the pet names a message gives or changes (see the module docstring) into `r.facts`."""
    text = r.text
    if (m := _NAMED.search(text)) is not None:
        emoji = next((kind for e, kind in _ADOPTED_EMOJI.items() if e in (m["emoji"] or "")), None)
        pet = _pet_before(text, m.start()) or emoji
        got = _ADOPTED.search(text, 0, m.start()) if m["met"] else None
        if m["met"] and got is None:
            pet = None  # "meet pickle" names a pet only after one was adopted or got
        if pet is not None:
            _add(r, f"{pet}.name", m, False, got.start() if got else None)
            return
    if (m := _RENAMED.search(text)) is not None:
        held = latest_held(r, lambda d: d.subject == r.speaker and _pet_name_key(d.attribute))
        if len(held) == 1:
            (old,) = held.values()
            if str(old.value).casefold() != m[_name_group(m)].casefold():
                _add(r, old.attribute, m, True)


def _pet_before(text: str, end: int) -> str | None:
    """The key word of the last pet the text names before `end` (a Chinese pet by its kind)."""
    pets = list(_PET.finditer(text, 0, end))
    if not pets:
        return None
    last = pets[-1]
    if last["pet"]:
        return last["pet"].lower()
    word = last["zh"]
    return next((key for zh, key in _ZH_PET_KEY.items() if zh in word), word)


def _pet_name_key(attribute: str) -> bool:
    head, _, aspect = attribute.rpartition(".")
    return aspect == "name" and (_PET.fullmatch(head) is not None or head in _ZH_PET_KEY.values())


def _name_group(m: re.Match[str]) -> str:
    """The group of a _NAMED or _RENAMED match that holds the name."""
    return next(g for g in ("name", "given", "met", "official", "lower", "zh") if m.groupdict().get(g))


def _add(r: Reading, key: str, m: re.Match[str], correction: bool, start: int | None = None) -> None:
    """`start`: where the evidence opens, when the words that say whose pet it is come before the match
    ("i adopted her. meet pickle")."""
    group = _name_group(m)
    value = m[group]
    if CJK.match(value) is None and not value[:1].isupper() and group == "zh":
        return
    begin = m.start(group) if group == "lower" else m.start() if start is None else start
    r.add(Draft(r.speaker, key, value, begin, m.end(), r.now, 0.8, correction, "text", m.span(group)))
