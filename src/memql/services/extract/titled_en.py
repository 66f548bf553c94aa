"""Titled people one switches to: "Dr. Kline retired, so we switched to Dr. Osei", "so he's with Mr. Baker
now", "I'm getting handed over to prof lindqvist", "so I got Dr. Lindqvist" — the one of a title held as
someone's (a doctor, a teacher, an advisor) replaced by the one named."""

from __future__ import annotations

import re

from .common import Reading
from .patterns_en import _I, TITLED_NAME
from .values_en import add_fact

# "Dr. Kline retired, so we switched to Dr. Osei": a titled person held as someone's (a doctor, a teacher)
# is replaced by the one of the same title switched to
_SWITCHED_TO_TITLED = re.compile(
    r"(?:(?:i|we|she|he|they)(?:\s+|'m\s+|'s\s+)(?:have\s+|'ve\s+|just\s+|had\s+to\s+|finally\s+|getting\s+|"
    r"being\s+|got\s+|am\s+|is\s+|was\s+)*)?(?:(?:switched|changed|moved|went|switch|change|transferred|"
    r"handed|passed|reassigned)\s+(?:over\s+)?to|"
    # "so he's with Mr. Baker now", "we're seeing Dr. Osei now": the one one goes to now
    r"(?:(?:he's|she's|he is|she is|we're|we are|i'm|i am|they're)\s+(?:now\s+)?(?:with|seeing|going to)|"
    # "we see Dr. Chen now"
    r"(?:we|i|they)\s+(?:now\s+)?(?:see|go to)|(?:he|she)\s+(?:now\s+)?(?:sees|goes to))"
    r"(?=.*\bnow\b)|"
    # "so I got Dr. Lindqvist", "I was assigned Dr. Osei": a doctor one is given is one's doctor now
    r"(?:got|ended\s+up\s+with|(?:was|were|got|'ve\s+been|have\s+been)\s+assigned(?:\s+to)?)(?=\s+Dr\b))\s+"
    # ("… for my son": another's)
    r"(?P<name>(?-i:(?:Dr|Mr|Mrs|Ms|Miss|Prof)\.?\s+[A-Z][\w'-]+))(?![\w'-]|\s+for\s)",
    _I,
)


def switched_to_titled(r: Reading, pos: int, end: int) -> bool:
    m = _SWITCHED_TO_TITLED.match(r.text, pos, end)
    if m is None:
        return False
    # a titled name held ("Mrs. Ortiz" … "Mr. Baker": a teacher by another title); two: never a guess; "I'm
    # with Dr. Okafor now": the speaker's own, never the husband's
    mine = re.match(r"i\b", m[0], _I) is not None
    if (
        mine
        and m["name"].startswith("Dr")
        and not any(d.subject == r.speaker and TITLED_NAME.match(str(d.value)) for d in r.earlier)
    ):  # "dr patel retired, so I'm with Dr. Okafor now": the speaker's doctor, none held
        add_fact(r, r.speaker, "doctor", m["name"], pos, end, 0.8, True, "person", m.span("name"))
        return True
    return r.correct_the_one(
        lambda d: (
            d.speaker == r.speaker
            and TITLED_NAME.fullmatch(str(d.value)) is not None
            and (d.subject == r.speaker or not mine)
        ),
        m["name"],
        pos,
        end,
        m.span("name"),
    )
