"""The English grammar's dated events and bookings: "the movers come in two weeks", "I fly to Oslo the day
after tomorrow" (the day an event of the speaker's happens), "book the table for six people" (the size of a
booking). Each is keyed by the words that name it, so a later statement of the same event supersedes it."""

from __future__ import annotations

import re
from datetime import timedelta

from memql.lang.time.natural_en import MONTHS, WEEKDAYS
from memql.lang.time.numbers import EN_NUMBER_RE
from memql.lang.time.spans import TimeSpan

from .common import Reading, held_location, sentence_around, time_value
from .headcounts import headcount
from .patterns_en import _I, _NEGATION, NOT_NAMES
from .values_en import add_fact, spoken_time
from .vocabulary import snake

# "(I'd like to) book a table for six people", "reserve the room for two nights", "we need a car for 5 days"
_BOOKING = re.compile(
    r"(?:(?:please|can you|could you)\s+)?(?:(?:i|we)\s+(?:have\s+|'ve\s+)?)?(?:book|booked|reserve|reserved|"
    r"get|need|have|hold|make)\s+(?:us\s+|me\s+)?(?:a|an|the|our|my)\s+(?P<thing>[a-z]+(?:\s+[a-z]+)?)\s+"
    r"for\s+(?!an?\b)(?P<n>\d{1,18}|"
    + EN_NUMBER_RE
    + r")(?:\s+(?P<unit>people|persons|guests|adults|of us|nights|days|"
    r"weeks|hours|seats))?\b",
    _I,
)
_UNITS = {"persons": "people", "guests": "people", "adults": "people", "of us": "people", "seats": "people"}
# the words of an event before its time: "the movers come", "I fly to Oslo", "our lease starts"
_EVENT = re.compile(
    r"(?P<who>i|we|(?:my|our)\s+(?P<rel>[a-z]+),?\s+(?P<named>(?-i:[A-Z][a-z]+))|(?P<name>(?-i:[A-Z][a-z]+))|"
    r"(?:the|my|our)\s+(?P<thing>[a-z-]+(?:\s+(?!(?:is|are|was|were)\b)[a-z]+)?)"  # "my mother-in-law"
    r"(?:\s+(?:to|from|for|with)\s+(?-i:[A-Z])[\w-]*)?)"  # "my flight to Lisbon leaves …": the flight's
    r"(?:\s+|(?='))(?P<verb>(?:will|'ll|should|shall)\s+be\s+(?:ready|done|back|finished|available|delivered|home)|"
    r"(?:am\s+|'m\s+|are\s+|'re\s+|is\s+|'s\s+)?(?!(?:at|around|on|by|every|each|in)\s)[a-z]+)"
    r"(?:\s+(?P<particle>in|out|home|over|away)(?=\s+(?!(?:the|a)\b)))?"  # "Lina flies in next Wednesday"
    r"(?P<rest>(?:\s+(?:to|for|at|from|into|off|out|back|in|on)\s+(?:(?-i:[A-Z])[\w-]*|the\s+(?:new\s+)?[a-z]+)"
    r"(?:\s+(?-i:[A-Z])[\w-]*)?)?)(?:\s+(?:at|around|on))?\s+$",  # "on the 20th": the time has no "on"
    _I,
)
_CLOCK_ONLY = re.compile(r"(?:at\s+)?\d{1,2}(?::\d{2})?\s*(?:[ap]\.?m\.?)?|(?:at\s+)?(?:noon|midnight)", _I)
_FUNCTION = frozenset(
    {"for", "and", "the", "from", "into", "with", "until", "till", "off", "out", "back", "then"}
)
# verbs that do not name an event of their own ("I need …", "the weather is …")
_NOT_EVENTS = frozenset(
    [
        "am",
        "is",
        "are",
        "was",
        "were",
        "now",  # "the flight is now on the 22nd": no verb
        "still",
        "also",
        "be",
        "been",
        "have",
        "has",
        "had",
        "need",
        "needs",
        "want",
        "wants",
        "will",
        "would",
        "should",
        "must",
        "can",
        "could",
        "may",
        "might",
        "think",
        "know",
        "hope",
        "plan",
        "guess",
        "said",
        "says",
        "told",
        "do",
        "does",
        "did",
        "get",
        "got",
        "go",
        "goes",
        "going",
        "feel",
        "feels",
        "seem",
        "seems",
        "look",
        "looks",
    ]
)


