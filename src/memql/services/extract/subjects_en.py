"""The subjects of the English rule grammar: whom a clause speaks of ("I", "he", "my sister Ana", "Dad",
"our dog Biscuit", "Lena") and whose a possessive names ("my sister's", "Dad's", "the deadline" — the
speaker's), with the people they name kept for a later he/she."""

from __future__ import annotations

import re

from .common import HEDGED, Reading, singular
from .patterns_en import _I, _NAME, _PAST_VERB_OPENING, CHANGING, NOT_NAMES
from .value_shapes import values
from .values_en import add_fact, recurs
from .vocabulary import snake


def relation_words(r: Reading) -> str:
    def make() -> str:
        words = [w for w in r.vocabulary.relations if w.isascii()]
        return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))

    return r.vocabulary.memo("relations_en", make)


def subject_of(r: Reading, pos: int, end: int) -> tuple[str, int] | None:
    """(subject, position after it) for a clause subject: I/we, he/she, my <relation> [Name], a Name."""
    s = r.text
    if (m := re.compile(r"(?:i|we)\b", _I).match(s, pos, end)) is not None:
        return r.speaker, m.end()
    if (m := re.compile(r"(?P<p>he|she)\b", _I).match(s, pos, end)) is not None:
        who = r.pronoun("m" if m["p"].lower() == "he" else "f")
        return (who, m.end()) if who else None
    rel = re.compile(
        rf"(?:my|our)\s+{KIN_ADJ}(?P<rel>{relation_words(r)})(?:,?\s+(?P<name>{_NAME})(?![\w']),?)?",
        _I,
    ).match(s, pos, end)
    if rel is not None:
        return _relative(r, rel), rel.end()
    if (m := _THEIR_RELATIVE.match(s, pos, end)) is not None and m["rel"].lower() in r.vocabulary.relations:
        # "Her husband Sam works at Micron": the relative of the one "her" stands for
        owner = r.pronoun("m" if m["p"].lower() == "his" else "f")
        if owner is None:
            return None
        relation, gender = r.vocabulary.relation(m["rel"]) or (m["rel"].lower(), None)
        who = (
            m["name"]
            if m["name"] and m["name"] not in NOT_NAMES
            else f"{owner}'s {relation.replace('_', ' ')}"
        )
        r.name_person(who, gender, m.span("name") if m["name"] else None)
        return who, m.end()
    if (m := _KIN_TITLED.match(s, pos, end)) is not None and m["name"] not in NOT_NAMES:
        r.name_person(m["name"], None, m.span("name"))  # "Aunt Rosa got her own place": Rosa
        return m["name"], m.end()
    if (m := _KIN_AS_NAME.match(s, pos, end)) is not None:
        return _kin_called(r, m["rel"]), m.end()
    if (m := _APPOSITION.match(s, pos, end)) is not None and m["name"] not in NOT_NAMES:
        # "our dog Biscuit", "my old roommate Jo": the name is the subject, the words before say who
        r.name_person(m["name"], None, m.span("name"))
        return m["name"], m.end()
    apposed = re.compile(
        rf"(?P<name>{_NAME})(?:,\s+|\s+\()(?:my|our)\s+{KIN_ADJ}(?P<rel>{relation_words(r)})(?:,|\))\s*", _I
    ).match(s, pos, end)
    if apposed is not None and apposed["name"] not in NOT_NAMES:
        return _relative(
            r, apposed
        ), apposed.end()  # "Yaw, my older brother, is …", "Yaw (my brother) works …"
    name = re.compile(_NAME + r"(?![\w'])").match(s, pos, end)
    if (
        name is not None
        and name[0].split(" ", 1)[0] not in NOT_NAMES  # "The Prius got totaled": an article opens no name
        and not _PAST_VERB_OPENING.match(s, pos, end)
        # "Fun!", "Big boy!": a word alone or with a noun is no subject (one before its 's is: "Bob's 65th")
        and (_says_something(s[name.end() : end].strip(" !.?,;:")) or s.startswith("'", name.end()))
    ):
        kin, _, named = name[0].partition(" ")  # "Uncle Bob" after "my uncle Bob": Bob
        if r.vocabulary.relation(kin.lower()) and any(p.name == named for p in r.persons):
            return named, name.end()
        r.name_person(name[0], None, name.span())
        return name[0], name.end()
    if (m := _NAME_IS.match(s, pos, end)) is not None and m["name"] not in NOT_NAMES:
        # "Lena's a pilot now": the 's is "is", not a possessive
        r.name_person(m["name"], None, m.span("name"))
        return m["name"], m.end("name")
    return None


