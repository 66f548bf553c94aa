"""The English rule grammar: clauses, subjects, predicates, corrections, tasks and decisions.

A clause is read left to right: discourse openers ("oh", "by the way"), correction markers ("actually",
"correction:", "scratch that", "I meant"), a hedge ("I think"); a question or a hypothetical ends the
reading with no fact. Then the first predicate that matches decides the fact: a possessive copula ("my
passport deadline is July 15", "Leo's school is Oakwood"), a relation ("my sister is Ana"), a verb of
residence, work, birth, preference, a status ("I'm vegetarian"), a count ("I have two kids"), a label
("Phone: 555 0100"), or — after a correction marker — a bare value bound to the earlier fact it corrects.
"""

from __future__ import annotations

import re

from .actions_en import read_decisions, read_tasks
from .clauses_en import clauses as clauses  # (rules.py parts a message by its grammar)
from .common import HEDGED, SINGULAR_RELATIONS, Reading, latest_organization, sentence_around, strip_span
from .corrections_en import bare_value
from .doses import dose_en
from .events_en import birthday_age, day_and_place, event, time_is_my, wanted_by
from .favorites import favorite_named_first
from .jobs_en import my_job
from .moves_en import new_home
from .owned import owned
from .patterns_en import (
    _ACTUALLY,
    _AND_OTHER,
    _AND_PREDICATE,
    _BOOKED_FOR,
    _CONDITIONAL,
    _CORRECTION,
    _DISCOURSE,
    _DUE,
    _EXPIRY,
    _GENERIC_REFERENCE,
    _HEDGE,
    _HYPOTHETICAL,
    _I,
    _LEADING_TIME,
    _NAME,
    _NEGATION,
    _POSSESSIVE_COPULA,
    _QUESTION_START,
    _REPORTED,
    _SPACE,
    _SUBJECTLESS,
    AMOUNT_VALUE,
    COMPARED,
    NETWORK,
    NOT_NAMES,
    NOW_WORDS,
    ROLE_NAMED,
)
from .people_en import name_people
from .positions import position_en
from .predicates_en import predicate, ride_now
from .statuses_en import BARE_STATUS, BEEN_STATUS, STATUS_WORDS
from .subjects_en import (
    BARE_OWNER,
    DEFINITE,
    IDENTIFIER,
    KIN_ADJ,
    held_by_head,
    named_in_clause,
    possessor,
    relation_words,
    strong_value,
    subject_of,
)
from .titled_en import switched_to_titled
from .values_en import add_fact, recurs, value_of
from .vocabulary import snake