def event(r: Reading, pos: int, end: int, confidence: float, correction: bool) -> bool:
    return (
        _marrying(r, pos, end, confidence, correction)
        or _booking(r, pos, end, confidence, correction)
        or _dated_event(r, pos, end, confidence, correction)
        or _appointment(r, pos, end, confidence, correction)
        or headcount(r, pos, end, confidence, correction)  # "expecting 14 people" (headcounts.py)
    )


# "We're getting married next June": the day of the speaker's wedding (moved as "the wedding")
_MARRYING = re.compile(
    r"(?:i'?m|i am|we'?re|we are)\s+(?:(?:now|finally|officially)\s+)?(?:getting married|tying the knot|"
    r"going to get married)\s+(?:on\s+|in\s+)?",
    _I,
)


def _marrying(r: Reading, pos: int, end: int, confidence: float, correction: bool) -> bool:
    if (m := _MARRYING.match(r.text, pos, end)) is None or (span := r.time_at(m.end(), end)) is None:
        return False
    t0, t1 = next((a, b) for a, b, t in r.times_in(m.end(), end) if t is span)
    add_fact(
        r,
        r.speaker,
        "wedding",
        spoken_time(r, span, t0, t1),
        pos,
        end,
        confidence,
        correction,
        "date",
        (t0, t1),
    )
    return True


# "Dentist appointment next Tuesday at 3pm", "I have a job interview on Friday": an appointment of the
# speaker's, named by a noun of one, at a time to come that ends the clause
_APPOINTMENT = re.compile(
    r"(?:(?:i|we)(?:\s+have got|\s+have|'ve got|'ve|\s+got)\s+)?(?:(?:a|an|my|our|the)\s+)?"
    r"(?P<thing>(?:[a-z-]+\s+){0,2}(?:appointment|appt|meeting|check-?up|interview|exam|lesson|surgery|"
    r"consultation|reservation|recital|game|match|concert|flight))\s+(?:is\s+|'s\s+)?(?:on\s+|at\s+|for\s+)?",
    _I,
)


# "my car is due for an oil change the Monday after next", "I'm booked for a haircut on Friday"
# ("booked the car service for March 10", "booked my car in for a service on the 10th": the thing booked)
_DUE_FOR = re.compile(
    r"(?:(?:(?:my|our|the)\s+[a-z]+\s+(?:is|'s)\s+|(?:i'm|i am|we're|we are)\s+)?"
    r"(?:due|booked|scheduled)\s+for\s+(?:a|an|its|his|her|the|my|our)\s+|"
    r"(?:(?:i|we)\s+(?:have\s+|'ve\s+)?)?(?:booked|scheduled)\s+"
    r"(?:(?:the|my|our)\s+[a-z]+\s+in\s+for\s+(?:a|an|its|the)\s+|(?:the|my|our|a|an)\s+))"
    r"(?P<thing>[a-z-]+(?:\s+(?!(?:on|at|for)\b)[a-z-]+)?)\s+(?:on\s+|at\s+|for\s+)?",
    _I,
)
_NEXT_PART = re.compile(r"\s*,\s+(?!(?:at|on|in|around|about)\b)", _I)
_EVERY_BEFORE = re.compile(r"\b(?:every|each)\s+$", _I)


