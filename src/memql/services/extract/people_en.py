"""The names of an English clause as people a later he/she may stand for (rules_en.read_clause)."""

from __future__ import annotations

import re

from .common import Reading
from .patterns_en import _I, _NAME, NOT_NAMES

_OWNED_BEFORE = re.compile(r"(?:\b(?:my|his|her|our|their|your|a|an)|\w's)\s+(?:(?:new|old|used)\s+)?$", _I)
_PLACE_BEFORE = re.compile(
    r"(?:in|at|to|from|for|near|of|on|into|visit|visited|visiting|across|via|quit|quits|quitting)\s+$", _I
)  # "quit Deloitte": an employer one leaves, no person


# "Dana's your manager, right?": the 's before whose someone is, is "is" (a possessive owns no "your")
_IS_ONES = r"'s\s+(?:my|your|his|her|our|their)\s"


_A_NAME = re.compile(_NAME + r"(?:(?![\w'])|(?=" + _IS_ONES + "))")
_OPENERS = re.compile(r"[ \"'(]*")  # what may stand before a sentence's first word
_AND_OR_IS = re.compile(r"\s+(?:and|&)\s|" + _IS_ONES)
_NEAR = 80  # how far before a name the words that say what it is are looked for


def name_people(r: Reading, start: int, end: int) -> None:
    """The other names of the clause, as people a later he/she may stand for: not after a preposition of
    place ("in Lisbon"), not a time, not the value of a fact ("works at Stripe")."""
    values = [d.value_span for d in r.facts if d.value_span is not None and d.value_span[1] > start]
    named = {(p.turn, p.name) for p in r.known_persons}
    for m in _A_NAME.finditer(r.text, start, end):
        if m[0] in NOT_NAMES or (r.turn, m[0]) in named:
            continue
        # what stands right before the name, looked at near it (not searched for in all the clause before
        # each name: a clause of thousands of names would be read in quadratic time)
        near = max(start, m.start() - _NEAR)
        if _PLACE_BEFORE.search(r.text, near, m.start()) or r.times_in(m.start(), m.end()):
            continue
        if _OWNED_BEFORE.search(r.text, near, m.start()):
            continue  # "Dad's Prius", "got a Prius": what someone owns is no person a later "he" can be
        opens = _OPENERS.match(r.text, start, m.start()).end() == m.start()  # (only quotes or spaces before)
        if opens and not _AND_OR_IS.match(r.text, m.end()):
            continue  # "Pets are…", "Wow, Maria!": a capital that opens a sentence is no sure name
        if any(a <= m.start() < b for a, b in values) or r.in_a_time(m.start()):
            continue
        r.name_person(m[0], None, (m.start(), m.end()))