def subject_alone(r: Reading, a: int, b: int) -> str | None:
    """Who the words s[a:b] name, when they name no one but a subject ("my dad", "I", "she"); what reading
    them formed is undone when they are more than that."""
    facts, known = len(r.facts), len(r.known_facts)
    got = subject_of(r, a, b)
    if got is not None and not r.text[got[1] : b].strip():
        return got[0]
    del r.facts[facts:], r.known_facts[known:]
    return None


OBJECT_PRONOUNS = frozenset({"me", "my", "us", "our", "him", "his", "her"})


def object_person(r: Reading, word: str) -> str | None:
    """Whom an object or possessive pronoun of OBJECT_PRONOUNS names ("bumped me to 30mg", "moved him to
    defense"): the speaker, or the one person he or she can be."""
    word = word.lower()
    if word in ("me", "my", "us", "our"):
        return r.speaker
    return r.pronoun("m" if word in ("him", "his") else "f")


def _relative(r: Reading, m: re.Match[str]) -> str:
    """The person "my sister [Ana]" names: Ana (with the fact Ana relation.sister_of speaker), or
    "<speaker>'s sister" when unnamed."""
    relation, gender = r.vocabulary.relation(m["rel"]) or (snake(m["rel"]), None)
    name = m["name"]
    if not name or name in NOT_NAMES:
        who = f"{r.speaker}'s {relation.replace('_', ' ')}"  # "my mom" and "my mother" are one person
        if gender is not None:
            r.name_person(who, gender)  # "my mom lives in Cork. Actually she lives in Galway": she is mom
        return who
    r.name_person(name, gender, (m.start("name"), m.end("name")))
    r.relate(name, relation, m.start(), m.end("name"), 0.9, (m.start("name"), m.end("name")))
    return name


# words before a relation that keep it one ("my college roommate Theo", "my older brother")
KIN_ADJ = (
    r"(?:(?:new|current|old|former|college|school|uni|university|childhood|younger|older|little|big|baby|"
    r"eldest|oldest|youngest|twin|late|favorite|favourite|closest)\s+)?"
)


def _kin_called(r: Reading, word: str) -> str:
    """ "Grandma moved to Brookdale", "Dad's Prius": a parent or grandparent called by the word is the
    speaker's."""
    relation, gender = r.vocabulary.relation(word) or (word.lower(), None)
    who = f"{r.speaker}'s {relation}"
    if gender is not None:
        r.name_person(who, gender)
    return who


_KIN_OBJECT = re.compile(
    r"(?P<rel>mom|mum|dad|mother|father|grandma|grandpa|grandmother|grandfather|nana|granny)(?![\w'])", _I
)
_OBJECT_PRONOUN = re.compile(r"(?P<p>him|her)\b(?!\s+[a-z]+\s+(?:to|into)\b)", _I)


def object_of(r: Reading, pos: int, end: int) -> tuple[str, int] | None:
    """(person, position after) for the object of a verb: him/her, a parent called by the word in any case
    ("we moved grandma"), else what a subject may be ("my dad", "Bob")."""
    if (m := _OBJECT_PRONOUN.match(r.text, pos, end)) is not None:
        who = object_person(r, m["p"])
        return (who, m.end()) if who else None
    if (m := _KIN_OBJECT.match(r.text, pos, end)) is not None:
        return _kin_called(r, m["rel"]), m.end()
    return subject_of(r, pos, end)