def _appointment(r: Reading, pos: int, end: int, confidence: float, correction: bool) -> bool:
    for t0, t1, span in r.times_in(pos, end):
        rest = r.text[t1:end]
        if (rest.strip(" .!,") and not _NEXT_PART.match(rest)) or span.start < r.now:
            continue  # (the time ends the clause, or a part after a comma: "flight on march 19, leaves …")
        every = _EVERY_BEFORE.search(r.text, pos, t0)  # "piano lesson is every Saturday at 10": the words
        said = (r.text, pos, every.start() if every else t0)
        m = _APPOINTMENT.fullmatch(*said) or _DUE_FOR.fullmatch(*said)
        thing = m["thing"] if m is not None else ""
        if thing.lower().endswith("flight"):
            thing = "flight"  # "TAP flight on march 19": the flight, whichever airline
        key = r.vocabulary.normalize(thing) if thing else ""
        if not key or _NEGATION.search(r.text, pos, t0):
            return False
        v0 = every.start() if every else t0
        value = r.text[v0:t1] if every else spoken_time(r, span, t0, t1)
        kind = "schedule" if every else "date"
        add_fact(r, r.speaker, key, value, pos, end, confidence, correction, kind, (v0, t1))
        return True
    return False


def _booking(r: Reading, pos: int, end: int, confidence: float, correction: bool) -> bool:
    m = _BOOKING.match(r.text, pos, end)
    if m is None or _NEGATION.search(r.text, pos, m.start("n")):
        return False
    unit = (m["unit"] or "people").lower()
    key = f"{snake(m['thing'])}.{_UNITS.get(unit, unit)}"
    # the number as said ("six"), so a later "make it eight" and the message that said "six" read alike
    add_fact(r, r.speaker, key, m["n"].lower(), pos, end, confidence, correction, "number", m.span("n"))
    return True


def _dated_event(r: Reading, pos: int, end: int, confidence: float, correction: bool) -> bool:
    """An event of the speaker's (I/we, or the/my/our thing) whose time ends the clause and is still to
    come: its day is the value, its words (verb and where) the key — "fly_to_oslo", "movers_come"."""
    for t0, t1, span in r.times_in(pos, end):
        clock = _CLOCK_ONLY.fullmatch(r.text, t0, t1) is not None  # "leaves at 7:40 am": no day said
        if r.text[t1:end].strip(" .!,") or (span.start < r.now and not clock):
            continue
        m = _EVENT.fullmatch(r.text, pos, t0)
        if m is None:
            return _bare_event(r, pos, end, (t0, t1, span), confidence, correction)
        verb = _base(m["verb"].split()[-1].lower())
        words = (m["thing"] or "").lower().split()
        if verb in _NOT_EVENTS or verb.endswith("ed") or _NEGATION.search(r.text, pos, t0):
            return False
        if len(verb) < 3 or verb in _FUNCTION or any(w.endswith("ed") or w in _NOT_EVENTS for w in words):
            return False  # "my dad retired in January": a past verb read as a noun, "in" as a verb
        head, subject = m["thing"] or "", r.speaker
        named = m["named"] if m["named"] and r.vocabulary.relation(m["rel"].lower()) else m["name"]
        if (m["named"] and not named) or named in NOT_NAMES:
            return False
        verb = _ARRIVALS.get((verb, (m["particle"] or "").lower()), verb)
        if named and (kin := r.vocabulary.relation(named.lower())) is not None:
            subject = f"{r.speaker}'s {kin[0].replace('_', ' ')}"  # "Mom comes home on Monday"
        elif named:
            subject = named  # "my sister Lina flies in on Friday", "Lina lands at 6": Lina's arrival
        elif head and (relative := r.vocabulary.relation(head.split()[-1])) is not None:
            # "my sister flies to Lima on Tuesday": the sister's trip, never the speaker's
            subject, head = f"{r.speaker}'s {relative[0].replace('_', ' ')}", ""
        # "<what>.<verb>": the thing or the place, then the verb ("movers.come", "oslo.fly"), so a question
        # naming either ("when do the movers come?", "when is the Oslo trip?") finds it
        where = re.sub(r"^\s*\w+\s+(?:the\s+)?(?:new\s+)?", "", m["rest"] or "")
        what = snake(head or where)
        key = f"{what}.{snake(verb)}" if what else snake(verb)
        if not snake(verb):
            return False
        value = spoken_time(r, span, t0, t1)
        add_fact(r, subject, key, value, pos, end, confidence, correction, "date", (t0, t1))
        return True
    return False


