"""The English grammar's values said without their attribute: a correction ("correction: it's June 30",
"actually, Porto", "make it eight"), a change of "it" ("the airline moved it to 8:05 pm"), and a value
after a clause that names its attribute ("the landlord raised the rent, it's 1,620 a month"). Each is
bound to the earlier fact it changes, or to the attribute its clause names; never bound, no fact."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from memql.lang.time.numbers import EN_NUMBER_RE
from memql.lang.time.spans import TimeSpan

from .common import BOUND, Draft, Reading, latest_held, strip_span, time_value
from .events_en import new_place
from .headcounts import changed_count
from .no_longer_en import no_longer
from .patterns_en import _A_CHANGE_VERB, _BARE, _I, _JUDGEMENT, CHANGING
from .raises import with_number
from .renewals import renewed_for_en
from .subjects_en import object_person
from .titled_en import switched_to_titled
from .values_en import add_fact, at_hour, spoken_time, value_of
from .vocabulary import snake

# "they moved it to Friday", "pushed that back to 3": a change of the thing just spoken of
_COMMA = re.compile(r"[,;:]\s*")
_MOVED_IT = re.compile(
    r"(?:(?:[\w']+\s+){0,3}?(?:has\s+|have\s+|'ve\s+|just\s+)?)?(?:moved|pushed|changed|rescheduled|bumped|"
    r"extended|renewed|delayed|negotiated|talked|got|brought|"
    r"postponed|brought|shifted|switched|put|move|push|change|bump|shift|switch)\s+"
    r"(?:it|that|this|the time)\s+"
    r"(?:(?:back|forward|up|off|down)\s+){0,2}(?:to|until|till)\s+|"  # "negotiated it back down to"
    # "airline cancelled, rebooked for the 24th", "got rescheduled to Monday": no "it" said
    r"(?:(?:he|she|they|we|i)\s+)?(?:(?:got|been|was|were|just|have|has|'ve)\s+)*(?:rebooked|re-booked|rescheduled|"
    r"postponed)\s+"  # "He rescheduled to Wednesday afternoon": the one coming moved it
    r"(?:(?:me|us|it|that|him|her|them)\s+)?(?:for|to|until|till)\s+|"
    # "he can't make it till Thursday", "she can only come on Friday": the one coming names the new day
    r"(?:he|she|they|we|i)\s+(?:can'?t|cannot|can not|won'?t be able to|isn'?t able to|aren'?t able to)\s+"
    r"(?:make it|come(?:\s+(?:by|in|over|out))?|do it|be here|be there|get here|get there|get to it)\s+"
    r"(?:till|until|before)\s+|"
    r"(?:he|she|they|we|i)\s+can\s+only\s+(?:make it|come(?:\s+(?:by|in|over|out))?|do it)\s+(?:on\s+)?",
    _I,
)
# "they changed the gate to C4", "the clinic moved the appointment to 10": someone else changed a value
_CHANGED_THE = re.compile(
    r"(?:[\w']+\s+){0,3}?(?:(?:have\s+|has\s+|'ve\s+|just\s+)?(?:changed|moved|pushed|switched|updated|"
    r"bumped|rescheduled|postponed|change|move|push|switch|bump|reschedule|postpone|hiked|raised|increased|"
    r"lowered|reduced|cut|dropped|extended|extend)|"
    + CHANGING
    + r")\s+(?P<article>(?:the|my|our|his|her)\s+)?"
    r"(?P<attr>[\w-]+(?:\s+(?!(?:up|back|down|forward)\b)[\w-]+)?)\s+(?:back\s+|up\s+|down\s+|forward\s+)?"
    r"(?:to|until)\s+",  # "OB moved her due date up to May 28": the one "her" stands for
    _I,
)
# "… raised the rent, it's 1,620": the attribute the words before "it's" name
_NAMED_BEFORE = re.compile(r"\b(?:the|my|our)\s+(?P<attr>[\w-]+(?:\s+[\w-]+)?)\s*$", _I)


_LEAD = re.compile(
    r"[,:]\s*(?=(?:it'?s|it is|that'?s|make it|it should be|now(?=\s+\w+\s+\d)|"
    r"(?:we|i)(?:'ve)?\s+(?:booked|reserved|chose|picked|went with)|"
    # "plateau finally broke, 86.5 this morning": a weigh-in after a comma
    r"\d{2,3}(?:\.\d)?(?:\s*(?:lbs?|pounds|kg|kilos))?\s+(?:this morning|today|on the scale))\b)"
)
_AND = re.compile(r"\band\s+")


def bare_value(r: Reading, pos: int, end: int, correction: bool, about: str | None) -> None:
    """ "correction: it's June 30", "actually, Porto", "it's June 30, not July 15": a value without its
    attribute, bound to the earlier fact it corrects (never bound: no fact). Words before a comma that
    leads to "it's"/"make it" are filler: "actually no, I checked the card, it's March 24"."""
    leads = [pos] + [c.end() for c in _LEAD.finditer(r.text, pos, end)]
    # "negotiated it back down to 1,490", "talked them down to 1,400": the number moved to, wherever said
    moved_to = (pos + x.start() for x in _DOWN_OR_UP_TO.finditer(r.text[pos:end]) if x.start() > 0)
    if any(_changed_measure(r, at, end) for at in (*leads, *moved_to)) or changed_count(r, pos, end):
        return
    if _switched_held(r, pos, end, correction) or no_longer(r, pos, end) or switched_to_titled(r, pos, end):
        return
    if _found_new(r, pos, end) or _renewed(r, pos, end) or renewed_for_en(r, pos, end):
        return
    if new_place(r, pos, end) or _one_more(r, pos, end):  # "venue update: …", "adopted a third cat"
        return
    if correction and _clock_correction(r, pos, end):
        return
    # "they moved it to the 21st", also after what led to it ("Clinic called, they need to move it to …")
    moved = (
        _MOVED_IT.match(r.text, at, end)
        for at in [pos, *(c.end() for c in _COMMA.finditer(r.text, pos, end))]
    )
    if (m := next((m for m in moved if m is not None), None)) is not None:
        if not _moved_to_weekday(r, m.end(), end):
            _bare_at(r, m.end(), end, True, about, change=True)
        return
    # "cut the budget to 25k", "we sat down and cut the budget to 25k": at the start or after "and"
    ands = (a.end() for a in _AND.finditer(r.text, pos + 1, end))
    for at in (pos, *(ands if _A_CHANGE_VERB.search(r.text, pos, end) else ())):
        if (m := _CHANGED_THE.match(r.text, at, end)) is not None and _changed_the(r, m, pos, end):
            return
    for lead in reversed(leads):
        # "got an earlier slot, it's next Monday now": a day to come said to hold now is a change of one
        now = _NOW_ON.match(r.text, lead, end) or _NOW_BEFORE.search(r.text, r.clause_start, lead)
        moved = not correction and now is not None and _to_come(r, lead, end)
        if _bare_at(r, lead, end, correction or moved, about, change=moved):
            return
        if lead > pos and not correction and _named_before(r, pos, lead, end):
            return


# "it's next Monday now", "now the 16th", "july 15 now"
_NOW_ON = re.compile(
    r"(?:(?:it'?s|it is)\s+(?:now\s+)?|now\s+|(?=[^,;]+?\s+now[\s.!]*$))[^,;]+?(?:\s+now)?[\s.!]*$", _I
)


_NOW_BEFORE = re.compile(r"\bnow[\s,]*$", _I)  # "Ugh, now July 9": the "now" read as a discourse word


def _to_come(r: Reading, pos: int, end: int) -> bool:
    """The words say "now" of a day after today, and the speaker holds a day to come ("it's next Monday
    now" after an appointment in three weeks; not "it's Friday now", today)."""
    if not re.search(r"\bnow\b", r.text[min(pos, r.clause_start) : end], _I):  # "And now it's the 16th"
        return False
    said = [span for _, _, span in r.times_in(pos, end)]
    if len(said) != 1 or said[0].start <= r.now:
        return False  # (before the recent turns are read for what is held)
    now = r.now.isoformat()
    return any(d.speaker == r.speaker and d.kind == "date" and str(d.value) > now for d in r.earlier)


def _named_before(r: Reading, pos: int, lead: int, end: int) -> bool:
    """ "Landlord raised the rent, it's 1,620 a month": "it" is the attribute the clause before names,
    when the speaker already holds it or the vocabulary knows it (not "saw the dentist, it's fine")."""
    m = _NAMED_BEFORE.search(r.text, pos, r.text.rfind(",", pos, lead))
    if m is None or not re.match(r"\s*(?:it'?s|it is)\s", r.text[lead:end], _I):
        return False
    key = r.vocabulary.normalize(m["attr"])
    held = any(d.subject == r.speaker and d.attribute == key for d in r.earlier)
    if not key or not (held or r.vocabulary.attribute(key) is not None or "." in key):
        return False
    b = _BARE.match(r.text, lead, end)
    kind = r.vocabulary.kind(key)
    got = value_of(r, b.start("value"), end, kind) if b is not None else None
    if got is None or (not re.match(r"[\d$€£]", r.text[got[1] : got[2]]) and kind == "text"):
        return False  # a new value of an attribute that is not a name is a number or an amount
    value, v0, v1, rejected = got
    add_fact(r, r.speaker, key, value, pos, end, 0.8, False, kind, (v0, v1), rejected)
    return True


def _bare_at(r: Reading, pos: int, end: int, correction: bool, about: str | None, change=False) -> bool:
    m = _BARE.match(r.text, pos, end)
    if m is None:
        return False
    led = m.start("value") > m.start()  # "it's tree nuts": a value said as the value of "it"
    got = value_of(r, m.start("value"), end, "text")
    if got is None:
        return False
    value, v0, v1, rejected = got
    if not correction and rejected is None:
        return False
    if len(r.text[v0:v1].split()) > 5:
        return False
    words = r.text[v0:v1]
    numeric = (
        isinstance(value, int | float)
        or re.fullmatch(EN_NUMBER_RE, words, _I) is not None
        or re.fullmatch(r"[$€£]?\d[\d,.]*\s*(?:k|m|[$€£])?", words, _I) is not None  # "make that 1,800"
    )
    kind = "date" if r.time_at(v0, v1) is not None else "number" if numeric else "text"
    if kind == "date" and re.fullmatch(r"\d{4}", words) and r.bind("number", about or m["attr"], rejected):
        kind = "number"  # "it's 1692" after "my gate code is 1962": a code, not a year
    if change and kind == "text":
        return False  # "they moved it to the back room": a change of "it" binds a time or a number
    if _JUDGEMENT.fullmatch(words):
        return False  # "wait, that's wrong": a judgement of the old value, never a new one
    if re.match(r"(?:i|i'm|i've|we|you|he|she|it|they)\b", words, _I) or _A_CLAUSE.search(words):
        return False  # "oops, I forgot", "Marlow's is closed that night": a clause, not a value
    if kind == "text" and not (about or m["attr"] or rejected or led) and not words[:1].isupper():
        return (
            False  # "oops, I forgot": a bare correction to words is a name ("actually, Porto"), else nothing
        )
    earlier = r.bind(kind, about or m["attr"], rejected, value)
    if earlier is None or (
        not correction
        and not any(str(d.value).lower() == rejected.lower() for d in r.earlier if d is earlier)
    ):
        return False
    r.correct(earlier, value, pos, end, (v0, v1))
    return True


def _changed_the(r: Reading, m: re.Match[str], pos: int, end: int) -> bool:
    """A value the speaker holds (or the vocabulary knows) changed by someone: the speaker's new value."""
    key = r.vocabulary.normalize(m["attr"])
    article = (m["article"] or "").strip().lower()
    whose = object_person(r, article) if article in ("his", "her") else r.speaker
    if whose is None:
        return False

    def names_key(d: Draft) -> bool:
        return (
            d.attribute == key
            or d.attribute.endswith(("." + key, "_" + key))  # "the membership": the gym membership
            or d.attribute.startswith(key + ".")
            # "registration": soccer_registration.deadline
            or d.attribute.split(".", 1)[0].endswith("_" + key)
        )

    held = [d for d in reversed(r.earlier) if d.subject == whose and names_key(d)]
    # "moved the recital up to 5:30": the daughter's, the one held; "cut the budget to 25k" after another
    # speaker's "our budget is 30k": theirs
    for others in (lambda d: d.subject.startswith(r.speaker + "'s "), lambda d: d.subject in r.speakers):
        found = [d for d in reversed(r.earlier) if others(d) and names_key(d)]
        if not held and article in ("", "the", "our") and len({d.subject for d in found}) == 1:
            held, whose = found, found[0].subject
    if not key or not (held or (m["article"] and r.vocabulary.attribute(key) is not None)):
        return False  # "moved standup to 10": a bare noun names only a thing held
    # "moved the wedding to June 27" after its day and its place: the day, by the value's kind
    timed = any(t0 <= m.end() + 4 and t0 >= m.end() for t0, _, _ in r.times_in(m.end(), end))
    held = sorted(held, key=lambda d: (d.kind == "date") != timed)  # (stable: the latest first)
    key = held[0].attribute if held else key
    kind = held[0].kind if held else r.vocabulary.kind(key)
    got = value_of(r, m.end(), end, kind if kind != "text" else "text")
    if got is None and held and _SAID_CLOCK.fullmatch(str(held[0].value)):
        v0, v1 = strip_span(r.text, m.end(), end, " .!")  # "moved standup to 10" of a clock kept as said
        got = (r.text[v0:v1], v0, v1, None) if _SAID_CLOCK.fullmatch(r.text[v0:v1]) else None
    if got is None:
        return False
    value, v0, v1, rejected = got
    value = in_held_form(held[0].value, value) if held else value  # "raised rent to $1,950": a month's
    add_fact(r, whose, key, value, pos, end, 0.8, bool(held), kind, (v0, v1), rejected)
    return True


# "down to 79 kg this month", "up to 12 km now", "now 80 kg": a new number in the unit of a held one
_MEASURE_CHANGE = re.compile(
    r"(?:(?:i'?m|i am|we'?re|it'?s|it is|(?:i|we|it)\s+(?:got|went|came|dropped|climbed))\s+|"
    # "internet bill went up to $80": the attribute named before the verb
    r"(?:(?:the|my|our)\s+)?(?P<attr>[a-z][\w-]*(?:\s+[a-z][\w-]*){0,2}?)\s+(?:has\s+|'s\s+|just\s+)?"
    r"(?:went|gone|is|'s|got|dropped|rose|fell|climbed|came|jumped|increased|decreased|was raised|"
    r"was cut)\s+)?"
    r"(?:now\s+)?(?:(?:back\s+)?(?:down|up|back)\s+to|hit|reached|touched)\s+(?:about\s+|around\s+)?"
    r"(?P<value>(?P<cur>[$€£])?\d(?:[\d,.]*\d)?(?![:\d])\s*"
    r"(?P<unit>(?!(?:a|per|each|now|this|today|tonight|yesterday|last|on|at|in|again|finally|already|"
    r"for|with|from|and|but|so|by|if)\b)[a-z%]+)?)",
    _I,
)
# "152 this morning", "151.4 on the scale today": a weigh-in, of the weight held
_WEIGH_IN = re.compile(
    r"(?:weigh(?:ed)?[- ]?in(?:\s+at)?\s*[:,-]?\s*|(?:starting|start|current|today'?s)\s+weight\s*[:,-]?\s*)?"
    r"(?P<value>\d{2,3}(?:\.\d)?(?P<cur>)\s*(?P<unit>lbs?|pounds|kg|kilos)?)"
    r"(?:\s+(?:this morning|today|right now|now|on the scale(?:\s+(?:this morning|today))?)|"
    r"(?=[\s.!]*$|,\s))"
    r"(?:[\s.!]*$|,\s+(?![\d$€£]))",
    _I,
)
# "lease came through, it's 1,525 now", "it's now $80": a bare new amount of the one held
_IT_IS_NOW = re.compile(
    r"(?:it'?s|it is)\s+(?:now\s+(?=\S+\s*[,.!]*$)|(?=\S+\s+now\b))"
    r"(?P<value>(?P<cur>[$€£])?\d[\d,]*(?:\.\d+)?)(?P<unit>)",
    _I,
)
_DOWN_OR_UP_TO = re.compile(r"\b(?:back\s+)?(?:down|up)\s+to\s+[$€£]?\d", _I)
# a held number: "195", "210 pounds", "$1,450 a month" (its currency, unit and period kept when a bare number
# replaces it)
_HELD_NUMBER = re.compile(
    r"(?P<cur>[$€£]?)[\d,.]+(?:\s*(?P<unit>(?!a\b|per\b|each\b)[a-z]+))?(?P<per>\s+(?:a|per|each)\s+"
    r"(?:month|year|week|day|night))?",
    _I,
)


def _changed_measure(r: Reading, pos: int, end: int) -> bool:
    """The held fact whose value is said in the same unit ("82 kg"), or a bare number when no unit is
    said and the speaker holds exactly one numeric fact; never a guess among several."""
    m = (
        _MEASURE_CHANGE.match(r.text, pos, end)
        or _IT_IS_NOW.match(r.text, pos, end)
        or _WEIGH_IN.match(r.text, pos, end)
    )
    if m is None:
        return False
    if m.re is _WEIGH_IN:
        end = m.end()  # "starting weight 92 kg, goal is 85 by june": the goal's day is no start of the weight
    unit = (m["unit"] or m["cur"] or "").lower()
    held = [
        d for d in reversed(r.earlier) if d.speaker == r.speaker and not d.attribute.startswith("relation.")
    ]
    attr = m.groupdict().get("attr")
    key = r.vocabulary.normalize(attr) if attr else ""
    if key:
        fits = [d for d in held if d.attribute == key or d.attribute.endswith(("." + key, "_" + key))]
    elif m["cur"]:
        fits = [d for d in held if str(d.value).startswith(m["cur"])]
    elif unit:
        fits = [d for d in held if re.fullmatch(r"[\d,.]+\s*" + re.escape(unit), str(d.value), _I)]
    else:  # "Down to 195!": the one number held, with or without its unit ("210 pounds")
        fits = [d for d in held if _HELD_NUMBER.fullmatch(str(d.value)) and not isinstance(d.value, bool)]
        if m.re is _WEIGH_IN:
            fits = [d for d in fits if d.attribute == "weight"]
        if m.re is _IT_IS_NOW:  # "it's 10 now" may be the clock; only an amount held is moved so
            fits = [d for d in fits if (f := _HELD_NUMBER.fullmatch(str(d.value))) and (f["cur"] or f["per"])]
        if len({d.attribute for d in fits}) != 1:
            return False
    if not fits and m.re is _WEIGH_IN and (m["unit"] or re.match(r"weigh", m[0], _I)):
        add_fact(r, r.speaker, "weight", m["value"].strip(), pos, end, 0.8, False, "text", m.span("value"))
        return True  # "212 lbs right now", "weigh in: 198": a weight, none held
    if not fits:
        return False
    earlier = fits[0]
    words = m["value"].strip()
    value: object = int(words) if re.fullmatch(r"\d+", words) else words
    if not m["unit"]:
        value = in_held_form(earlier.value, value)
    r.correct(earlier, value, pos, end, m.span("value"))
    return True


def in_held_form(held: object, value: object) -> object:
    """A bare new amount in the held value's own currency, unit and period: "$1,450 a month" and 1,525
    (or "$1,525") -> "$1,525 a month"; anything else as said."""
    form = _HELD_NUMBER.fullmatch(str(held))
    said = _HELD_NUMBER.fullmatch(str(value))
    if (
        form is None
        or said is None
        or said["unit"]
        or said["per"]
        or not (form["cur"] or form["unit"] or form["per"])
    ):
        return value
    moved = with_number(held, str(value).lstrip("$€£"))
    if moved is None:
        return value
    return moved if form["cur"] or not said["cur"] else said["cur"] + moved


# "I switched gyms, I go to Crunch now", "changed dentists — seeing Dr Hale now": the held thing named by
# the plural takes the name that follows
_SWITCHED_NOUN = re.compile(
    r"(?:(?:i|we)\s+(?:have\s+|'ve\s+|just\s+|finally\s+)*)?(?:switched|changed|swapped)\s+(?P<noun>[a-z]+?)s\b"
    r"[\s,:;.!\-–—]*(?:and\s+)?(?P<rest>.*)$",
    _I,
)
_NAME_IN_REST = re.compile(
    r"(?:.*?\b(?:to|at|with|is|'s|see|seeing|use|using|go to|now)\s+)?(?:the\s+|a\s+)?"
    r"(?P<name>(?:(?-i:Dr|Mr|Mrs|Ms|Prof)\.\s+)?(?-i:[A-Z][\w'&-]*)"  # "Dr. Shah": the title is the name's
    r"(?:\s+(?-i:[A-Z0-9][\w'&-]*))*)",
    _I,
)


def _switched_held(r: Reading, pos: int, end: int, correction: bool) -> bool:
    m = _SWITCHED_NOUN.match(r.text, pos, end)
    if m is None:
        return False
    noun = m["noun"][:-2] + "y" if m["noun"].lower().endswith("ie") else m["noun"]  # pharmacies
    key = r.vocabulary.normalize(noun)
    held = [
        d
        for d in reversed(r.earlier)
        if d.subject == r.speaker and (d.attribute == key or d.attribute.endswith("." + key))
    ]
    if not key or not held:
        return False  # "I switched teams": no held value of mine to change
    n = _NAME_IN_REST.match(r.text, m.start("rest"), end)
    if n is None or n["name"] in ("I", "The", "My", "Now"):
        return False
    r.add(
        Draft(
            r.speaker,
            held[0].attribute,
            n["name"],
            pos,
            end,
            r.now,
            BOUND,
            True,
            held[0].kind,
            n.span("name"),
        )
    )
    return True


# "we found a closer allergist in Olympia", "got a new vet called Dr. Ruiz": a new one of a kind held (by the
# speaker or a relative of theirs) in place of the one held
_FOUND_NEW = re.compile(
    r"(?:(?:i|we)\s+(?:have\s+|'ve\s+|just\s+|finally\s+)*)?(?:found|got|picked|chose|went with)\s+"
    r"(?:a|an)\s+(?:new|closer|better|different|cheaper|nicer|good|great)\s+(?P<noun>[a-z]+)\s+"
    r"(?P<prep>in|at|near|on|called|named)\s+(?=\S)",
    _I,
)


def _found_new(r: Reading, pos: int, end: int) -> bool:
    m = _FOUND_NEW.match(r.text, pos, end)
    key = r.vocabulary.normalize(m["noun"]) if m is not None else ""
    if not key:
        return False
    held = latest_held(r, lambda d: d.speaker == r.speaker and d.attribute == key)
    got = value_of(r, m.end(), end, "text")
    if len(held) != 1 or got is None:
        return False  # none held, or two (mine and my son's): never a guess
    (earlier,) = held.values()
    value, v0, v1, _ = got
    if str(earlier.value).lower().startswith(m["prep"].lower() + " "):
        value, v0 = f"{m['prep']} {value}", m.start("prep")  # held as "in Tacoma": "in Olympia"
    r.correct(earlier, value, pos, end, (v0, v1))
    return True


# "renewed the registration online, good till April 30 next year": the thing renewed expires then
_RENEWED = re.compile(
    r"(?:(?:i|we)\s+(?:have\s+|'ve\s+|just\s+|finally\s+)*)?(?:renewed|extended)\s+(?:the|my|our)\s+"
    r"(?P<thing>[a-z]+(?:\s+(?!(?:online|again|today|yesterday|early|finally|already|at|in|on|for|and)\b)[a-z]+)?)"
    r"\b[^.;!?]*?\b(?:good|valid|runs|lasts|expires)\s+(?:till|until|through|thru|to|on|in)?\s*",
    _I,
)


def _renewed(r: Reading, pos: int, end: int) -> bool:
    m = _RENEWED.match(r.text, pos, end)
    times = r.times_in(m.end(), end) if m is not None else []
    if not times or times[0][0] - m.end() > 1:
        return False  # the time follows "good till" at once
    t0, t1, span = times[0]
    thing = snake(m["thing"])
    held = latest_held(
        r, lambda d: d.speaker == r.speaker and d.attribute.endswith(".expiry") and thing in d.attribute
    )
    key = next(iter(held.values())).attribute if len(held) == 1 else f"{thing}.expiry"
    add_fact(r, r.speaker, key, spoken_time(r, span, t0, t1), pos, end, 0.9, False, "date", (t0, t1))
    return True


# "I meant 4, not 3", "make it 6:30", "it's 5 pm": a new hour of a held moment
_NEW_CLOCK = re.compile(
    r"(?:(?:it'?s|it is|at|make it|it should be|should be)\s+)?(?:at\s+)?"
    r"(?P<new>(?P<h>\d{1,2})(?::(?P<m>[0-5]\d))?"
    r"\s*(?P<ampm>[ap])?\.?(?:m\.?)?)(?:\s*,?\s*(?:not|instead of|rather than)\s+(?:at\s+)?(?P<old>\d{1,2})"
    r"(?::[0-5]\d)?\s*(?:[ap]\.?m\.?)?)?[\s.!]*$",
    _I,
)


_SAID_CLOCK = re.compile(r"(?P<h>\d{1,2})(?::[0-5]\d)?\s*(?:[ap]\.?m\.?|o'clock)?", _I)


def _clock_correction(r: Reading, pos: int, end: int) -> bool:
    """The speaker's latest moment (a day with its hour) gets the new hour on the same day; an hour
    without am/pm keeps the old one's half of the day. With "not <hour>", only a moment at that hour."""
    m = _NEW_CLOCK.match(r.text, pos, end)
    if m is None:
        return False
    hour, minute = int(m["h"]), int(m["m"] or 0)
    if hour > 23:
        return False
    own = [
        d for d in reversed(r.earlier) if d.speaker == r.speaker and not d.attribute.startswith("relation.")
    ]
    if m["old"] is None:
        own = own[:1]  # "make it 6" with no old hour said: only when the latest fact is a moment
    for d in own:
        if not isinstance(d.value, str):
            continue
        if (said := _SAID_CLOCK.fullmatch(d.value)) is not None:
            # "booked for 8pm" kept as said: corrected as said, when "not <hour>" names no other hour
            if m["old"] is None or int(m["old"]) % 12 == int(said["h"]) % 12:
                r.correct(d, m["new"].strip(), pos, end, m.span("new"))
                return True
            continue
        try:
            old = datetime.strptime(d.value, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)
        except ValueError:
            continue
        local = old.astimezone(r.now.tzinfo)
        if m["old"] is not None and int(m["old"]) % 12 != local.hour % 12:
            continue
        moment = at_hour(local, hour, minute, m["ampm"])
        value = time_value(TimeSpan(moment, moment + timedelta(minutes=1), "minute"), r.now)
        r.correct(d, value, pos, end, m.span("h"))
        return True
    return False


_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_TO_WEEKDAY = re.compile(r"(?:on\s+)?(?:the\s+)?(?P<day>" + "|".join(_WEEKDAYS) + r")[\s.!]*$", _I)


def _moved_to_weekday(r: Reading, pos: int, end: int) -> bool:
    """ "They moved it to Tuesday" of a held Monday-the-9th appointment: the Tuesday nearest the old day
    (not one already past), keeping the old hour; a weekday alone is read against what it moves."""
    m = _TO_WEEKDAY.match(r.text, pos, end)
    if m is None:
        return False
    earlier = r.bind("date", None, None)
    if earlier is None or not isinstance(earlier.value, str):
        return False
    try:
        old = (
            datetime.strptime(earlier.value, "%Y-%m-%dT%H:%M:%SZ")
            .replace(tzinfo=UTC)
            .astimezone(r.now.tzinfo)
        )
        timed = True
    except ValueError:
        try:
            old = datetime.strptime(earlier.value, "%Y-%m-%d").replace(tzinfo=r.now.tzinfo)
            timed = False
        except ValueError:
            return False
    target = _WEEKDAYS.index(m["day"].lower())
    today = r.now.astimezone(r.now.tzinfo).date()
    days = [
        k
        for k in range(-6, 7)
        if (old.weekday() + k) % 7 == target and (old + timedelta(days=k)).date() >= today
    ]
    if not days:
        return False
    new = old + timedelta(days=min(days, key=lambda k: (abs(k), -k)))
    value = (
        time_value(TimeSpan(new, new + timedelta(minutes=1), "minute"), r.now)
        if timed
        else new.date().isoformat()
    )
    r.correct(earlier, value, pos, end, m.span("day"))
    return True


_A_CLAUSE = re.compile(r"\b(?:is|are|was|were|has|have|had|does|did)\b", _I)

# "we adopted another cat", "got a third cat": one more of what the speaker holds a count of
_ONE_MORE = re.compile(
    r"\b(?:another|one more|an extra|a\s+(?P<nth>second|third|fourth|fifth|sixth|2nd|3rd|4th|5th|6th))\s+"
    r"(?P<noun>[a-z]+)\b",
    _I,
)
_GOT = re.compile(r"\b(?:adopted|got|bought|welcomed|brought home|added|rescued|took in|have|had)\b", _I)
_ORDINALS = {"second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6}


def _one_more(r: Reading, pos: int, end: int) -> bool:
    m = _ONE_MORE.search(r.text, pos, end)
    if (
        m is None
        or not _GOT.search(r.text, pos, m.start())
        or re.search(r"n't\b|\bnot\b", r.text[pos : m.start()])
    ):
        return False  # "we don't want another cat", "thinking about a third cat": none yet
    noun = m["noun"].lower()
    keys = {f"{noun}.count", f"{noun}s.count", f"{noun}es.count"}
    held = [
        d for d in r.earlier if d.subject == r.speaker and d.attribute in keys and isinstance(d.value, int)
    ]
    if not held:
        return False
    nth = (m["nth"] or "").lower()
    value = _ORDINALS.get(nth) or (int(nth[0]) if nth[:1].isdigit() else held[-1].value + 1)
    add_fact(r, r.speaker, held[-1].attribute, value, pos, end, 0.8, False, "number", m.span())
    return True
