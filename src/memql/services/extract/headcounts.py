"""How many people a gathering of the speaker's is for (`headcount`): "We're hosting Easter this year,
expecting 14 people", "we're having about 30 guests"; and a bare count that moves the one held ("Two cousins
can't come, so 12 now", "my aunt is bringing her new boyfriend, so 13", "we're down to 10"), a booking's
party size included ("a table for six" … "so 8 now")."""

from __future__ import annotations

import re

from memql.lang.time.numbers import EN_NUMBER_RE

from .common import Reading
from .patterns_en import _I, _NEGATION
from .values_en import add_fact
from .vocabulary import snake

_COUNT = r"(?P<n>\d{1,4}|" + EN_NUMBER_RE + r")"
# "our book club has 9 members": how many a group of the speaker's has, keyed <group>.<members>
_MEMBERS = r"members|people|players|kids|students|employees|volunteers|families"
_GROUP_HAS = re.compile(
    r"(?:our|my)\s+(?P<group>[a-z]+(?:\s+[a-z]+)?)\s+(?:now\s+)?(?:has|have|is|'s)\s+(?:about\s+|around\s+)?"
    + _COUNT
    + r"\s+(?P<unit>"
    + _MEMBERS
    + r")\b",
    _I,
)
_PEOPLE = r"(?:people|guests|adults|folks|relatives|of us|kids|families)"
# "expecting 14 people", "we're having about 30 guests over", "inviting 120 guests"
_EXPECTING = re.compile(
    r"\b(?:expecting|expect|having|hosting|inviting|invited|feeding|cooking for|seating|there'll be|"
    r"there will be)\s+(?:about\s+|around\s+|roughly\s+|maybe\s+|like\s+|up to\s+)?"
    + _COUNT
    + r"\s+"
    + _PEOPLE,
    _I,
)
# "…, so 12 now", "so 13", "we're down to 10", "that makes 15 people": the count a clause ends on
_NOW_COUNT = re.compile(
    r"(?:\bso|\bnow|[,;:—–-])\s+(?:it'?s\s+|we'?re\s+(?:at\s+)?|that'?s\s+|that makes\s+|making it\s+|"
    r"(?:back\s+)?(?:down|up)\s+to\s+)?" + _COUNT
    + r"(?:\s+" + _PEOPLE + r"|\s+total|\s+in total)?(?:\s+now)?[\s.!]*$",
    _I,
)  # fmt: skip


def _is_count(key: str) -> bool:
    return key == "headcount" or key.rpartition(".")[2] in _MEMBERS.split("|")


def headcount(r: Reading, pos: int, end: int, confidence: float, correction: bool) -> bool:
    """A gathering's headcount said in the clause s[pos:end] (the speaker's), or a group's size."""
    if (g := _GROUP_HAS.match(r.text, pos, end)) is not None:
        key = f"{snake(g['group'])}.{g['unit'].lower()}"
        n = g["n"].lower()
        add_fact(r, r.speaker, key, n, pos, end, confidence, correction, "number", g.span("n"))
        return True
    m = _EXPECTING.search(r.text, pos, end)
    if m is None or _NEGATION.search(r.text, pos, m.start("n")):
        return False
    add_fact(
        r, r.speaker, "headcount", m["n"].lower(), pos, end, confidence, correction, "number", m.span("n")
    )
    return True


def changed_count(r: Reading, pos: int, end: int) -> bool:
    """A bare count the clause ends on, as the new value of the one headcount or party size the speaker
    holds (never a guess between two)."""
    start = min(pos, r.clause_start)  # "So 8 now.": the "so" the clause's reader skipped
    m = _NOW_COUNT.search(r.text, start, end)
    said = m[0].lower() if m is not None else ""
    if m is None or not (said.startswith(("so", "now")) or re.search(r"\bnow\b|we'?re|down to|up to", said)):
        return False  # "…, 12" alone may be anything; "so 12", "12 now" say the count is now that
    return r.correct_the_one(
        lambda d: d.subject == r.speaker and _is_count(d.attribute), m["n"].lower(), pos, end, m.span("n")
    )