# "Jury duty starts on March 12", "school ends in June": a thing of the speaker's named without an article
_BARE_EVENT = re.compile(
    r"(?P<thing>[a-z]+(?:\s+[a-z]+)?)\s+(?P<verb>starts|begins|ends|opens|closes|finishes)(?:\s+(?:on|at|in))?\s*",
    _I,
)


def _bare_event(r: Reading, pos: int, end: int, time, confidence: float, correction: bool) -> bool:
    t0, t1, span = time
    m = _BARE_EVENT.fullmatch(r.text, pos, t0)
    if m is None or any(w in _NOT_EVENTS or w in _FUNCTION for w in m["thing"].lower().split()):
        return False
    key = f"{snake(m['thing'])}.{_base(m['verb'].lower())}"
    add_fact(
        r, r.speaker, key, spoken_time(r, span, t0, t1), pos, end, confidence, correction, "date", (t0, t1)
    )
    return True


# one arrival or departure however it is said, so "flies in on Friday" and "arrives Sunday" are one key
_ARRIVALS = {
    ("fly", "in"): "arrive",
    ("come", "in"): "arrive",
    ("land", ""): "arrive",
    ("fly", "home"): "come_home",
    ("come", "home"): "come_home",
    ("fly", "out"): "leave",
    ("depart", ""): "leave",
}

# verbs whose -ing form drops an e (coming, leaving): the rest add -ing to the base (visiting, flying)
_E_DROPPED_WORDS = """
    come leave arrive move close graduate drive ride race dance bake hike make take give retire serve date
    skate dine change
"""
_E_DROPPED = frozenset(_E_DROPPED_WORDS.split())


def _base(verb: str) -> str:
    """The base form of a present-tense verb, so "she flies", "I fly" and "we're flying" name one event:
    flies -> fly, goes -> go, comes -> come, coming -> come, running -> run (-ss is left as it is)."""
    if verb.endswith("ing") and len(verb) > 5:
        stem = verb[:-3]
        if stem[-1] == stem[-2] and stem[-1] not in "lsf":
            return stem[:-1]  # running, getting
        return stem + "e" if stem + "e" in _E_DROPPED else stem
    if verb.endswith("ies") and len(verb) > 4:
        return verb[:-3] + "y"
    if re.search(r"(?:sh|ch|ss|x|o)es$", verb):
        return verb[:-2]
    if verb.endswith("s") and not verb.endswith("ss") and len(verb) > 3:
        return verb[:-1]
    return verb


# "we celebrated Grandpa's 90th birthday", "my 30th birthday was great": a birthday of that age (said of
# one that happened or is happening; one being planned is no age yet)
_NTH_BIRTHDAY = re.compile(
    r"(?:\b(?P<mine>my|our)|\b(?P<pronoun>his|her)|(?P<whose>\b(?:my|our)\s+[\w-]+|"
    r"\b(?-i:[A-Z])[\w-]*(?:\s+(?-i:[A-Z])[\w-]+)?)'s?)\s+(?:(?P<n>\d{1,3})(?:st|nd|rd|th)|sweet\s+(?P<sweet>1[56]))"
    r"(?:\s+(?:birthday|bday|b-day)\b|"
    # "celebrated Uncle Bob's 65th": his birthday ("our 10th anniversary" is none)
    r"(?P<alone>(?=\s*(?:[.!,?]|$)|\s+(?:on|last|yesterday|this|over|at|with|party|bash)\b)))",
    _I,
)
_PAST = re.compile(r"\b(?:had|celebrated|threw|was|were|did|went|hosted|marked)\b", _I)
_CELEBRATED = re.compile(r"\b(?:celebrated|threw|hosted|marked|had)\b", _I)
_PLANNED = re.compile(r"\b(?:will|'ll|going to|gonna|planning|plan to|next|upcoming|coming up)\b", _I)