def read_clause(r: Reading, start: int, end: int) -> None:
    s = r.text
    r.clause_start = start
    body_end = strip_span(s, start, end)[1]
    question = s[start:end].rstrip().endswith("?")
    pos = _skip(_DISCOURSE, s, start, end)
    correction, about = r.correction_pending, None
    r.correction_pending = False
    while (m := _CORRECTION.match(s, pos, end)) is not None and m.end() > pos:
        correction, about = True, about or m["about"]
        pos = _skip(_DISCOURSE, s, m.end(), end)
    if correction and pos >= body_end:
        r.correction_pending = True  # "Wait, that's wrong — it's 555 0143": the value is in the next clause
        return
    if question or _QUESTION_START.match(s, pos, end):
        named_in_clause(r, pos, body_end)  # "my GP Dr. Patel wants me to get bloodwork, what does … measure?"
        name_people(r, start, body_end)  # "How old is Leo now?": a later "he" is Leo
        return
    confidence = 0.9
    if (m := _HEDGE.match(s, pos, end)) is not None:
        confidence, pos = HEDGED, m.end()
    if time_is_my(r, pos, body_end, confidence):
        return
    timed, pos = pos, _past_leading_time(r, pos, body_end)
    pos = _skip(_LEADING_PHRASE, s, pos, body_end)  # "With the new schedule I catch the 7:40 now"
    # "the deadline is actually June 30" corrects a statement; only a marker opening the clause lets a
    # bare value ("actually, Porto") correct one
    states = correction or _ACTUALLY.search(s, pos, body_end) is not None
    rest = s[pos:body_end]
    if _CONDITIONAL.match(rest):
        return
    # "my number is 415-555-0132 if the courier needs it": a condition on using a present fact, not on
    # the fact; a plan or a progressive ("I'm moving to Lisbon if ...") stays conditional
    trailing = re.search(r"\s*,?\s+(?:if|in case)\b", rest, _I)
    if trailing and not re.search(r"\b(?:will|'ll|shall|\w+ing)\b", rest[: trailing.start()], _I):
        body_end, rest = pos + trailing.start(), rest[: trailing.start()]
    read_tasks(r, pos, body_end)
    if wanted_by(r, pos, body_end, confidence, correction):  # "my advisor wants a full draft by march 20"
        named_in_clause(r, pos, body_end)
        return
    if (said := _REPORTED.search(rest)) and (aside := _ASIDE.search(rest, 0, said.start())):
        # "Biscuit weighs 14 kilos, the vet says he's fine": the report is an aside after the statement
        body_end, rest = pos + aside.start(), rest[: aside.start()]
    # "change of plan: we're going to Nopa instead": a corrected plan is no hypothetical
    hypothetical = _HYPOTHETICAL.search(rest) and not (correction and _GOING_TO_NAME.match(rest))
    if read_decisions(r, pos, body_end) or hypothetical or _REPORTED.search(rest):
        named_in_clause(r, pos, body_end)  # "my brother Luke in Austin says anytime": still her brother
        return
    if dose_en(r, pos, body_end, confidence) or position_en(r, pos, body_end, confidence):
        return  # "I'm on 20mg of Lexapro" (doses.py); "Coach moved him to defense" (positions.py)
    before = len(r.facts)
    if correction and (ref := _GENERIC_REFERENCE.match(s, pos, body_end)) is not None:
        pos = ref.end()  # "small fix: the booking is at 7:30": the words name only what was just said
    found = _statement(r, pos, body_end, confidence, states) or _said_alone(r, pos, body_end, confidence)
    # "Priya left, my new manager is Tom": a statement after a comma, when the start held none or its
    # value ended before the comma ("Kim moved to Paris, my new manager is Olu")
    stated_end = max((d.value_span[1] for d in r.facts[before:] if d.value_span), default=pos)
    for comma in _COMMA_SUBJECT.finditer(s, pos, body_end):
        if found and comma.start() < stated_end:
            continue
        at = _skip(_DISCOURSE, s, comma.end(), body_end)
        # "Dr. Alvarez retired, we see Dr. Chen now": the titled one gone to now replaces the one held
        if _statement(r, at, body_end, confidence, states) or switched_to_titled(r, at, body_end):
            found = True
            break
    if not found:
        bare_value(r, pos, body_end, correction, about)
        now_alone = re.fullmatch(r"\s*now[\s.!]*", s[pos:body_end], _I)  # "july 15 now": the time
        if (correction or now_alone) and timed < pos and len(r.facts) == before:
            bare_value(r, timed, body_end, correction, about)  # "Wait no, August 13, I typed it wrong"
    named_in_clause(r, pos, body_end)  # "my GP Dr. Patel wants me to get bloodwork"
    name_people(r, start, body_end)


_COMMA = re.compile(r",\s*")
_YES_BEFORE = re.compile(r"(?:^|[.!?]\s*)(?:yeah|yep|yup|yes|ya)[,!.]?\s*$", _I)  # "yeah pescatarian"


def _yes_before(text: str, at: int) -> bool:
    """Whether a yes ends the words before `at` (looked for near it, not in all the text before)."""
    return _YES_BEFORE.search(text, max(0, at - 40), at) is not None