_THEIR_RELATIVE = re.compile(
    rf"(?P<p>his|her)\s+(?P<rel>[a-z-]+)(?:,?\s+(?P<name>{_NAME})(?![\w']),?)?(?=\s)", _I
)
_KIN_AS_NAME = re.compile(
    r"(?-i:(?P<rel>Mom|Mum|Dad|Mother|Father|Grandma|Grandpa|Grandmother|Grandfather|Sis|Bro))(?![\w'])"
)
_KIN_TITLED = re.compile(
    r"(?-i:(?:Aunt|Auntie|Uncle|Cousin|Grandma|Grandpa|Nana|Granny)\s+(?P<name>[A-Z][a-z]+))(?![\w'])"
)
_APPOSITION = re.compile(rf"(?:my|our)\s+(?:[a-z-]+\s+){{1,2}}?(?P<name>{_NAME})(?![\w'])", _I)
_NAME_IS = re.compile(
    rf"(?P<name>{_NAME})(?='s\s+(?:a|an|the|now|at|in|on|with|into|still|currently|just|moving|living|working|"
    r"based|engaged|married|pregnant|retired|vegan|vegetarian|doing|playing|studying|teaching|coaching|learning|"
    r"up|down|back|\d))"
)
_BARE_NOUN = re.compile(
    # "Mine is October 30", "it's June 30": no attribute named "mine" or "it"
    r"(?!(?:mine|ours|yours|hers|theirs|it|that|this|there|here|what|he|she|who|which|let)\b)"
    r"(?P<noun>[a-z][\w-]*(?:\s+[a-z][\w-]*){0,2}?"
    r"(?:\s+(?:on|for|of)\s+(?:the|my|our|a)\s+[a-z][\w-]*"  # "Closing on the house is June 12"
    r"|\s+with\s+(?:(?:the|my|our)\s+)?[a-z][\w-]*)?)"  # "dinner with the Lees is saturday at 7"
    r"(?:'s\b|\s+(?:is|was|are|'s|(?:has\s+|got\s+|was\s+)?"
    r"(?:moved|moves|is moving|changed|changes|pushed|bumped|rescheduled|slid|slipped|postponed|delayed)|"
    r"due(?=\s+(?:on\s+|by\s+)?\w+\s+\d|\s+\d))\b)",  # "thesis due june 30": said without "is"
    _I,
)
# "the doctor is lowering my metformin to …": someone changing a value of another's, no attribute "doctor"
_CHANGING_ONES = re.compile(rf"(?:[\w'-]+\s+){{1,3}}?(?:{CHANGING})\s+(?:my|our|his|her|their|the)\b", _I)
_VERB_LIKE_WORDS = "is was can will did does said left went came got had ran won lost quit"
_VERB_LIKE = frozenset(_VERB_LIKE_WORDS.split())


def _says_something(rest: str) -> bool:
    """Whether the words after a capitalised word say something of it: not nothing, and not one noun
    ("Big boy!", "Good call", "Fall season, her games moved …")."""
    head = rest.split(",", 1)[0].strip()
    if not rest or (not head and "," not in rest):
        return False
    return re.fullmatch(r"[a-z]+", head) is None or head in _VERB_LIKE or head.endswith(("s", "ed", "ing"))


DEFINITE = "\x00the"  # the possessor of "the <attribute> is ...": the speaker, if the attribute is known
_NO_HEADS_WORDS = """
    it its that this these those there here let he she i we they you what which who whose everything
    nothing something anything everyone someone it's that's what's
"""
_NO_HEADS = frozenset(_NO_HEADS_WORDS.split())
BARE_OWNER = "\x00bare"  # "Weight is 70 kg": as "the", and its value must look like one ("Diet is hard")


# keys whose value is a code: "the wifi password is sunflower22", "network is Nguyen_5G"
IDENTIFIER = re.compile(
    r"(?:^|_)(?:code|pin|number|password|passcode|extension|room|suite|unit|locker|door|gate|combo|combination|"
    r"network|ssid|plate|id|confirmation|reference|tracking)$"
)
_STATED_AS = re.compile(r"\s*(?:(?:is|was|'s)\s+)?(?:now\s+|only\s+|just\s+)?", _I)


def strong_value(r: Reading, at: int, end: int, codes: bool = True) -> bool:
    """Is what follows `at` (a copula, then the value) an amount, a phone number, an email or (`codes`) a
    code, the clause's value: what only an attribute of someone's takes ("deductible is $1,500")?"""
    start = _STATED_AS.match(r.text, at, end).end()  # type: ignore[union-attr]
    if start >= end or not re.match(r"[$€£\w]", r.text[start]):
        return False
    found = values(r.text[start:end], r.now)
    kinds = ("money", "phone", "email", "code") if codes else ("money", "phone", "email")
    return bool(found) and found[0].start == 0 and found[0].kind in kinds