def birthday_age(r: Reading, pos: int, end: int, confidence: float, subject_of) -> bool:
    """The age a birthday said with its ordinal gives its person; `subject_of(r, start, end)` resolves the
    owner's words as a clause subject ("my dad", "Grandpa", "Leo")."""
    m = _NTH_BIRTHDAY.search(r.text, pos, end)
    if m is None or _PLANNED.search(r.text, pos, end):
        return False
    past = _PAST.search(r.text, pos, end)
    if m["alone"] is not None and not (past and _CELEBRATED.search(r.text, pos, m.start())):
        return False  # "Bob's 65th" is a birthday only when celebrated ("my 3rd attempt" is none)
    if not past and any(span.start > r.now for _, _, span in r.times_in(pos, end)):
        return False  # "Mom's 50th birthday is on the 14th": not yet
    if m["mine"]:
        subject = r.speaker
    elif m["pronoun"]:
        subject = r.pronoun("m" if m["pronoun"].lower() == "his" else "f")
    else:
        got = subject_of(r, m.start("whose"), m.end("whose"))
        subject = got[0] if got is not None and got[1] == m.end("whose") else None
    if not subject:
        return False
    n = "n" if m["n"] else "sweet"  # "Ivy had her sweet 16 last weekend"
    add_fact(r, subject, "age", int(m[n]), pos, end, confidence, False, "number", m.span(n))
    return True


def time_is_my(r: Reading, pos: int, end: int, confidence: float) -> bool:
    """ "Today is my birthday", "Friday is our anniversary": the time is the attribute's value."""
    for t0, t1, span in r.times_from(pos, pos + 1):
        if t1 < end:
            m = re.compile(r"\s+(?:is|was|'s)\s+(?:my|our)\s+(?P<attr>[\w' -]{2,40}?)[\s.!]*$", _I).match(
                r.text, t1, end
            )
            key = r.vocabulary.normalize(m["attr"]) if m else ""
            if key:
                add_fact(
                    r, r.speaker, key, time_value(span, r.now), pos, end, confidence, False, "date", (t0, t1)
                )
                return True
    return False


# "(set for | on) June 14 at the lake house", "at the lake house on June 14": an event's day and place
_AT_PLACE = re.compile(r"\s+(?:at|in)\s+(?:the\s+|a\s+|an\s+)?(?P<place>[\w' -]{2,40}?)[\s.!]*", _I)
_PLACE_ON = re.compile(r"(?:at|in)\s+(?:the\s+|a\s+|an\s+)?(?P<place>[\w' -]{2,40}?)\s+(?:on\s+)?", _I)
_SET_FOR = re.compile(
    r"(?:(?:is\s+)?(?:set|scheduled|planned|booked|arranged|fixed|confirmed)\s+(?:for|on)\s+|on\s+)", _I
)


def day_and_place(
    r: Reading, subject: str, key: str, pos: int, vstart: int, end: int, confidence, correction
):
    """ "Our wedding is (set for) June 14 at the lake house": the event's day under `key` and its place
    under `key`.location, when the value is a time still to come and a place not named by a name, in
    either order."""
    s, at = r.text, vstart
    if (lead := _SET_FOR.match(s, at, end)) is not None:
        at = lead.end()
    found = None
    for t0, t1, span in r.times_in(at, end):
        if span.start < r.now:
            continue
        if (t0 == at and (m := _AT_PLACE.fullmatch(s, t1, end)) is not None) or (
            (m := _PLACE_ON.fullmatch(s, at, t0)) is not None and not s[t1:end].strip(" .!")
        ):
            found = (t0, t1, span, m)
        if found is not None:
            break
    if found is None or r.times_in(found[3].start("place"), found[3].end("place")):
        return False
    place = found[3]
    said = s[place.start() : place.start("place")].casefold().split()
    if place["place"][:1].isupper() and "the" not in said and "in" not in said:
        # "at Priya's on Saturday": a named place is the event's value (rules_en._possessive); "at the
        # Rosewood" and "in Napa" (a town) are where it is
        return False
    t0, t1, span, m = found
    add_fact(
        r, subject, key, spoken_time(r, span, t0, t1), pos, end, confidence, correction, "date", (t0, t1)
    )
    place = m.span("place")
    add_fact(
        r,
        subject,
        f"{key}.location",
        s[place[0] : place[1]],
        pos,
        end,
        confidence,
        correction,
        "place",
        place,
    )
    return True