def _said_alone(r: Reading, pos: int, end: int, confidence: float) -> bool:
    """ "I started eating fish again, so pescatarian I guess": a status said alone, the speaker's; "Winter
    schedule, so it's the 7:40 boat now": the ride held, at a new time; "Peet's promoted me to store
    manager!": the speaker's title (jobs_en.my_job)."""
    if (
        my_job(r, pos, end, confidence)
        or favorite_named_first(r, pos, end, confidence)
        or new_home(r, pos, end, confidence)
    ):
        return True  # "Mr Robot is officially my new favorite show" (favorites.py)
    for at in (pos, *(c.end() for c in _COMMA.finditer(r.text, pos, end))):
        if ride_now(r, pos, at, end, confidence) or owned(r, at, end, confidence, False):
            return True  # "Winter schedule, so it's the 7:40 boat now"; "went android, got a pixel 9"
        m = BARE_STATUS.match(r.text, at, end) or BEEN_STATUS.match(r.text, at, end)
        if m is not None and (m.re is BEEN_STATUS or m["so"] or m["q"] or _yes_before(r.text, at)):
            key = next(k for words, k in STATUS_WORDS if re.fullmatch(words, m["value"], _I))
            add_fact(
                r, r.speaker, key, m["value"].lower(), pos, end, confidence, False, "text", m.span("value")
            )
            return True
    return False


_LEADING_PHRASE = re.compile(
    r"(?:with|because of|thanks to|due to|after|given|since|for)\s+(?:the|my|our|a|an|this|that|all)\s+"
    r"(?:[\w'-]+\s+){0,4}?,?\s*(?=(?:i|we|i'm|we're|i've|we've)\b)|"
    r"(?:[\w'-]+\s+){1,3}?means\s+(?=(?:i|we|i'm|we're)\b)",  # "New baby means I'm asleep by 10"
    _I,
)
_GOING_TO_NAME = re.compile(
    r"(?:we'?re|we are|i'?m|i am)\s+(?:going|heading)\s+(?:to|with)\s+(?-i:[A-Z])", _I
)
_ASIDE = re.compile(r",\s+(?!.*,)", _I)  # the last comma before a report ("…, the vet says …")
_ARTICLE = re.compile(r"(?:the|a|an|on|at|in)\s+", re.I)
# what an unknown attribute's value starts with: a name, a digit, a time word, an address or a handle
_VALUE_LIKE = re.compile(
    r"(?-i:[A-Z0-9$€£@#+])|(?:next|this|last|tomorrow|today|tonight|yesterday|monday|tuesday|wednesday|"
    r"thursday|friday|saturday|sunday|january|february|march|april|may|june|july|august|september|"
    r"october|november|december|noon|midnight|every|in \d)\b|[\w.+-]+@|[\w-]*\d",
    re.I,
)
# a statement after a comma or a heading's colon ("New timetable: I catch the 8:10 now", "Karen left, Tom is
# running the team now", "I'm a night owl, usually in bed around 2am")
_COMMA_SUBJECT = re.compile(
    r"[,:]\s+(?=(?:(?:and )?so\s+)?(?:my|our|the|new|i|i'm|i've|we|we're|we've|he|he's|she|password|pin|"
    r"she's|now|but now|usually in bed|usually asleep)\b|"
    r"(?-i:[A-Z])[a-z]+\s+(?:is|'s)\s+(?:now\s+)?(?:running|leading|managing|heading)\b|"
    r"so\s+(?-i:[A-Z])[a-z]+\s+(?:is|'s)\s+(?:now\s+)?(?:our|my|the)\b|"  # "…, so Marcus is our lead now"
    r"[a-z]+(?:[\s-][a-z]+)?(?:(?:\s+is|\s+are|'s)\s+now|"
    r"\s+(?:moved|moves|got moved|was moved|changed|pushed|bumped|slid|slipped|got pushed|was pushed|"
    r"postponed|delayed|rescheduled))\b)",
    re.I,
)


def _statement(r: Reading, pos: int, end: int, confidence: float, correction: bool) -> bool:
    return (
        _relation(r, pos, end, confidence)
        or _mine(r, pos, end, confidence, correction)
        or _named_later(r, pos, end, confidence)
        or _possessive(r, pos, end, confidence, correction)
        or _subject_predicate(r, pos, end, confidence, correction)
        or _label(r, pos, end, confidence, correction)
        or _new_or_contact(r, pos, end, confidence, correction)
        or event(r, pos, end, confidence, correction)
        or birthday_age(r, pos, end, confidence, subject_of)
    )


