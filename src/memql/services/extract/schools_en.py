"""The school one goes to, by the word that names it as one (services/extract: predicates_en calls it)."""

from __future__ import annotations

import re

from .common import Reading
from .patterns_en import _ADVERBS
from .values_en import add_fact

# "my son goes to Riverside Primary now", "im at pine valley community college", "I GOT INTO PORTLAND
# STATE": a school by the word that names it as one, in any case; after a verb only schools take ("got
# into", "enrolled at", "a junior at"), an acronym too ("got into UCLA")
_SCHOOL_ONLY_VERB = (
    r"got\s+(?:accepted\s+)?(?:in)?to|(?:was|got|been|am|'m)\s+accepted\s+(?:in)?to|accepted\s+(?:in)?to|"
    r"admitted\s+to|enrolled\s+(?:at|in)|stud(?:y|ies|ying)\s+at|(?:am|'m|is|'s)\s+(?:a|an)\s+(?:freshman|"
    r"sophomore|junior|senior|student|grad student|transfer student|transfer)\s+at|transferr?(?:ed|ing)\s+to"
)
_NAME_WORD = r"(?!(?:at|in|on|of|for|to|with|from|and|but|grade|kindergarten|year)\b)[A-Za-z][\w'-]*"
_SCHOOL_NAME = (
    r"(?!(?:the|a|an|my|his|her|our|their|local|same|new|this|that|high|middle|grad|law|med|medical|nursing|"
    r"elementary|summer|night|art|boarding|public|private|a\s+new)\b)"
    r"(?:" + _NAME_WORD + r"\s+){1,4}?(?:School|Primary|High|Academy|Community College|College|"
    r"University|Elementary|Kindergarten|Nursery|Preschool|Middle School|High School|Middle|Prep|Montessori|"
    r"State|Tech|Institute|Polytechnic)"
)
_SCHOOL_TO = re.compile(
    _ADVERBS + r"(?:(?:(?:go|goes|is going|'s going|moved|switched|changed schools)\s+to|"
    # "he's at Lincoln Elementary"
    r"(?:is|'s|are|'re|am|'m)\s+(?:now\s+)?(?:at|in)|attends|(?:is|'s|am|'m)\s+attending|"
    r"(?:started|starts|is starting|'s starting|am starting|'m starting)(?:\s+(?:at|in))?)\s+"
    r"(?P<value>"
    + _SCHOOL_NAME
    + r")|(?:"
    + _SCHOOL_ONLY_VERB
    + r")\s+(?P<only>"
    + _SCHOOL_NAME
    + r"|(?-i:[A-Z]{2,5})))\b(?![\w-])",
    re.I,
)


def goes_to_school(
    r: Reading, subject: str, pos: int, at: int, end: int, confidence: float, correction: bool
):
    """The school the words from `at` say the subject goes to (see `_SCHOOL_TO`); whether they did."""
    m = _SCHOOL_TO.match(r.text, at, end)
    if m is None:
        return False
    named = "value" if m["value"] else "only"
    add_fact(r, subject, "school", m[named], pos, end, confidence, correction, "organization", m.span(named))
    return True
