"""A swap in plain words: the speaker gives up a value a fact held and takes up another in the same
message ("Eli quit trumpet and picked up drums", "I cancelled Planet Fitness and joined the YMCA",
"Finished Dune, started Project Hail Mary", 老张把奥迪换成了蔚来), or says what they switched to right
after stating the value ("My coffee order is a flat white." … "Switched to oat lattes.").

The replacements pass (replacements.py) pairs values by their shape (a date for a date, a name for a
name); these values have none — "trumpet", "oat lattes" are plain words — so this pass reads the words
instead: the held value named after a verb of leaving, the new one after a verb of taking up, under the
held fact's key and subject (the grammar's own reading of the new value under another key yields to it).
Its drafts are hedged (confidence HEDGED), as a replacement's are.
"""

from __future__ import annotations

import re

from .common import HEDGED, Draft, Reading, kin_named, names_person
from .vocabulary import snake

_I = re.IGNORECASE
_LEAVE = re.compile(
    r"\b(?:quit|left|cancell?ed|dropped|gave up|stopped|finished|sold|ditched|replaced|traded in|"
    r"got rid of|(?:am|'m) done with|moved (?:away )?from|switched (?:away )?from|no longer (?:at|with|on)|"
    r"put(?=\s+(?:the|my|his|her|their)\s+[\w-]+\s+(?:down|aside|away)\b))"
    r"\s+(?:the\s+|my\s+|our\s+|his\s+|her\s+|their\s+)?",
    _I,
)
# "traded the Civic in for a Tesla", "swapped my Honda for a Mazda": the new value follows "for"
_TRADED = re.compile(
    r"\b(?:traded(?:\s+in)?|swapped|exchanged)\s+(?:the\s+|my\s+|our\s+|his\s+|her\s+|their\s+)?", _I
)
_FOR = re.compile(r"\s+(?:in\s+)?for\s+(?:the\s+|a\s+|an\s+|my\s+)?", _I)
_TAKE = re.compile(
    r"\b(?:picked up|took up|started(?: on)?|joined|switched to|moved (?:over )?to|signed up (?:for|with|at)|"
    r"went with|going with|got|bought)\s+(?:the\s+|a\s+|an\s+|my\s+|some\s+)?",
    _I,
)
_BA_SWAP = re.compile(
    r"(?P<who>[\u4e00-\u9fff]{2,4}?)?把(?P<old>[^，,。！!把]{1,10}?)(?:卖了|退了|处理了)?[，,]?"
    r"(?:换成了?|改成了?|换了|换掉了?，?换了)(?:一[辆台部个只款])?(?P<new>[^，,。！!了]{1,10})"
)
_UNTIL_TO = re.compile(r"(.+?)\s+to\s+", _I)
_FROM_TO = re.compile(r"\s+to\s+(?:the\s+|a\s+|an\s+)?", _I)
# said alone right after the value it replaces: "Switched to oat lattes.", "These days it's black coffee."
_SWITCHED = re.compile(
    r"^\s*(?:(?:i|we)\s+)?(?:(?:have|'ve)\s+)?(?:switched|changed|moved) (?:over )?to\s+"
    r"(?:(?:a|an|the|some)\s+)?|"
    r"^\s*(?:these days|now|nowadays|lately)\s*,?\s+it'?s\s+(?:just\s+|mostly\s+|only\s+)?|"
    r"^\s*(?:now|these days)\s*,?\s+(?:i'?m|i am)\s+on\s+",
    _I,
)
# where a value said after a verb ends: a new clause, a reason, a time or a filler word
_END = re.compile(
    r"\s*(?:[,.;:!?(]|\s-\s|\s(?:in\s+)?for\s|\s(?:down|aside|away)\b|\s(?:and|but|because|since|so|as|instead|now|too|again|anymore|last|this|"
    r"yesterday|today|tonight|finally|lately|recently|nowadays|lol|haha)\b)|$",
    _I,
)
_MAX_WORDS = 5
# the words that name whatever value a key holds: "sold the truck" sells the held "Ford F-150"
_CATEGORY = {
    "car": frozenset({"car", "truck", "pickup", "suv", "van", "minivan", "sedan", "hatchback", "wagon"}),
    "phone": frozenset({"phone", "cell", "cellphone", "mobile"}),
    "laptop": frozenset({"laptop", "computer", "notebook"}),
}


def bind(r: Reading, before: list[str]) -> None:
    """Draft the swap a message states (see the module docstring) into `r.facts`; a value said alone
    after "switched to" only when the grammar read nothing in the message. `before`: the speaker's
    recent turns (whom "he" or "she" can be)."""
    if (ba := _BA_SWAP.search(r.text)) is not None:
        _swapped_zh(r, ba)
        return
    leave = _LEAVE.search(r.text) or _TRADED.search(r.text)
    taken = leave is not None and (
        _TRADED.search(r.text) is not None
        or _TAKE.search(r.text, leave.end())
        or ("from" in leave[0].casefold() and _UNTIL_TO.match(r.text, leave.end()))
    )
    if not taken and not _SWITCHED.match(r.text):
        return  # (before the recent turns are read: most messages end here)
    held = [
        d
        for d in r.earlier
        if d not in r.facts and isinstance(d.value, str) and not d.attribute.startswith("relation.")
    ]
    if not held or _swapped(r, held, before) or r.facts:
        return  # a fact the grammar read says what changed
    _switched(r, held)