_MINE = re.compile(r"(?:and\s+|as for\s+)?(?:mine|ours)\s+(?:is|'s|was)\s+(?:actually\s+)?", _I)


def _mine(r: Reading, pos: int, end: int, confidence: float, correction: bool) -> bool:
    """ "My husband's birthday is March 3. Mine is October 30.": the speaker's own value of the attribute
    just said of someone else."""
    m = _MINE.match(r.text, pos, end)
    if m is None:
        return False
    said = next((d for d in reversed(r.earlier) if d.speaker == r.speaker), None)
    if said is None or said.subject == r.speaker or said.attribute.startswith("relation."):
        return False
    got = value_of(r, m.end(), end, r.vocabulary.kind(said.attribute))
    if got is None:
        return False
    value, v0, v1, _ = got
    add_fact(r, r.speaker, said.attribute, value, pos, end, confidence, correction, said.kind, (v0, v1))
    return True


_CALLED = re.compile(
    r"(?:the\s+(?P<noun>[a-z][\w-]*)(?:\s+is|'s)\s+(?:called|named)|(?:the\s+)?(?P<noun2>[a-z][\w-]*)'s\s+name\s+is"
    r"|it'?s\s+called|it\s+is\s+called)\s+(?P<name>(?-i:[A-Z0-9][\w&'.-]*)(?:\s+(?-i:[A-Z0-9&][\w&'.-]*)){0,4})",
    _I,
)


def _named_later(r: Reading, pos: int, end: int, confidence: float) -> bool:
    """ "Dana got hired by a biotech startup." … "The startup is called Helix Labs.": the name of a value
    held as a description ending in the noun ("it's called …": the latest such value)."""
    m = _CALLED.match(r.text, pos, end)
    if m is None:
        return False
    noun = (m["noun"] or m["noun2"] or "").lower()
    for d in reversed(r.earlier):
        described = isinstance(d.value, str) and d.value[:1].islower() and " " in d.value.strip()
        if described and (not noun or d.value.lower().endswith(noun)):
            add_fact(
                r, d.subject, d.attribute, m["name"], pos, end, confidence, False, d.kind, m.span("name")
            )
            return True
    return False


def _past_leading_time(r: Reading, pos: int, end: int) -> int:
    """Past a time that opens the clause ("Last month, we moved…", "As of Monday I work at…"): it still
    dates the fact, as a time anywhere in the clause does."""
    for t0, t1, _ in r.times_in(pos, end):
        if _LEADING_TIME.fullmatch(r.text, pos, t0):
            after = _skip(re.compile(r"[\s,:]+"), r.text, t1, end)
            return after if after < end else pos  # a time alone ("I meant June 30") is the value
    return pos


def _skip(pattern: re.Pattern[str], s: str, pos: int, end: int) -> int:
    m = pattern.match(s, pos, end)
    return m.end() if m else pos


# --- the predicates ------------------------------------------------------------------------------------


def _relation(r: Reading, pos: int, end: int, confidence: float) -> bool:
    s, rels = r.text, relation_words(r)
    m = re.compile(
        rf"(?:(?:my|our)\s+{KIN_ADJ}|(?P<new>(?:the\s+)?new\s+))(?P<rel>{rels})(?:'s name)?"
        r"\s+(?:is|was|'s)\s+"
        rf"(?:(?:a|this|some)\s+(?:guy|girl|woman|man|lady|dude|student|person)\s+)?(?:called\s+|named\s+)?"
        rf"(?P<name>{_NAME})(?:[\s.!,]*$|\s*,\s+(?=\S))",  # "…, she's 81": read on
        _I,
    ).match(s, pos, end)
    is_my = rf"(?P<name>{_NAME})\s+is\s+my\s+(?P<rel>{rels})(?:\s+now)?[\s.!,]*$"  # "Dana is my boss now"
    m = m or re.compile(is_my, _I).match(s, pos, end)
    if m is None or m["name"] in NOT_NAMES:
        return False
    relation, gender = r.vocabulary.relation(m["rel"]) or (snake(m["rel"]), None)
    if m.groupdict().get("new") and relation not in SINGULAR_RELATIONS:
        return False  # "new roommate is Theo" is the speaker's (one has one); "new colleague is Sam" no one's
    r.name_person(m["name"], gender, (m.start("name"), m.end("name")))
    r.relate(m["name"], relation, pos, end, confidence, (m.start("name"), m.end("name")))
    return True