# "venue update: we're doing it at the botanical garden instead", "location change — it's at Nopa now": a new
# place for the one event whose place the speaker holds
_NEW_PLACE = re.compile(
    r"(?:(?:venue|location|place|spot)\s+(?:update|change)\b|.*\b(?:instead|moved|moving|changed|switched)\b)"
    r".*?\b(?:at|to)\s+(?:the\s+|a\s+|an\s+)?(?P<place>[\w' -]{2,40}?)(?:\s+(?:instead|now))?"
    # "… because the venue …", "…, it's bigger": why, after the place
    r"(?:,?\s+(?:because|since|as|'cause|cause|due to|after)\b.*|,\s+(?:it's|it is|they're|that's)\b.*)?"
    r"[\s.!]*$",
    _I,
)


# a month, a day or a season is when, even where the time grammar reads no date ("to September")
_WHEN_WORD = re.compile(
    r"(?:"
    + "|".join((*MONTHS, *WEEKDAYS))
    + r"|spring|summer|fall|autumn|winter|next|later|tomorrow|tonight|"
    r"the weekend|the \d)\b",
    _I,
)


def new_place(r: Reading, pos: int, end: int) -> bool:
    m = _NEW_PLACE.match(r.text, pos, end)
    if m is None or r.times_in(m.start("place"), m.end("place")) or _WHEN_WORD.match(m["place"]):
        return False
    old = held_location(r, r.text[pos : m.start("place")])
    if old is None or any(d.attribute.endswith(".location") for d in r.facts):
        return False
    value = r.text[m.start("place") : m.end("place")]
    if value.casefold() == str(old.value).casefold():
        return False
    add_fact(r, old.subject, old.attribute, value, pos, end, 0.8, True, "place", m.span("place"))
    return True


# "Thursday at 3", "tomorrow at 10:30": an hour after a day, said without am/pm
_AT_HOUR = re.compile(r"\s+at\s+(?P<h>\d{1,2})(?::(?P<m>[0-5]\d))?\b(?!\s*(?:[ap]\.?m\b|%|[.,]\d|\w))", _I)


_MORNING_CLOCK = re.compile(r"(?<!\d)(?:0?[7-9]|1[01]):[0-5]\d")
# 1:00 to 5:59 said without am/pm is in the afternoon ("dentist is friday at 3:15"), but for what people do
# before dawn
_AFTERNOON_CLOCK = re.compile(r"(?<!\d)0?[1-5]:[0-5]\d")
_BEFORE_DAWN = re.compile(
    r"\b(?:morning|wake|woke|alarm|flight|fly|flying|train|bus|shift|early|sunrise|run)\w*", _I
)
_AM_PM = re.compile(r"\s*[ap]\.?m\b", _I)
_HALF_DAY = timedelta(hours=12)
# what people do in the evening: "dinner is saturday at 7" is at 7 pm
_EVENING = re.compile(
    r"\b(?:dinner|supper|drinks|party|bbq|barbecue|concert|gig|show|movie|film|theat(?:er|re)|karaoke|"
    r"bar|pub|happy hour|trivia|poker|book club|game night|date night|prom|gala|banquet|reception)s?\b",
    _I,
)


