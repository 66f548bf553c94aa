"""The statuses one is in, said in English: married, vegan, retired, pregnant, in second grade, on nights --
with a copula ("I've gone vegan"), a verb ("Dad finally retired"), or alone ("so pescatarian I guess",
"yeah pescatarian", "been vegetarian 6 yrs"). A status is one value of its key at a time."""

from __future__ import annotations

import re

from .patterns_en import _ADVERBS, _I

_COPULA = (  # "I've gone vegan", "she turned vegetarian": a change of status is a status
    r"(?:am|'m|are|'re|is|'s|got|just got|have been|'ve been|has been|been|became|am now|'m now|is now|"
    r"have gone|'ve gone|has gone|'s gone|went|have turned|'ve turned|has turned|turned|have become|"
    r"'ve become|has become)"
)
STATUS_WORDS = (
    (r"married|engaged|single|divorced|separated|widowed|in a relationship", "marital_status"),
    (r"vegan|vegetarian|pescatarian|gluten[- ]free|keto|lactose[- ]intolerant", "diet"),
    (
        r"retired|unemployed|self[- ]employed|freelancer|freelancing|between jobs|out of work|"
        r"on (?:parental|maternity|paternity|sick) leave|a student",
        "employment_status",
    ),
    (r"pregnant", "pregnancy"),
)
_SAID_ALONE = "|".join(words for words, _ in STATUS_WORDS[:2])  # a marital status or a diet
_COPULA_STATUSES = tuple(
    (
        re.compile(_ADVERBS + _COPULA + r"\s+" + _ADVERBS + r"(?:an?\s+)?(?P<value>" + words + r")\b", _I),
        key,
    )
    for words, key in STATUS_WORDS
)
# "I started eating fish again, so pescatarian I guess": a status said alone after "so" is the speaker's;
# opening a clause ("yeah pescatarian i guess", the "yeah" read past), only with "now", "I guess" …
BARE_STATUS = re.compile(
    r"(?P<so>(?:so|yeah|yep|yup|yes|ya),?\s+)?(?:now\s+|officially\s+|basically\s+)?(?P<value>"
    + _SAID_ALONE
    + r")(?P<q>(?:\s+(?:now|again|i guess|i suppose|officially|technically|then))*)"
    r"(?:[\s.!]*$|\s*,(?!\s*\w+\s*$))",
    _I,
)
# "Dad finally retired last week": retiring is a status said with its verb alone
_VERB_STATUSES = (
    (
        re.compile(
            _ADVERBS + r"(?:has\s+|have\s+|'s\s+|'ve\s+)?(?P<value>retired)\b"
            r"(?!\s+(?:the|a|an|my|his|her)\b)",  # "retired the old van" (not "retired from the library")
            _I,
        ),
        "employment_status",
    ),
    (  # "Zaid is in second grade", "she started third grade today", "he's going into Year 5"
        re.compile(
            _ADVERBS + r"(?:am|'m|is|'s|are|'re|was|were|start(?:s|ed|ing)?|(?:is|'s)\s+starting|"
            r"mov(?:es|ed|ing)\s+up\s+to|(?:is|'s|are|'re)\s+going\s+into|going\s+into|went\s+into|"
            r"enter(?:s|ed)?|(?:is|'s)\s+now)\s+(?:in\s+)?(?:the\s+|an?\s+)?(?P<value>(?:first|second|third|fourth|"
            r"fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|\d{1,2}(?:st|nd|rd|th))[\s-]grader?|"
            r"grade\s+\d{1,2}|year\s+\d{1,2}|kindergarten|pre-?k|preschool)\b(?!\s+of\b)",
            _I,
        ),
        "grade",
    ),
    (  # "I got laid off today", "he was let go": no job held, whatever the employer was
        re.compile(
            _ADVERBS + r"(?:got|was|were|been|have been|'ve been|has been|'s been|just got)\s+"
            r"(?P<value>laid off|let go|fired|made redundant)\b",
            _I,
        ),
        "employment_status",
    ),
)
_SHIFT = (  # "works nights", "got moved to day shifts", "is on the graveyard shift": the shift as said
    re.compile(
        _ADVERBS + r"(?:work|works|working|am working|'m working|is working|'s working|are working|"
        r"'re working|am on|'m on|is on|'s on|are on|'re on|(?:got|was|were|have been|'ve been|has been|"
        r"'s been)\s+(?:moved|switched|put|transferred)\s+(?:back\s+)?(?:to|onto)|(?:moved|switched|"
        r"changed|went)\s+(?:back\s+)?to|start(?:s|ed|ing)?)\s+(?:the\s+)?(?P<value>nights|days|evenings|"
        r"overnights|(?:night|day|evening|morning|early|late|graveyard|swing|overnight)\s+shifts?)\b",
        _I,
    ),
    "shift",
)
STATUSES: tuple[tuple[re.Pattern[str], str], ...] = (*_COPULA_STATUSES, *_VERB_STATUSES, _SHIFT)

# "been vegetarian 6 yrs": a status held for a while, said without its subject
BEEN_STATUS = re.compile(
    r"been\s+(?P<value>" + _SAID_ALONE + r")\s+(?:for\s+)?"
    r"(?:\d+|a|an|a few|many|several|like \d+)\s+(?:yrs?|years?|months?)\b(?!\s+ago)",
    _I,
)
