"""The speaker's job said as what someone made them ("Peet's promoted me to store manager!", "they made me
team lead"), as a job taken with its employer ("Left Blue Bottle for a shift lead job at Peet's", "took a
job at Figma", "accepted an offer from Ramp"), or as a title said alone with "now" after a promotion
("guess who got promoted 🎉 Analytics Manager now")."""

from __future__ import annotations

import re
from functools import lru_cache

from .common import Reading
from .values_en import add_fact

# "Peet's promoted me to store manager!", "they made me team lead": the speaker's new title
_PROMOTED_ME = re.compile(
    r"(?:[\w'’&.-]+\s+){1,3}?(?:just\s+|finally\s+|officially\s+)?(?:promoted|made|bumped)\s+me\s+(?:up\s+)?"
    r"(?:to\s+)?(?:an?\s+|the\s+)?(?P<title>(?:[a-z-]+\s+){0,2}(?:manager|lead|director|supervisor|partner|head|"
    r"chief|captain|principal|editor|engineer|chef|officer|president|vp|associate|senior [a-z]+))\b",
    re.I,
)
# "Left Blue Bottle for a shift lead job at Peet's", "took a nursing job at Mercy": a title and where
_JOB_AT = re.compile(  # the speaker's: "I …" or a verb opening the clause
    r"(?:(?:i|we|i'm|i am)\s+|(?=(?:just\s+|finally\s+)?(?:left|quit|took|got|landed|accepted|started)\b))"
    r"(?:[\w'’-]+\s+){0,4}?(?:for|took|got|landed|accepted|started|starting)\s+an?\s+"
    r"(?:new\s+)?(?P<title>(?:[a-z-]+\s+){0,2}[a-z-]+)\s+(?:job|position|role|gig)\s+(?:at|with)\s+"
    r"(?P<org>(?-i:[A-Z])[\w'’&.-]*(?:\s+(?-i:[A-Z])[\w'’&.-]*){0,3})",
    re.I,
)


# "took a job at Figma", "got the job at Notion!!", "accepted an offer from Ramp": an employer, no title
_EMPLOYER_TAKEN = re.compile(
    r"(?:(?:i|we|i've|i have)\s+)?(?:just\s+|finally\s+|officially\s+)?(?:took|got|landed|accepted|signed)\s+"
    r"(?:an?|the|my)\s+(?:new\s+)?(?:job|offer|position|role|gig)\s+(?:at|with|from)\s+"
    r"(?P<org>(?-i:[A-Z])[\w'’&.-]*(?:\s+(?-i:[A-Z])[\w'’&.-]*){0,3})",
    re.I,
)
_JOB_WORDS = re.compile(
    r"\b(?:promoted|made|bumped)\s+me\b|\b(?:job|position|role|gig|offer)\s+(?:at|with|from)\b", re.I
)
_PROMOTED = re.compile(r"\b(?:got|been|was|i'?m|just)\s+promoted\b|\bpromotion\b", re.I)
# "Analytics Manager now": a title in capitals, said alone
_TITLE_NOW = re.compile(
    r"(?:(?:i'?m|i am)\s+(?:an?\s+)?)?(?P<title>(?:(?-i:[A-Z])[\w&-]*\s+){0,3}(?-i:Manager|Lead|Director|"
    r"Supervisor|Partner|Head|Chief|Principal|Engineer|Analyst|Designer|Officer|Architect|VP|Associate|Specialist|"
    r"Editor))"
    r"\s+now\b",
    re.I,
)


@lru_cache(maxsize=64)
def _says_promoted(text: str) -> bool:
    """(Once per message, not once per clause.)"""
    return "promot" in text.lower() and _PROMOTED.search(text) is not None


def my_job(r: Reading, pos: int, end: int, confidence: float) -> bool:
    """The speaker's title said as what someone made them, or a title and an employer said of a job taken."""
    s = r.text
    if _says_promoted(s) and (m := _TITLE_NOW.match(s, pos, end)) is not None:
        add_fact(r, r.speaker, "job_title", m["title"], pos, end, confidence, True, "text", m.span("title"))
        return True
    if _JOB_WORDS.search(s, pos, end) is None:
        return False
    if (m := _PROMOTED_ME.match(s, pos, end)) is not None:
        add_fact(
            r, r.speaker, "job_title", m["title"].lower(), pos, end, confidence, True, "text", m.span("title")
        )
        return True
    if (m := _JOB_AT.match(s, pos, end)) is None:
        if (taken := _EMPLOYER_TAKEN.match(s, pos, end)) is None:
            return False
        org = taken["org"].rstrip(".")
        add_fact(r, r.speaker, "employer", org, pos, end, confidence, False, "organization",
                 (taken.start("org"), taken.start("org") + len(org)))  # fmt: skip
        return True
    add_fact(
        r, r.speaker, "job_title", m["title"].lower(), pos, end, confidence, False, "text", m.span("title")
    )
    add_fact(r, r.speaker, "employer", m["org"], pos, end, confidence, False, "organization", m.span("org"))
    return True
