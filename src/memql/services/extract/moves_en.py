"""Someone the speaker moved lives where they were moved to ("We moved grandma to a memory care place closer
to us in Columbus", "I moved Dad into assisted living in Tulsa"); a day moved is no one moved ("we moved the
dentist to Friday"). A child moved to a school goes there ("we switched Leo over to Maple Grove
Montessori")."""

from __future__ import annotations

import re

from .common import Reading
from .patterns_en import _ADVERBS
from .subjects_en import object_of
from .values_en import add_fact, value_of

# "We moved grandma to a memory care place in Columbus", "I moved Dad into assisted living in Tulsa": where
# the one moved lives now
_MOVED_SOMEONE = re.compile(
    _ADVERBS + r"(?:(?:have|'ve|had|just|finally|recently)\s+)*(?:moved|relocated)\s+", re.I
)
_MOVED_TO = re.compile(r"\s*(?:back\s+)?(?:to|into|in with|out to|down to|up to)\s+", re.I)


# "we switched Leo over to Maple Grove Montessori", "moved her to Lincoln High": the school they go to now
_SCHOOLED = re.compile(
    _ADVERBS + r"(?:(?:have|'ve|had|just|finally)\s+)*(?:switched|moved|transferred|enrolled|put)\s+", re.I
)
_TO_SCHOOL = re.compile(
    r"\s*(?:over\s+)?(?:to|into|in|at)\s+(?:the\s+)?(?P<value>(?-i:[A-Z])[\w'-]*(?:\s+(?-i:[A-Z])[\w'-]*){0,3}\s+"
    r"(?-i:School|Primary|High|Academy|College|University|Elementary|Kindergarten|Nursery|Preschool|Middle|"
    r"Prep|Montessori))\b",
    re.I,
)


def moved_someone(r: Reading, pos: int, at: int, end: int, confidence: float, correction: bool) -> bool:
    s = r.text
    moved = (m := _SCHOOLED.match(s, at, end)) and object_of(r, m.end(), end)
    if moved and moved[0] != r.speaker and (school := _TO_SCHOOL.match(s, moved[1], end)) is not None:
        add_fact(r, moved[0], "school", school["value"], pos, end, confidence, True, "organization",
                 school.span("value"))  # fmt: skip
        return True
    if (m := _MOVED_SOMEONE.match(s, at, end)) is None:
        return False
    moved = object_of(r, m.end(), end)
    if moved is None or moved[0] == r.speaker or (to := _MOVED_TO.match(s, moved[1], end)) is None:
        return False
    got = value_of(r, to.end(), end, "place")
    if got is None or r.time_at(got[1], got[2]) is not None:
        return False  # "we moved the dentist to Friday": a day, and no one moved
    add_fact(r, moved[0], "residence", got[0], pos, end, confidence, correction, "place", (got[1], got[2]))
    return True


# "we finally got the keys to the new place in Fort Collins", "loving our new apartment in Astoria": a
# new home of the speaker's, by the place it is in
_NEW_HOME = re.compile(
    r"\b(?:my|our|the)\s+new\s+(?:place|house|home|apartment|flat|condo|townhouse|studio)\s+"
    r"(?:(?:over|out|up|down)\s+)?(?:in|at)\s+(?P<place>(?-i:[A-Z])[\w'-]*(?:\s+(?-i:[A-Z])[\w'-]*){0,2})",
    re.I,
)
_SOMEONE_ELSE = re.compile(r"\b(?:he|she|they|his|her|their)\b|(?<!let)'s\b", re.I)


def new_home(r: Reading, pos: int, end: int, confidence: float) -> bool:
    if "new " not in r.text[pos:end].lower():
        return False
    m = _NEW_HOME.search(r.text, pos, end)
    if m is None or _SOMEONE_ELSE.search(r.text, pos, m.start()) or r.times_in(*m.span("place")):
        return False  # "my sister's new place in Reno": hers
    add_fact(r, r.speaker, "residence", m["place"], pos, end, confidence, True, "place", m.span("place"))
    return True