_ATTRIBUTE_COPULA = re.compile(r"(?P<attr>(?:[\w'-]+\s+){0,4}?[\w'-]+)" + _POSSESSIVE_COPULA, _I)
# a bare noun's 's is its "is" ("flight's now on the 22nd"); after "my", "my doctor's appointment" is whose
_BARE_COPULA = re.compile(
    r"(?P<attr>(?:[\w'-]+\s+){0,4}?[\w'-]+)" + _POSSESSIVE_COPULA.replace(r"\s+", r"(?:\s+|(?='s\s))", 1), _I
)


_HEAD_OF_THING = re.compile(r"([a-z]+)_(?:on|for|of)_(?:the|my|our|a)_[a-z_]+$")


def _possessive(r: Reading, pos: int, end: int, confidence: float, correction: bool) -> bool:
    owner = possessor(r, pos, end)
    if owner is None:
        return False
    subject, at = owner
    bare = subject is BARE_OWNER
    definite = subject is DEFINITE or bare
    subject = r.speaker if definite else subject
    m = (_BARE_COPULA if bare else _ATTRIBUTE_COPULA).match(r.text, at, end)
    if m is None or _NEGATION.search(m["cop"]):
        return False
    phrase, cop = NOW_WORDS.sub("", m["attr"]), m["cop"].lower()  # "my favourite food these days"
    if not phrase:
        return False
    vstart = m.end()
    if (d := _DUE.match(r.text, vstart, end)) is not None or "due" in cop:
        phrase, vstart = phrase + " deadline", d.end() if d else vstart
    elif (e := _EXPIRY.match(r.text, vstart, end)) is not None or cop.startswith(
        ("expire", "runs out", "ends")
    ):
        phrase, vstart = phrase + " expiry", e.end() if e else vstart
    if (booked := _BOOKED_FOR.match(r.text, vstart, end)) is not None and r.time_at(booked.end(), end):
        vstart = booked.end()  # "the car service is booked for next Tuesday": the day is the value
    if (named := re.compile(r"(?:called|named)\s+", _I).match(r.text, vstart, end)) is not None:
        phrase, vstart = phrase + " name", named.end()  # "my cat is called Miso": cat.name
    key = r.vocabulary.normalize(phrase)
    if (head := _HEAD_OF_THING.match(key)) is not None and not r.vocabulary.attribute(key):
        key = head[1]  # "closing on the house": the closing (the speaker's; "closing slid" moves it)
    if "name" in phrase.split()[-1:] and key.endswith("_name"):
        key = key.removesuffix("_name") + ".name"
    if not key or _NEGATION.match(r.text, vstart, end):
        return False
    if not r.vocabulary.attribute(key) and day_and_place(
        r, subject, key, pos, vstart, end, confidence, correction
    ):
        return True  # "our wedding is on June 14 at the lake house": its day and its place
    known = "." in key or r.vocabulary.attribute(key) is not None or key in r.vocabulary.aspects
    plural = cop in ("are", "were", "are now") and not known and not recurs(r, vstart, end)
    if plural and held_by_head(r, subject, key) is None:
        return False  # "my kids are 5 and 8", "my parents are in Spain": not one attribute's value
    if (
        not known
        and not _VALUE_LIKE.match(r.text, _skip(_ARTICLE, r.text, vstart, end), end)
        and r.time_at(vstart, end) is None  # "my exam is in three weeks": a time is a value too
        and not recurs(r, vstart, end)  # "my yoga class is on saturdays"
        and not (cop in ("is", "'s", "is now") and _A_THING.match(r.text, vstart, end))
    ):
        return False  # "my team is super encouraging": an unknown attribute takes a name, a number or a time
    # "the weather is nice" names nothing of the speaker's; "the contract signing is next Friday" dates
    # an event of theirs
    dated = (cop in ("is", "'s", "is now") or _CHANGE_COPULA.match(cop)) and (
        r.time_at(vstart, end) is not None or recurs(r, vstart, end)
    )
    # "the team offsite is in Denver", "the offsite moved to Boulder": an event of theirs held somewhere
    placed = (cop in ("is", "'s") and _IN_A_PLACE.match(r.text, vstart, end)) or (
        _CHANGE_COPULA.match(cop) and _A_PLACE.match(r.text, vstart, end)
    )
    # (a key the vocabulary knows is itself, unless it names an event held by its verb: "the flight")
    # ("her games" of the daughter's held soccer_games, too)
    held = held_by_head(r, subject, key, events_only=bool(r.vocabulary.attribute(key)))
    if held is not None:
        # "the offsite moved to Boulder" after "the team offsite is in Denver": the one held, by its head
        key = held.attribute
    if (
        placed
        and not dated
        and any(d.subject == subject and d.attribute == key + ".location" for d in r.earlier)
    ):
        key += ".location"  # "offsite moved to Boulder" after "… is in Denver on April 14": its place
    if definite and not (
        "." in key
        or r.vocabulary.attribute(key)
        or key in r.vocabulary.aspects
        or dated
        or placed
        or held
        or IDENTIFIER.search(key)  # "the wifi password is sunflower22": a code of the speaker's
        or strong_value(r, m.end("attr"), end, codes=False)  # "the deductible is $1,500"
    ):
        return False
    if definite and placed and placed["name"] not in NOT_NAMES and not r.vocabulary.attribute(key):
        vstart = placed.start("name")
    elif definite and placed and placed["name"] in NOT_NAMES and not dated:
        return False
    if bare and not _VALUE_LIKE.match(r.text, _skip(_ARTICLE, r.text, vstart, end), end) and not dated:
        return False  # "Conference is on the 15th at 4pm" is dated: a time is a value too
    if key == "allergy" and (to := re.compile(r"to\s+", _I).match(r.text, vstart, end)):
        vstart = to.end()  # "my allergy is to peanuts"
    if key == "job_title" and (at_word := re.compile(r"(?:at|with|for)\s+", _I).match(r.text, vstart, end)):
        key, vstart = "employer", at_word.end()  # "my new job is at Figma"
    kind = r.vocabulary.kind(key)
    if kind in ("organization", "place") and AMOUNT_VALUE.match(r.text, vstart, end):
        key, kind = snake(phrase), "text"  # "my gym membership is $40 a month": the fee, not the gym
    # "Boulder, same date": the place alone
    got = value_of(r, vstart, placed.end("name") if placed and key.endswith(".location") else end, kind)
    if got is None:
        return False
    value, v0, v1, rejected = got
    if isinstance(value, str) and COMPARED.search(value):
        return False  # "new landlord is SO much better than geoff": how it compares, no value
    if key == "name" and subject != r.speaker and isinstance(value, str):
        kind = "person"
    if (role := ROLE_NAMED.fullmatch(key)) is not None and isinstance(value, str):
        key, kind = r.vocabulary.normalize(role[1]), "person"  # "my landlord's name is Geoff": the landlord
    if IDENTIFIER.search(key) and isinstance(value, str) and re.fullmatch(r"\d{4}", value):
        value, kind = int(value), "number"  # "my gate code is 1962": a code, not a year
    add_fact(r, subject, key, value, pos, end, confidence, correction, kind, (v0, v1), rejected)
    return True