def clock_after_day(r: Reading) -> None:
    """A day followed by "at <hour>" is that day at that hour: 7 to 11 in the morning (in the evening when
    the message speaks of what people do then: a dinner, a party, a show), 1 to 6 in the afternoon or
    evening (when people meet, not when they sleep), 12 to 23 as written. Once per message (rules.py):
    read again for each clause, "7:30" after a dinner would move by twelve hours more each time."""
    evenings: dict[tuple[int, int], bool] = {}  # per sentence: a message of many times has one sentence
    for i, (t0, t1, span) in enumerate(r.times):
        sentence = sentence_around(r.text, t0, t1)
        if (evening := evenings.get(sentence)) is None:
            evening = evenings[sentence] = _EVENING.search(r.text, *sentence) is not None
        if span.granularity == "minute" and (
            (evening and (said := _MORNING_CLOCK.search(r.text, t0, t1)))
            or (
                (said := _AFTERNOON_CLOCK.search(r.text, t0, t1))
                and span.start.astimezone(r.now.tzinfo).hour < 6
                and not _BEFORE_DAWN.search(r.text, *sentence)
            )
        ):
            # "the party is saturday at 8:30", "dentist friday at 3:15": an hour written without pm
            if said.end() == t1 and not _AM_PM.match(r.text, t1):
                r.retime(i, t1, TimeSpan(span.start + _HALF_DAY, span.end + _HALF_DAY, "minute"))
            continue
        # "tonight at 8": a part of a day (an hour span longer than an hour) takes the hour in its half
        part = span.granularity == "hour" and span.end - span.start > timedelta(hours=1)
        if not (span.granularity == "day" or part) or (m := _AT_HOUR.match(r.text, t1)) is None:
            continue
        hour, minute = int(m["h"]), int(m["m"] or 0)
        if hour > 23 or hour == 0:
            continue
        if part:
            hour = hour + 12 if hour < 12 and span.start.astimezone(r.now.tzinfo).hour >= 12 else hour
        else:
            hour = hour + 12 if hour < 7 or (evening and hour < 12) else hour
        local = span.start.astimezone(r.now.tzinfo).replace(hour=hour, minute=minute)
        r.retime(i, m.end(), TimeSpan(local, local + timedelta(minutes=1), "minute"))


# "my advisor wants a full draft by march 20", "he wants the full draft april 6 instead", "the landlord
# needs the form back by Friday": a thing someone wants of the speaker, due then (the speaker's, by its name)
_WANTED_BY = re.compile(
    r"(?:[\w.' -]{1,40}?\s+)?(?:wants|needs|expects|asked for|wanted|needed)\s+(?:a|an|the|my|our)\s+"
    r"(?=[a-z])",
    _I,
)
_THING_DUE = re.compile(
    r"(?P<thing>(?:[a-z-]+\s+){0,2}?[a-z-]+)\s+(?:(?:back|done|in|submitted|finished)\s+)?"
    r"(?:(?:by|before|on)\s+)?",
    _I,
)


def wanted_by(r: Reading, pos: int, end: int, confidence: float, correction: bool) -> bool:
    """The day a thing someone wants of the speaker is due (see `_WANTED_BY`): key "<thing> deadline"."""
    m = _WANTED_BY.match(r.text, pos, end)
    if m is None or _NEGATION.search(r.text, pos, m.end()):
        return False
    for t0, t1, span in r.times_in(m.end(), end):
        due = _THING_DUE.fullmatch(r.text, m.end(), t0)  # the time follows the thing at once
        if due is None or due["thing"].lower() in ("day", "week", "time", "month"):
            continue
        key = r.vocabulary.normalize(due["thing"] + " deadline")
        correction = correction or re.search(r"\binstead\b", r.text[t1:end], _I) is not None
        value = spoken_time(r, span, t0, t1)
        add_fact(r, r.speaker, key, value, pos, end, confidence, correction, "date", (t0, t1))
        return True
    return False