def possessor(r: Reading, pos: int, end: int) -> tuple[str, int] | None:
    s = r.text
    rels = relation_words(r)
    m = re.compile(rf"(?:my|our)\s+{KIN_ADJ}(?P<rel>{rels})(?:,?\s+(?P<name>{_NAME}))?'s\s+", _I).match(
        s, pos, end
    )
    if m is not None:
        return _relative(r, m), m.end()
    if re.compile(rf"(?:my|our)\s+{KIN_ADJ}(?:{rels})\b(?!')", _I).match(s, pos, end):
        return None  # "my boss Sarah moved to London": a relative as the subject, not my "boss sarah"
    if (m := re.compile(r"(?:my|our)\s+(?:new|current|latest)?\s*", _I).match(s, pos, end)) is not None:
        return r.speaker, m.end()  # "my new goal is 1:58": the goal, now
    if m := re.compile(r"(?:the\s+|a\s+)?(?:new|latest)\s+(?=(?:[\w'-]+\s+){0,3}?(?:is|'s)\b)", _I).match(
        s, pos, end
    ):
        return DEFINITE, m.end()  # "new goal is 1:58": the speaker's, if the attribute is known
    if (m := re.compile(r"(?P<p>his|her)\s+", _I).match(s, pos, end)) is not None:
        who = r.pronoun("m" if m["p"].lower() == "his" else "f")
        return (who, m.end()) if who else None
    if (
        m := re.compile(
            r"the\s+(?=(?:[\w'-]+\s+){0,5}?(?:is|was|'s|got|has|have|moved|changed|slid|slipped|expires|ends|"
            r"falls|will)\b)",
            _I,
        ).match(s, pos, end)
    ) and not _CHANGING_ONES.match(s, m.end(), end):
        return DEFINITE, m.end()  # "the deadline for the passport is ...": the speaker's own matters
    if (
        (m := _BARE_NOUN.match(s, pos, end)) is not None
        and (
            r.vocabulary.attribute(r.vocabulary.normalize(m["noun"]))
            # "Parent conference is next Wednesday at 4": a thing of the speaker's on a day
            or (
                m["noun"].split(" with ")[0][1:].islower()
                and (r.time_at(_booked(s, m.end(), end), end) is not None or recurs(r, m.end(), end))
            )
            # "deductible is $1,500", "network is Nguyen_5G": an amount or a code of the speaker's
            or (
                m["noun"][1:].islower()
                and strong_value(r, m.end(), end, codes=IDENTIFIER.search(snake(m["noun"])) is not None)
            )
            # "Standup moved": the standup held ("it's", "that is" hold nothing: the recent turns stay unread)
            or (
                m["noun"].split()[0].lower() not in _NO_HEADS
                and held_by_head(r, r.speaker, r.vocabulary.normalize(m["noun"])) is not None
            )
        )
    ):
        return BARE_OWNER, pos  # "Rent is 1,450 a month": an attribute the vocabulary knows, the speaker's
    m = re.compile(rf"(?P<name>{_NAME})'s\s+").match(s, pos, end)
    if m is not None and _KIN_AS_NAME.fullmatch(m["name"]):
        return _kin_called(r, m["name"]), m.end()
    if m is not None and m["name"] not in NOT_NAMES:
        r.name_person(m["name"], None, (m.start("name"), m.end("name")))
        return m["name"], m.end()
    return None


# "Dentist is booked for March 10": the words of a booking before the day it is for
_BOOKED_FOR = re.compile(r"\s*(?:booked|scheduled|set|planned|confirmed)\s+(?:in\s+)?(?:for|on)\b", _I)


def _booked(s: str, at: int, end: int) -> int:
    return m.end() if (m := _BOOKED_FOR.match(s, at, end)) is not None else at