def _swapped(r: Reading, held: list[Draft], before: list[str]) -> bool:
    """ "X quit trumpet and picked up drums": the held value named after a verb of leaving, the new one
    after a verb of taking up that follows it."""
    text = r.text
    for leave in [*_LEAVE.finditer(text), *_TRADED.finditer(text)]:
        named = _value_at(text, leave.end())
        if "from" in leave[0].casefold() and (cut := _UNTIL_TO.match(text, leave.end())) is not None:
            named = _value_at(text[: cut.end(1)], leave.end())  # "from violin to cello": violin
        if named is None:
            continue
        holders = [d for d in held if _names(named[0], d) and _about(r, d, before)]
        if len({(d.subject, d.attribute) for d in holders}) != 1:
            continue  # nobody's, or two people's Civic: whose it was is not guessed
        old = holders[-1]
        take = _TAKE.search(text, named[2])
        if "from" in leave[0].casefold() and (to := _FROM_TO.match(text, named[2])) is not None:
            take = to  # "switched from violin to cello": the new value follows "to"
        if leave.re is _TRADED:
            take = _FOR.match(text, named[2])
        new = _value_at(text, take.end()) if take is not None else None
        if new is None or new[0].casefold() == str(old.value).casefold():
            continue
        if any((d.subject, d.attribute) == (old.subject, old.attribute) for d in r.facts):
            return True  # the grammar bound the change itself
        # the grammar's own reading of the new value ("joined the YMCA": an employer) yields to the swap
        r.facts[:] = [d for d in r.facts if str(d.value).casefold() != new[0].casefold()]
        said_from = (
            leave.start() if take.re in (_FROM_TO, _FOR) else take.start()
        )  # "switched from…", "traded…"
        r.add(Draft(old.subject, old.attribute, new[0], said_from, new[2], r.now, HEDGED, False, old.kind,
                    (new[1], new[2])))  # fmt: skip
        return True
    return False


def _swapped_zh(r: Reading, m: re.Match[str]) -> None:
    """老张把奥迪换成了蔚来, 我把卡罗拉卖了换了比亚迪: the held value named after 把 is replaced by the one
    after the verb, under its holder's key (the one whose name opens the clause, else the speaker's)."""
    if any(d.kind in ("product", "organization", "place") for d in r.facts):
        return  # the grammar read the change
    who = m["who"] or ""
    held = [d for d in r.earlier if d not in r.facts and isinstance(d.value, str) and _names(m["old"], d)]
    holders = [d for d in held if d.subject == who or (not who and d.subject == r.speaker)] or held
    if len({(d.subject, d.attribute) for d in holders}) != 1 or m["new"] == m["old"]:
        return
    old = holders[-1]
    r.facts[:] = [d for d in r.facts if d.attribute != snake(m["old"])]  # the grammar's 奥迪 = 蔚来: no key
    r.add(Draft(old.subject, old.attribute, m["new"], m.start(), m.end("new"), r.now, HEDGED, False, old.kind,
                m.span("new")))  # fmt: skip


def _switched(r: Reading, held: list[Draft]) -> None:
    """ "Switched to oat lattes." said right after the speaker's own plain value: that value's key."""
    m = _SWITCHED.match(r.text)
    if m is None:
        return
    last = held[-1]
    if last.subject != r.speaker or last.kind != "text" or last.speaker != r.speaker:
        return
    new = _value_at(r.text, m.end())
    if new is None or new[0].casefold() == str(last.value).casefold():
        return
    r.add(Draft(last.subject, last.attribute, new[0], m.start(), new[2], r.now, HEDGED, False, last.kind,
                (new[1], new[2])))  # fmt: skip


def _value_at(text: str, start: int) -> tuple[str, int, int] | None:
    """(words, start, end) of the value said from `start`: up to the end of its phrase, at most
    _MAX_WORDS words, not a pronoun."""
    end = _END.search(text, start)
    stop = end.start() if end is not None else len(text)
    words = text[start:stop].strip()
    if not words or len(words.split()) > _MAX_WORDS:
        return None
    if re.fullmatch(r"(?:it|them|that|this|one|him|her|some|those|these)", words, _I):
        return None
    return words, start, start + len(words)


def _names(said: str, held: Draft) -> bool:
    """Do the words `said` name the `held` value ("Planet Fitness" of "Planet Fitness on 5th"; "the
    truck" of a car)?"""
    said, value = said.casefold(), str(held.value).casefold()
    if said in _CATEGORY.get(held.attribute, ()):
        return True
    return said == value or (len(said) >= 4 and (value.startswith(said) or said in value.split(" (")[0]))


def _about(r: Reading, old: Draft, before: list[str]) -> bool:
    """The swap is the held fact's subject's: the speaker's own, someone the message names, or the one
    relative "he" or "she" can be."""
    if old.subject == r.speaker:
        return True
    if names_person(r.text, old.subject):  # "Dad" is "Owen's father"
        return True
    return re.match(r"\s*(?:he|she)\b", r.text, _I) is not None and len(kin_named(before)) <= 1
