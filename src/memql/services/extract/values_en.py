"""The English grammar's values: the words of a value cut from its clause, resolved when they are a time
or a number, and the draft fact made of them (with its start in time and the key it corrects)."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from memql.lang.time.numbers import EN_NUMBER_RE, parse_en_number, whole_number
from memql.lang.time.spans import TimeSpan

from .common import (
    RECURRING,
    WEEKLY,
    Draft,
    Reading,
    corrected_holder,
    last_said,
    strip_span,
    this_year_only,
    time_value,
)
from .patterns_en import _I, _OBJECT_PRONOUN, _PAST, _REJECTED, _VALUE_CUT, _VALUE_TAIL

_SUM = r"[$€£¥]?\d[\d,]*(?:\.\d+)?(?:\s?[kK])?"  # a sum as written: "$1,850", "17.99", "72k"
# a sum and its period before whom or how it is paid: "142/mo thru state farm", "$118 a month w them"
_SUM_PAID = re.compile(
    _SUM + r"(?:\s?/\s?(?:mo|month|yr|year|wk|week)\b|\s(?:a|per)\s(?:month|year|week)\b)?"
    r"(?=\s+(?:thru|through|with|w/?|from|via|at|to)\b)",
    re.I,
)
# an amount followed by other items' amounts: ", car 320, phone 60"
_LISTED_AMOUNT = re.compile(  # (or codes: "network is Nguyen_5G, password bluemoose88")
    rf"(?P<first>{_SUM}|[A-Za-z][\w#@!$%&*-]*\d[\w#@!$%&*-]*)\s*,\s*"
    r"(?:[A-Za-z][\w'-]*\s+){1,2}(?:[$€£¥]?\d|[A-Za-z][\w#@!$%&*-]*\d)"
)

_PLACE_AFTER = re.compile(r"\s*,?\s+(?:out of|from|at|in|to|into|via)\s+(?:the\s+)?(?-i:[A-Z])", _I)

_EVERY = re.compile(r"(?:every|each)\s+", _I)
_ON = re.compile(r"on\s+", _I)
# the words after a weekly time that open another clause: "Wednesdays at 5:30, she picked up …"
_AFTER_WEEKLY = re.compile(
    r"\s*(?:$|[,;.!?(]|\s(?:and|but|so|instead|now|starting|from|because|bc|since)\b)", _I
)


def recurs(r: Reading, start: int, end: int) -> bool:
    """Are the words of [start, end) a time that recurs: "every Saturday at 10am", "Tuesdays at 6"?"""
    start, end = strip_span(r.text, start, end)
    m = _EVERY.match(r.text, start, end)
    every = m is not None and r.time_at(m.end(), end) is not None
    return every or WEEKLY.fullmatch(r.text, start, end) is not None


def value_of(r: Reading, start: int, end: int, kind: str) -> tuple[object, int, int, str | None] | None:
    """(value, start, end, rejected words) of the words in [start, end): cut at a new clause, its time
    expression resolved when the value is one, a trailing time removed from a non-date value."""
    s = r.text
    start, end = strip_span(s, start, end)
    for t0, t1, _ in r.times_from(start - 4, start):  # "ends in three months": the preposition read with
        if start < t1 <= end and s[t0:start].strip().isalpha():  # the verb begins the time
            start = t0
    rejected = None
    if (m := _REJECTED.search(s, start, end)) is not None and m.start() > start:
        rejected, end = m["old"].strip(), m.start()
        old = r.time_at(m.start("old"), m.end("old"))
        rejected = time_value(old, r.now) if old is not None else rejected
    if (m := _VALUE_TAIL.search(s, start, end)) is not None and m.start() > start:
        start, end = strip_span(s, start, m.start())
    if (on := _ON.match(s, start, end)) is not None and WEEKLY.match(s, on.end(), end):
        start = on.end()  # "on Tuesdays at 6pm": the time is "Tuesdays at 6pm"
    if recurs(r, start, end):  # "every Saturday at 10am", "Saturdays at 3pm": a time that recurs is its words
        return s[start:end], start, end, rejected
    if (weekly := WEEKLY.match(s, start, end)) is not None and _AFTER_WEEKLY.match(s, weekly.end(), end):
        return s[start : weekly.end()], start, weekly.end(), rejected  # … and another clause after it
    span = r.time_at(start, end)
    place = _PLACE_AFTER.search(s, start, end) if span is None else None
    if place is not None and (span := r.time_at(start, place.start())) is not None:
        end = place.start()  # "Thursday the 12th, 7:40am out of O'Hare": where from is no part of the time
    cut = _VALUE_CUT.search(s, start, end) if span is None else None
    if cut is not None and cut.start() > start:
        # "in three months, so I need to decide soon": the time before a new clause is the value
        span = r.time_at(start, cut.start())
        end = cut.start() if span is not None else end
    if span is not None:
        return spoken_time(r, span, start, end), start, end, rejected
    if kind == "date":
        return None
    if cut is not None and cut.start() > start:
        end = cut.start()
    if (m := _LISTED_AMOUNT.match(s, start, end)) is not None:
        end = m.end("first")  # "rent is 1,850, car 320, phone 60": the first of a list of amounts
    elif (m := _SUM_PAID.match(s, start, end)) is not None:
        end = m.end()
    if kind in _NAMED and (m := _NEXT_CLAUSE.search(s, start, end)) is not None:
        end = m.start()  # "a Tesla Model 3 these days, sold the old one": a name ends at a lower-case clause
    for t0, t1, _ in reversed(r.times_in(start, end)):  # "Lisbon last month": the time is not the value
        said = last_said(s, t0, start, also=".-")
        if re.fullmatch(r"\d{4}", s[t0:t1]) and said >= start and s[said].isdecimal():
            continue  # "555 1962": a group of a number (a digit, then spaces . -), not a year after it
        if t0 > start and not s[t1:end].strip(" ,.!"):
            end = t0
            head = _TIME_HEAD.search(s[start:end])
            if head:
                end = start + head.start()
    if (m := _VALUE_TAIL.search(s, start, end)) is not None and m.start() > start:
        end = m.start()
    if kind == "organization" and (m := re.compile(r"\s+in\s+[A-Z]").search(s, start, end)) is not None:
        end = m.start()  # "works at Siemens in Munich": the employer, not where its office is
    start, end = strip_span(s, start, end)
    if (m := re.compile(r"(?:the|a|an)\s+", _I).match(s, start, end)) and kind in (
        "place",
        "organization",
        "product",
    ):
        start = m.end()
    if kind in _NAMED and (m := _DESCRIBED.match(s, start, end)) is not None:
        start = m.end()  # "a pharma startup called Veltro", "a retirement home in Tucson": the name
    elif (m := re.compile(r"at\s+(?=\d)", _I).match(s, start, end)) is not None:
        start = m.end()  # "dinner is at 7": the 7
    elif (m := re.compile(r"(?:a|an)\s+(?=\S)", _I).match(s, start, end)) and kind == "text":
        start = m.end()  # "a medium", "a large": the size, as an echo ("Medium, noted") would say it
    words = s[start:end]
    if not words or len(words.split()) > (6 if kind != "text" else 10) or _OBJECT_PRONOUN.fullmatch(words):
        return None
    if re.fullmatch(r"-?\d+", words):
        if kind in _NAMED:
            return None  # "standup moved to 10": a number is no place, organisation or person
        return whole_number(words), start, end, rejected
    if re.fullmatch(r"-?\d+\.\d+", words):
        return float(words), start, end, rejected
    if kind == "number" and _AMOUNT.fullmatch(words):
        return words, start, end, rejected  # "85k", "$1,450", "2.5m": an amount as said
    if kind == "number":  # "I turned it into a lesson" is no age
        return (
            (parse_en_number(words), start, end, rejected) if re.fullmatch(EN_NUMBER_RE, words, _I) else None
        )
    if kind == "product" and (m := _MODIFIED_NAME.fullmatch(words)) is not None:
        words, start = words[m.start("name") :], start + m.start("name")  # "a red Volvo": the Volvo
    if kind == "organization" and _DESCRIBED_ORG.fullmatch(words):
        return words, start, end, rejected  # "hired by a biotech startup": which one, a later line may say
    if kind == "organization" and re.fullmatch(ORG_NOUNS, words, _I) and _WORKS_AT.search(s, 0, start):
        return words, start, end, rejected  # "works at a bank" (not "is at the hospital": a patient)
    if kind in _NAMED and not words[:1].isupper() and not words[0].isdigit():
        return None  # a proper name is written capitalised: "joined a new group" names no employer
    if kind in _NAMED and (m := _NAME_THEN_CHATTER.match(words)) is not None:
        words, end = m["name"], start + m.end("name")  # "Northwind done", "Mazda CX-5 now, 41k miles"
    elif kind == "person" and (m := _PERSON_THEN_WORDS.match(words)) is not None:
        words, end = m["name"], start + m.end("name")  # "Sunita Mehta on the platform side"
    return words, start, end, rejected


_AMOUNT = re.compile(
    r"[$€£]?\d[\d,.]*\s*(?:k|m|bn|grand|[$€£]|usd|eur|gbp)?(?:\s+(?:a|per)\s+(?:month|year|week|hour))?", _I
)
_NAMED = ("place", "organization", "person", "product")
ORG_NOUNS = (
    r"startup|start-up|company|firm|bank|hospital|agency|nonprofit|non-profit|studio|lab|clinic|hotel|"
    r"factory|bakery|restaurant|cafe|café|consultancy|school|university|college|charity|publisher|magazine|"
    r"library|museum|pharmacy|store|grocery store|supermarket|warehouse|airport|gym|church|law firm|"
    r"newspaper|theater|theatre|salon|daycare|post office|dealership|call center|nursing home|vet clinic"
)
# a name's value ends at a clause after a comma: ", sold the old one", ", Austin wasn't for her" (not at
# "Portland, Oregon")
_NEXT_CLAUSE = re.compile(
    r",\s+(?=[a-z]|(?-i:[A-Z])[\w'-]*\s+(?:is|was|isn't|wasn't|are|were|has|had|does|did|didn't|doesn't|"
    r"will|won't|can|can't)\b)"
)
_TIME_HEAD = re.compile(r"\s+(?:in|on|at|since|from|last|this|as of|starting|beginning|effective)\s*$", _I)
_WORKS_AT = re.compile(r"\bwork(?:s|ed|ing)?\s+(?:at|for|in)\s+(?:a|an|the)\s+$", _I)
_DESCRIBED_ORG = re.compile(rf"(?:[a-z][\w-]*\s+){{1,2}}(?:{ORG_NOUNS})", _I)
# lower-case words that describe what a name names, before the name: "startup called Veltro"; for a
# place, "retirement home in Tucson" (where the home is is the place)
# (and "a credit union, Navy Federal": the name after a comma)
_DESCRIBED = re.compile(
    r"(?-i:[a-z][\w'-]*\s+){1,6}?(?:called|named|in|near|outside(?:\s+of)?)\s+(?=(?-i:[A-Z0-9]))|"
    r"(?-i:[a-z][\w'-]*)(?:\s+(?-i:[a-z][\w'-]*)){0,3},\s+(?=(?-i:[A-Z0-9]))"
)
# a name (capitalised words, joined by "of", "de", "&"…) and chatter after it: a word that
# never heads a noun phrase ("the Berlin office" is no name cut short)
_NAME_THEN_CHATTER = re.compile(
    r"(?P<name>(?-i:[A-Z0-9])[\w'&.-]*(?:\s+(?:(?:of|de|la|del|the|and|&|y)\s+)?(?-i:[A-Z0-9])[\w'&.-]*)*)"
    r"(?=\s+(?!(?:of|de|la|del|the|and|y)\s+(?-i:[A-Z0-9]))(?:done|now|again|already|finally|today|"
    r"tonight|tomorrow|yesterday|lol|haha|too|btw|yay|though|this|last|next|is|was|has|had|and|but|so|since|"
    r"because|for|with|which|where|who)\b)"
)
# a person's capitalised name, then lower-case words that are no part of it
_PERSON_THEN_WORDS = re.compile(
    r"(?P<name>(?-i:[A-Z])[\w'.-]*(?:\s+(?:(?:de|da|van|von|del|la|le|bin|al)\s+)?(?-i:[A-Z])[\w'.-]*)*)"
    r"(?=\s+(?-i:[a-z]))"
)
_MODIFIED_NAME = re.compile(
    r"(?:(?:new|old|used|little|big|small|[a-z]+ish|red|blue|green|black|white|grey|gray|"
    r"silver|yellow|orange|brown|dark|light|bright|shiny|electric|vintage)\s+){1,2}(?P<name>(?-i:[A-Z0-9]).*)"
)
# a bare clock time ("2:05", "8:05 pm", "the 7:45"): kept as said, since no day is named
_CLOCK = re.compile(r"(?:at\s+|the\s+)?\d{1,2}(?::\d{2})?\s*(?:[ap]\.?m\.?)?|noon|midnight", _I)
# "in two weeks", "in 3 days": a whole number of days from now names a day, not an instant
_DAYS_FROM_NOW = re.compile(r"(?:in|within)\s+(?:\w+\s+){0,2}?(?:days?|weeks?|fortnight|months?|years?)", _I)


def spoken_time(r: Reading, span, start: int, end: int) -> str:
    """A time value as a fact holds it: a clock time without a day stays as said ("8:05 pm"); a distance
    in days or more ("in two weeks") is the day it lands on; anything else as `time_value` gives it."""
    words = r.text[start:end].strip()
    if span.granularity in ("minute", "hour", "instant") and _CLOCK.fullmatch(words):
        return re.sub(r"^(?:at|the)\s+", "", words, flags=_I)
    if span.granularity == "instant" and _DAYS_FROM_NOW.fullmatch(words):
        return span.start.astimezone(r.now.tzinfo).date().isoformat()
    return time_value(span, r.now)


# a later time starts a fact only when the clause says something begins then ("he starts next week",
# "we're moving in May"); "book a table for four on Friday" holds from now, for a dinner on Friday
_BEGINS = re.compile(
    r"\b(?:start\w*|begin\w*|began|mov(?:e|es|ed|ing)|switch\w*|join\w*|relocat\w*|transferr?\w*|from|"
    r"as of|effective|takes? over|taking over|will|'ll|going to|gonna|kicks? in|goes live)\b",
    _I,
)


def valid_from(r: Reading, start: int, end: int, vstart: int, vend: int):
    """A time in the clause outside the value ("moved to Lisbon last month") starts the fact; else now.
    A time after now does only when the clause says something begins then (`_BEGINS`)."""
    first = min(start, r.clause_start)
    for t0, t1, span in r.times_in(first, end):
        if (t1 <= vstart or t0 >= vend) and not this_year_only(span, r.now):
            begin = span.start
            if begin > r.now and not _BEGINS.search(r.text, first, end):
                continue
            named = not re.search(r"\b(?:next|coming|following)\b", r.text[t0:t1], re.I)  # not "next month"
            if begin > r.now and span.granularity == "month" and named and _PAST.search(r.text, start, end):
                begin = begin.replace(year=begin.year - 1)  # "I started in January" said in March
            return begin
    return r.now


def _same_time(r: Reading, subject: str, key: str, value: object, start: int, end: int) -> object:
    """ "moved to the 17th, same time": a new day keeps the clock of the moment the key held."""
    if not (isinstance(value, str) and _DAY.fullmatch(value) and _SAME_TIME.search(r.text, start, end)):
        return value
    held = next((d for d in reversed(r.earlier) if (d.subject, d.attribute) == (subject, key)), None)
    clock = _CLOCK_OF.fullmatch(str(held.value)) if held is not None else None
    return value + clock[1] if clock else value


def at_hour(held: datetime, hour: int, minute: int, ampm: str | None) -> datetime:
    """The held moment's day at a new hour; one said without am/pm keeps the held one's half of the day
    ("moved to 4" of a 2 pm haircut is 4 pm)."""
    if ampm:
        hour = hour % 12 + (12 if ampm[0].lower() == "p" else 0)
    elif hour < 12 and held.hour >= 12:
        hour += 12
    return held.replace(hour=hour, minute=minute)


# "moved my haircut to 4 the same day", "to 4:30", "to 4pm": a bare clock for a key that holds a moment
_BARE_CLOCK = re.compile(
    r"(?P<h>\d{1,2})(?::(?P<m>[0-5]\d))?\s*(?P<ampm>[ap]\.?m\.?)?(?:\s+(?:the\s+)?same\s+day|\s+that\s+day)?",
    _I,
)


def _same_day(r: Reading, subject: str, key: str, value: object) -> object:
    """A new clock time, said bare, of a key that holds a moment: that moment's day at the new hour."""
    said = _BARE_CLOCK.fullmatch(str(value).strip()) if isinstance(value, int | str) else None
    if said is None or int(said["h"]) > 23 or isinstance(value, bool):
        return value
    held = next((d for d in reversed(r.earlier) if (d.subject, d.attribute) == (subject, key)), None)
    if held is None or _CLOCK_OF.fullmatch(str(held.value)) is None:
        return value
    return held_at_hour(r, str(held.value), int(said["h"]), int(said["m"] or 0), said["ampm"])