# the place may be followed by its day: "the housewarming is at Priya's on Saturday"
_IN_A_PLACE = re.compile(
    rf"(?:in|at)\s+(?P<name>{_NAME})(?:'s)?(?=[\s.!]*$|\s+(?:on|this|next|tomorrow)\b)", _I
)
# "my order is a cortado (these days)": a thing, said with its article, ends the clause
_A_THING = re.compile(
    r"(?:a|an)\s+(?:[\w'-]+\s+){0,3}?[\w'-]+(?:\s*,?\s*(?:now|these days|nowadays|lately))?[\s.!]*$", _I
)
# (", same date": the rest of the event unchanged)
_A_PLACE = re.compile(
    rf"(?:(?:in|at)\s+)?(?P<name>{_NAME})(?:'s)?(?:,?\s+(?:same|still)\s+[\w ]+)?[\s.!]*$", _I
)
_CHANGE_COPULA = re.compile(
    r"(?:\w+\s+)?(?:moved|moves|moving|changed|changes|slid|slipped|pushed|bumped|postponed|rescheduled|delayed)",
    _I,
)
_GOT_NEW = re.compile(  # "I got a new number, it's 415-555-0199": the new value of my number
    r"(?:i|we)\s+(?:have\s+|'ve\s+|just\s+)?(?:got|get|have|made|set up|opened)\s+(?:a|an)\s+new\s+"
    r"(?P<attr>(?:[\w'-]+\s+){0,2}?[\w'-]+)\s*(?:[,:\-–—]\s*|\s+)(?:it'?s|it is|which is|now)?\s*",
    _I,
)
_GOT_NEW_MARKED = re.compile(_GOT_NEW.pattern.replace(r"(?:[,:\-–—]\s*|\s+)", r"[,:\-–—]\s*"), _I)
_USE_CONTACT = re.compile(  # "please use sofia@ruizstudio.com from now on": a contact named by its shape
    r"(?:please\s+)?(?:use|reach me (?:at|on)|contact me (?:at|on)|call me (?:at|on)|text me (?:at|on)|"
    r"email me (?:at|on)|write to me at|my (?:new )?contact is)\s+(?:my\s+(?:new\s+)?[\w ]*?\s*)?"
    r"(?P<value>[\w.+-]+@[\w-]+(?:\.[\w-]+)+|\+?\d[\d ().-]{5,}\d)",
    _I,
)


