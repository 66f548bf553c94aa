"""The English grammar's verb predicates: what follows a clause's subject ("lives in Lisbon", "joined
Meta", "is vegetarian", "is 34", "loves jazz", "has two kids") and the fact it states about that subject.
The subject itself is found by memql.services.extract.rules_en."""

from __future__ import annotations

import re

from memql.lang.time.numbers import parse_en_number

from .common import Reading
from .patterns_en import (
    _AGE,
    _ALLERGY,
    _BASE_VERB,
    _CHANGED_MY,
    _COUNT,
    _I,
    _JOB,
    _NEGATION,
    _PREDICATES,
    _PREFERENCE,
    _SENTIMENT,
    _STATUSES,
    _WH_OR_PRONOUN,
)
from .values_en import add_fact, value_of
from .vocabulary import snake

_AT_ORG = re.compile(r"\s+(?:at|for|with)\s+(?=(?-i:[A-Z]))", re.I)
_VAGUE = re.compile(r"an?|(?:a\s+)?(?:few|couple(?:\s+of)?|dozen)", re.I)  # "I have a few plans": no count


def predicate(r: Reading, subject: str, pos: int, at: int, end: int, confidence: float, correction: bool):
    s = r.text
    if (m := _CHANGED_MY.match(s, at, end)) is not None:  # "I changed my number to 555-0142"
        key = r.vocabulary.normalize(m["attr"])
        kind = r.vocabulary.kind(key)
        value = value_of(r, m.end(), end, kind) if key else None
        if value is not None:
            v, v0, v1, rejected = value
            add_fact(r, subject, key, v, pos, end, confidence, correction, kind, (v0, v1), rejected)
            return True
    for pattern, key, kind in _PREDICATES:
        m = pattern.match(s, at, end)
        if m is None:
            continue
        if key == "birth":
            span = r.time_at(m.end(), end)
            key, kind = ("birthday", "date") if span is not None else ("birthplace", "place")
        value = value_of(r, m.end(), end, kind)
        if value is None:
            return False
        v, v0, v1, rejected = value
        if key == "job_title" and (org := _AT_ORG.search(s, v0, v1)) is not None:
            # "I work as a backend engineer at Shopify": the title, and the employer after "at"
            got = value_of(r, org.end(), end, "organization")
            if got is not None:
                v1 = org.start()
                v = s[v0:v1]
                add_fact(
                    r,
                    subject,
                    "employer",
                    got[0],
                    pos,
                    end,
                    confidence,
                    correction,
                    "organization",
                    (got[1], got[2]),
                )
        add_fact(r, subject, key, v, pos, end, confidence, correction, kind, (v0, v1), rejected)
        return True
    if (m := _AGE.match(s, at, end)) is not None:
        n = parse_en_number(m["n"])
        add_fact(r, subject, "age", n, pos, end, confidence, correction, "number", (m.start("n"), m.end("n")))
        return True
    for pattern, key in _STATUSES:
        if (m := pattern.match(s, at, end)) is not None and not _NEGATION.search(s, at, m.start("value")):
            v = m["value"].lower()
            add_fact(
                r, subject, key, v, pos, end, confidence, correction, "text", (m.start("value"), m.end())
            )
            return True
    if (m := _ALLERGY.match(s, at, end)) is not None:
        got2 = value_of(r, m.end(), end, "text")
        if got2 is not None:
            add_fact(
                r,
                subject,
                "allergy." + snake(str(got2[0])),
                True,
                pos,
                end,
                confidence,
                correction,
                "text",
                (got2[1], got2[2]),
            )
            return True
    if (m := _JOB.match(s, at, end)) is not None and r.vocabulary.relation(m["title"] or m["bare"]) is None:
        title = "title" if m["title"] else "bare"
        add_fact(
            r,
            subject,
            "job_title",
            m[title],
            pos,
            end,
            confidence,
            correction,
            "text",
            (m.start(title), m.end(title)),
        )
        if m["org"]:
            org = value_of(r, m.start("org"), end, "organization")
            if org is not None:
                add_fact(
                    r,
                    subject,
                    "employer",
                    org[0],
                    pos,
                    end,
                    confidence,
                    correction,
                    "organization",
                    (org[1], org[2]),
                )
        return True
    if (m := _PREFERENCE.match(s, at, end)) is not None:
        if subject not in (r.speaker,) and _BASE_VERB.fullmatch(m["verb"]) and not m["neg"]:
            return False  # "Sounds like a blast", "Trips like these": a named subject takes "likes"
        return _preference(r, subject, m, pos, end, confidence)
    if (m := _COUNT.match(s, at, end)) is not None and not _VAGUE.fullmatch(m["n"]):
        n = parse_en_number(m["n"])
        add_fact(
            r,
            subject,
            r.vocabulary.normalize(m["x"]) + ".count",
            n,
            pos,
            end,
            confidence,
            correction,
            "number",
            (m.start("n"), m.end("n")),
        )
        return True
    return False


def _preference(r: Reading, subject: str, m: re.Match[str], pos: int, end: int, confidence: float) -> bool:
    verb = (m["verb"] + (" not" if m["neg"] else "")).lower()
    sentiment = next(value for word, value in _SENTIMENT if word in verb)
    if m["neg"] and sentiment in ("like", "love", "prefer"):
        sentiment = "dislike"
    s = r.text
    obj_start = m.end()
    if (t := re.compile(r"to\s+", _I).match(s, obj_start, end)) is not None:
        obj_start = t.end()
    if _WH_OR_PRONOUN.match(s, obj_start, end):
        return False
    if article := re.compile(r"(?:(?:a|an|the|some|all|both|most|many|any)\s+)+", _I).match(
        s, obj_start, end
    ):
        obj_start = article.end()  # "I love a dairy-free mousse": preference.dairy_free_mousse
    obj_end = end
    if c := re.compile(r"\s+(?:over|more than|rather than|to|than)\s+", _I).search(s, obj_start, end):
        obj_end = c.start() if sentiment == "prefer" else obj_end
    got = value_of(r, obj_start, obj_end, "text")
    if (
        got is None
        or len(str(got[0]).split()) > 4
        or str(got[0]).lower() in ("to", "so", "too", "much", "more")
    ):
        return False
    value, v0, v1, _ = got
    key = "preference." + snake(str(value))
    add_fact(r, subject, key, sentiment, pos, end, confidence, False, "text", (v0, v1))
    return True