def held_by_head(r: Reading, subject: str, key: str, events_only: bool = False):
    """The subject's latest fact whose attribute this key names or ends ("offsite" of "team_offsite"), or
    the event its noun names ("the flight" of "lisbon.fly"; only those when `events_only`)."""
    if not key:
        return None
    verb = _VERB_OF_NOUN.get(key)
    heads = {key, singular(key)}  # "conferences are now the 19th" of a held parent_teacher_conference
    for d in reversed(r.earlier):
        if d.subject != subject:
            continue
        if verb is not None and d.attribute.endswith("." + verb):
            return d
        if not events_only and any(
            d.attribute == k or d.attribute.endswith("_" + k) or k.endswith("_" + d.attribute) for k in heads
        ):
            return d
    return None


# the noun of an event keyed by its verb (events_en: "I'm flying to Lisbon on the 20th" is "lisbon.fly")
_VERB_OF_NOUN = {"flight": "fly", "arrival": "arrive", "departure": "leave", "visit": "visit", "trip": "go"}


# "in Austin" right after a relative's name: where they are ("my brother Luke in Austin says hi")
_IN_PLACE = re.compile(r"\s+(?:in|from)\s+(?P<place>(?-i:[A-Z][a-z]+(?:\s[A-Z][a-z]+)?))(?![\w'])")


def named_relatives(r: Reading, start: int, end: int) -> None:
    """ "my brother Luke says hi", "talked to my sister Ana": a relative named anywhere in a clause is
    that relative, whatever the clause says of them (the relation fact, and where they are when a place
    follows the name), unless the grammar already read them."""
    pattern = r.vocabulary.memo(
        "relative_named_en",
        lambda: re.compile(
            rf"\b(?:my|our)\s+{KIN_ADJ}(?P<rel>{relation_words(r)})\s+(?P<name>{_NAME})(?![\w'])", _I
        ),
    )
    for m in pattern.finditer(r.text, start, end):
        name = m["name"]
        if name in NOT_NAMES or any(
            d.subject == name and d.attribute.startswith("relation.") for d in r.facts
        ):
            continue
        _relative(r, m)
        place = _IN_PLACE.match(r.text, m.end(), end)
        if place is not None and place["place"] not in NOT_NAMES and not r.times_in(*place.span("place")):
            add_fact(r, name, "residence", place["place"], m.start(), place.end(), HEDGED, False, "place",
                     place.span("place"))  # fmt: skip


# "my GP Dr. Patel", "our dentist, Dr. Kim", "my advisor dr okafor", "my landlord mr petrakis": the one who
# sees to the speaker, by their title
_MY_CARER = re.compile(
    r"\b(?:my|our)\s+(?P<role>gp|pcp|doctor|family doctor|primary care doctor|pediatrician|dentist|therapist|"
    r"psychiatrist|vet|ob|ob-gyn|dermatologist|advisor|adviser|tutor|lawyer|accountant|physio|physiotherapist|"
    r"landlord|landlady|teacher|coach|trainer|supervisor|mentor)"
    r"\s*,?\s+(?P<name>(?-i:(?:Dr|Mr|Mrs|Ms|Prof)\.?\s+[A-Z][\w'-]+))",
    _I,
)
_MY_OR_OUR = re.compile(r"\b(?:my|our)\s", _I)
_CARER_KEYS = {
    "gp": "doctor",
    "pcp": "doctor",
    "family doctor": "doctor",
    "primary care doctor": "doctor",
    "adviser": "advisor",
    "physio": "physiotherapist",
    "landlady": "landlord",
}


def named_carers(r: Reading, start: int, end: int) -> None:
    """The speaker's doctor (dentist, therapist …) named by title anywhere in a clause."""
    for m in _MY_CARER.finditer(r.text, start, end):
        key = _CARER_KEYS.get(m["role"].lower(), m["role"].lower())
        if not any(d.attribute == key and d.value == m["name"] for d in r.facts):
            add_fact(r, r.speaker, key, m["name"], m.start(), m.end(), 0.9, False, "person", m.span("name"))


def named_in_clause(r: Reading, start: int, end: int) -> None:
    """The relatives and the carers a clause names, whatever else it says (see the two above)."""
    if _MY_OR_OUR.search(r.text, start, end) is not None:  # (most clauses name no one of the speaker's)
        named_relatives(r, start, end)
        named_carers(r, start, end)