def _new_or_contact(r: Reading, pos: int, end: int, confidence: float, correction: bool) -> bool:
    if (m := _USE_CONTACT.match(r.text, pos, end)) is not None:
        key = "email" if "@" in m["value"] else "phone"
        add_fact(r, r.speaker, key, m["value"], pos, end, confidence, correction, "text", m.span("value"))
        return True
    m = _GOT_NEW_MARKED.match(r.text, pos, end) or _GOT_NEW.match(r.text, pos, end)
    if m is None:  # "I got a new phone number: …" reads the attribute up to its colon first
        return False
    key = r.vocabulary.normalize(m["attr"])
    if not key or not ("." in key or r.vocabulary.attribute(key) or key in r.vocabulary.aspects):
        return False  # "I got a new bike, it's red": no attribute of mine the vocabulary knows
    kind = r.vocabulary.kind(key)
    got = value_of(r, m.end(), end, kind)
    if got is None:
        return False
    value, v0, v1, rejected = got
    add_fact(r, r.speaker, key, value, pos, end, confidence, correction, kind, (v0, v1), rejected)
    return True


def _subject_predicate(r: Reading, pos: int, end: int, confidence: float, correction: bool) -> bool:
    got = subject_of(r, pos, end)
    if got is None:
        # "Currently working at Deloitte.", "Just moved to Lisbon!": the speaker, when a verb opens it
        if _SUBJECTLESS.match(r.text, pos, end) is None:
            return False
        got = (r.speaker, pos)
    subject, at = got
    s = r.text
    at = _skip(_SPACE, s, at, end)
    if _transferred(r, subject, pos, at, end):
        return True
    if (both := _AND_OTHER.match(s, at, end)) is not None and (other := subject_of(r, both.end(), end)):
        # "Kim and Lou got married": what follows is said of each of them
        verb = _skip(_SPACE, s, other[1], end)
        said = predicate(r, subject, pos, verb, end, confidence, correction)
        return predicate(r, other[0], pos, verb, end, confidence, correction) and said
    if not predicate(r, subject, pos, at, end, confidence, correction):
        # "I left Google and joined Meta": the subject carries over to the verb after "and"
        m = _AND_PREDICATE.search(s, at, end)
        return m is not None and predicate(r, subject, pos, m.end(), end, confidence, correction)
    return True