def held_at_hour(r: Reading, held: str, hour: int, minute: int, ampm: str | None) -> str:
    """A held moment (ISO UTC) on its day at a new hour (`at_hour`, in the message's zone), as a value."""
    old = datetime.strptime(held, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC).astimezone(r.now.tzinfo)
    moment = at_hour(old, hour, minute, ampm)
    return time_value(TimeSpan(moment, moment + timedelta(minutes=1), "minute"), r.now)


_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")
_CLOCK_OF = re.compile(r"\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}:\d{2}Z)")
_SAME_TIME = re.compile(r"\bsame (?:time|hour)\b|时间不变|时间照旧|还是那个时间", re.I)


def add_fact(r, subject, key, value, start, end, confidence, correction, kind, vspan, rejected=None) -> Draft:
    if correction:
        subject, key = corrected_holder(r, subject, key)
    held = any(d.subject == subject and d.attribute == key for d in r.earlier)  # that one, when held
    if (correction or key in r.vocabulary.aspects) and "." not in key and not held:  # "my deadline is …"
        for d in reversed(r.earlier):  # the passport's
            if d.subject == subject and d.attribute.endswith("." + key):
                key = d.attribute
                break
    if rejected and not correction:
        correction = any(d.attribute == key and str(d.value).lower() == rejected.lower() for d in r.earlier)
    value = _same_time(r, subject, key, value, start, end)
    if (moved := _same_day(r, subject, key, value)) is not value:
        value, kind = moved, "date"
    if kind == "text" and isinstance(value, str) and r.time_at(*vspan) is not None:
        kind = "date"
    elif kind == "text" and isinstance(value, str) and RECURRING.match(value):
        kind = "schedule"  # "every Saturday at 10am": a correction to "3pm" is of its time
    elif kind == "text" and isinstance(value, int | float) and not isinstance(value, bool):
        kind = "number"  # "dinner is at 8": a later "push it to 9" corrects a number
    elif (
        kind == "text"
        and isinstance(value, str)
        and re.fullmatch(r"[$€£]?\d{1,3}(?:,\d{3})+|[$€£]\d+", value)
    ):
        kind = "number"  # "my monthly budget is 2,000": an amount, which "make that 1,800" corrects
    return r.add(
        Draft(
            subject,
            key,
            value,
            start,
            end,
            valid_from(r, start, end, *vspan),
            confidence,
            correction,
            kind,
            vspan,
        )
    )