# "password bluemoose88", "wifi password: M1ssionBay#4": a code's label (no colon needed)
_CODE_LABEL = re.compile(
    r"(?P<attr>(?:[a-z]+\s+)?(?:password|passcode|pin|code|network|wifi|ssid))(?:\s*:\s*|\s+(?:is\s+)?)(?=\S)",
    _I,
)


def _label(r: Reading, pos: int, end: int, confidence: float, correction: bool) -> bool:
    m = re.compile(r"(?P<attr>[A-Za-z][\w' -]{1,40}?)\s*:\s*", _I).match(r.text, pos, end)
    c = _CODE_LABEL.match(r.text, pos, end)
    coded = c is not None and (
        strong_value(r, c.end(), end)
        or re.fullmatch(r"\d{3,}#?", r.text[c.end() : end].strip(" .!")) is not None
    )
    m = c if coded else m
    if m is None or re.match(r"(?:i|we|you|he|she|they|it)\b", m["attr"], _I):
        return False  # "I got a new phone number: …" is a clause before a colon, not a label
    mine = re.match(r"(?:my|our)\s+", m["attr"], _I)
    attr = m["attr"][mine.end() :] if mine else m["attr"]
    key = r.vocabulary.normalize(re.sub(r"^(?:new|latest|current|updated)\s+", "", attr, flags=_I))
    wifi = r.vocabulary.normalize("wifi password")  # "wifi is Henderson5G, password tangerine42"
    if key == "password" and (NETWORK.search(r.text) or any(d.attribute == wifi for d in r.earlier)):
        # (quoted from the network's words in its sentence, so that read again it is the same key)
        said = [n.start() for n in NETWORK.finditer(r.text, sentence_around(r.text, pos, pos)[0], pos)]
        key, pos = wifi, min([*said, pos])
    known = coded or r.vocabulary.known(attr) is not None or "." in key or key in r.vocabulary.aspects
    # "My wifi password: sunflower42": a thing of mine labelled with one name, number or code
    known = (
        known
        or bool(
            mine
            and key
            and re.fullmatch(r"[a-z' -]+", attr, _I)
            and len(attr.split()) <= 3
            and r.text[m.end() - 1].isspace()  # "7:40" is a time, not a label
            and re.fullmatch(r"\S+(?:\s+\S+)?", r.text[m.end() : end].strip(" .!"))
        )
    )
    # "New bedtime: 10:30 pm": a label the speaker already holds a value of is its new value
    if not known and not (key and any(d.subject == r.speaker and d.attribute == key for d in r.earlier)):
        return False
    got = value_of(r, m.end(), end, r.vocabulary.kind(key))
    if got is None:
        return False
    value, v0, v1, rejected = got
    add_fact(
        r, r.speaker, key, value, pos, end, confidence, correction, r.vocabulary.kind(key), (v0, v1), rejected
    )
    return True


# "Zoe transferred to Maple Leaf", "he switched over to Lyft": the subject's held school, employer or
# club, whichever is the latest organisation of theirs
_TRANSFER = re.compile(
    r"(?:has\s+|'s\s+|is\s+|just\s+|finally\s+)*(?:transferr(?:ed|ing)|switch(?:ed|ing)|chang(?:ed|ing))\s+"
    r"(?:schools|jobs|teams|clubs|"
    r"companies|over)?\s*(?:over\s+)?to\s+(?:the\s+)?(?P<name>(?-i:[A-Z][\w'&.-]*)(?:\s+(?-i:[A-Z][\w'&-]*))*)",
    _I,
)


def _transferred(r: Reading, subject: str, pos: int, at: int, end: int) -> bool:
    m = _TRANSFER.match(r.text, at, end)
    if m is None or m["name"] in NOT_NAMES:
        return False
    key = latest_organization(r, subject)
    if key is None:
        return False  # nothing of theirs to transfer from: no guess at what changed
    add_fact(r, subject, key, m["name"], pos, end, 0.8, True, "organization", m.span("name"))
    return True
