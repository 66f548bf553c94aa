"""The English grammar's verb predicates: what follows a clause's subject ("lives in Lisbon", "joined
Meta", "is vegetarian", "is 34", "loves jazz", "has two kids") and the fact it states about that subject.
The subject itself is found by memql.services.extract.rules_en."""

from __future__ import annotations

import re

from memql.lang.time.numbers import EN_NUMBER_RE, parse_en_number

from .common import Reading, latest_held, latest_organization, singular
from .floors import floor_en
from .moves_en import moved_someone
from .patterns_en import (
    _ADVERBS,
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
    _WH_OR_PRONOUN,
    TITLED_NAME,
)
from .places_en import PLACES_EN, works_in
from .schools_en import goes_to_school
from .statuses_en import STATUSES
from .subjects_en import held_by_head
from .values_en import add_fact, value_of
from .vocabulary import snake

_WORKPLACE = re.compile(
    r"\b(?:office|branch|site|campus|team|department|division|hq|headquarters|desk)$", re.I
)
# "with us", "with my parents" (not "with my aunt in Phoenix": the place is the home there)
_WITH_US = re.compile(
    r"with\s+(?:us|me|(?:my|our)\s+[a-z-]+(?:\s+and\s+[a-z-]+)?)\b(?!\s+(?:in|near)\s)", re.I
)
_OFFICE_IN = re.compile(
    r"(?:(?:the|our|my|their|his|her)\s+)?(?P<place>(?-i:[A-Z])[\w'-]*(?:\s+(?-i:[A-Z])[\w'-]*)?)\s+"
    r"(?:office|branch|site|campus|hq|headquarters)",
    re.I,
)
_DOING_FOR = re.compile(
    _ADVERBS + r"(?:is|'s|am|'m|are|'re)\s+(?:now\s+)?(?P<title>(?!(?:working|staying|waiting|going|looking|"
    r"leaving|heading|coming|flying|running|voting|rooting|saving|paying|asking|applying)\b)[a-z]+ing"
    r"(?:\s+(?!for\b)[a-z]+){0,2})\s+for\s+(?P<org>(?-i:[A-Z])[\w&'.-]*(?:\s+(?-i:[A-Z])[\w&'.-]*)*)"
    r"\s*,?\s*now\b",
    re.I,
)
_AT_ORG = re.compile(r"\s+(?:at|for|with)\s+(?=(?-i:[A-Z]))", re.I)
_AT_SCHOOL = re.compile(r"\s+at\s+(?=(?-i:[A-Z]))", re.I)
_VAGUE = re.compile(r"an?|(?:a\s+)?(?:few|couple(?:\s+of)?|dozen)", re.I)  # "I have a few plans": no count


_ANOTHER = re.compile(r"\b(?:too|also|as well|another|second|both)\b", re.I)
_BEING_AT = re.compile(r"(?<![a-z])(?:am|'m|are|'re|is|'s|been)\s+(?:now\s+)?(?:at|with)\s*$", re.I)


def _holds(r: Reading, subject: str, key: str) -> bool:
    return any(d.subject == subject and d.attribute == key for d in r.earlier)


_AT_NOW_KEYS = frozenset({"employer", "school"})


def _organization_at(r: Reading, subject: str, key: str, at: int, pos: int, end: int, confidence, correction):
    """The organization named from `at` on as the subject's `key`; whether there was one."""
    got = value_of(r, at, end, "organization")
    if got is not None:
        add_fact(r, subject, key, got[0], pos, end, confidence, correction, "organization", (got[1], got[2]))
    return got is not None


def predicate(r: Reading, subject: str, pos: int, at: int, end: int, confidence: float, correction: bool):
    s = r.text
    if works_in(r, subject, pos, at, end, confidence, correction):
        return True  # "I work in Seattle now" (places_en.py)
    if subject == r.speaker and moved_someone(r, pos, at, end, confidence, correction):
        return True
    if (m := _CHANGED_MY.match(s, at, end)) is not None:  # "I changed my number to 555-0142"
        owner = re.search(r"\b(?P<p>his|her)\s+$", s[at : m.start("attr")], re.I)
        if m["whose"].lower() in ("my", "our"):
            subject = r.speaker  # "the doctor upped my metformin to 1000 mg": mine, whoever changed it
        elif owner is not None:  # "we moved her bedtime to 8": hers, when "her" is one known person
            subject = r.pronoun("m" if owner["p"].lower() == "his" else "f") or subject
        key = r.vocabulary.normalize(m["attr"])
        kind = r.vocabulary.kind(key)
        value = value_of(r, m.end(), end, kind) if key else None
        if value is not None:
            v, v0, v1, rejected = value
            add_fact(r, subject, key, v, pos, end, confidence, correction, kind, (v0, v1), rejected)
            return True
    if _kept_thing(r, subject, pos, at, end, confidence, correction):
        return True  # before the verbs of work: "switched to the flute" names no employer
    for pattern, key, kind in _PREDICATES:
        m = pattern.match(s, at, end)
        if m is None:
            continue
        if key == "birth":
            span = r.time_at(m.end(), end)
            key, kind = ("birthday", "date") if span is not None else ("birthplace", "place")
        if key == "residence" and (home := _WITH_US.match(s, m.end(), end)) is not None:
            # "she moved in with us": the speaker's home, in the words said
            add_fact(r, subject, key, home[0], pos, end, confidence, correction, "text", home.span())
            return True
        if key == "car" and _ANOTHER.search(s, at, end):
            return False  # "Ravi has a Kia too": perhaps a second car, not the one held replaced
        back = key == "residence" and m[0].rstrip().casefold().endswith("back in")
        if back and not _holds(r, subject, key):
            continue  # "I'm back in Paris for a conference": a visit, unless one lived somewhere before
        value = value_of(r, m.end(), end, kind)
        if value is None:
            return False
        v, v0, v1, rejected = value
        if key == "employer" and str(v).casefold() in PLACES_EN:
            key, kind = "residence", "place"  # "she left boise for denver": a city one left for, a home
        if kind == "organization" and TITLED_NAME.match(str(v)):
            return False  # "he's with Mr. Baker now": a person one goes to (corrections_en), no employer
        if key == "employer" and _BEING_AT.search(m[0]):
            # "Ivy is at Oak Ridge now" of a pupil: where she studies, not works
            key = latest_organization(r, subject, _AT_NOW_KEYS) or key
        if key in ("residence", "work_location") and _WORKPLACE.search(str(v)):
            # "moved to the Paris office": a workplace, not a home; the place it names is where one works
            office = _OFFICE_IN.fullmatch(str(v))
            if office is None:
                return False
            key, v = "work_location", office["place"]
            v0 = v0 + office.start("place")
            v1 = v0 + len(v)
        org = _AT_ORG.search(s, v0, v1) if key == "job_title" else None
        # "I work as a backend engineer at Shopify": the title, and the employer after "at"
        if org is not None and _organization_at(
            r, subject, "employer", org.end(), pos, end, confidence, correction
        ):
            v1 = org.start()
            v = s[v0:v1]
        add_fact(r, subject, key, v, pos, end, confidence, correction, kind, (v0, v1), rejected)
        return True
    if _held_change(r, subject, pos, at, end, confidence, correction):
        return True
    if (m := _NEW_HOLDER.match(s, at, end)) is not None and not _NEGATION.search(s, at, m.start("role")):
        # "Leo has a new coach this season, Ms. Ferreira": the role's holder, which replaces the last one
        key = r.vocabulary.normalize(m["role"])
        add_fact(r, subject, key, m["name"], pos, end, confidence, correction, "person", m.span("name"))
        return True
    if (m := _AGE.match(s, at, end)) is not None:
        n = parse_en_number(m["n"])
        add_fact(r, subject, "age", n, pos, end, confidence, correction, "number", (m.start("n"), m.end("n")))
        return True
    for pattern, key in STATUSES:
        if (m := pattern.match(s, at, end)) is not None and not _NEGATION.search(s, at, m.start("value")):
            v = m["value"].lower()
            add_fact(
                r, subject, key, v, pos, end, confidence, correction, "text", (m.start("value"), m.end())
            )
            if key == "grade" and (school := _AT_SCHOOL.match(s, m.end(), end)) is not None:
                # "started kindergarten at Maple Elementary": the grade, and the school
                _organization_at(r, subject, "school", school.end(), pos, end, confidence, correction)
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
    if (m := _DOING_FOR.match(s, at, end)) is not None:
        # "he's selling houses for Redfin now", "is driving for UPS now": the work, and whom it is for
        add_fact(
            r, subject, "job_title", m["title"], pos, end, confidence, correction, "text", m.span("title")
        )
        org = m.span("org")
        add_fact(r, subject, "employer", m["org"], pos, end, confidence, correction, "organization", org)
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


_INSTRUMENTS = (
    r"piano|keyboard|violin|viola|cello|double bass|bass|guitar|electric guitar|drums|drum kit|trumpet|"
    r"trombone|tuba|french horn|horn|flute|clarinet|oboe|bassoon|saxophone|sax|harp|ukulele|banjo|"
    r"mandolin|accordion|harmonica|recorder|organ|synth|synthesizer|xylophone|marimba"
)
# "Max plays the violin", "he's on the trumpet now", "she took up the cello": the instrument one plays
_INSTRUMENT = re.compile(
    _ADVERBS + r"(?:plays?|playing|am playing|'m playing|is playing|'s playing|is on|'s on|am on|'m on|"
    r"took up|picked up|has taken up|'s taken up|switched to|moved on to|is learning|'s learning|am learning|"
    r"'m learning|is into|'s into|am into|'m into|started)\s+(?:the\s+)?(?P<value>" + _INSTRUMENTS + r")\b",
    re.I,
)
# "my son plays soccer", "he switched to basketball this season", "she does gymnastics": the sport one plays
_SPORTS = (
    r"soccer|basketball|baseball|football|ice hockey|field hockey|hockey|tennis|volleyball|lacrosse|golf|"
    r"rugby|cricket|softball|badminton|table tennis|ping pong|water polo|flag football|pickleball|squash|"
    r"gymnastics|swimming|track|cross country|wrestling|karate|judo|taekwondo|fencing|ballet|figure skating|"
    r"skiing|rowing"
)
_SPORT = re.compile(
    _ADVERBS
    + r"(?:plays?|playing|am playing|'m playing|is playing|'s playing|took up|picked up|has taken up|"
    r"'s taken up|switched to|moved on to|is into|'s into|am into|'m into|started|does|is doing|'s doing|"
    r"is on the|'s on the|joined the|made the)\s+(?P<value>" + _SPORTS + r")\b"
    r"(?!\s+(?:balls?|shoes|tickets?|games?|match(?:es)?|on tv)\b)",  # "picked up soccer shoes": no sport
    re.I,
)
# "I take the 7:45 train", "she catches the 42 bus": the service one rides, keyed by the vehicle
_RIDE = re.compile(
    _ADVERBS + r"(?:take|takes|taking|am taking|'m taking|catch|catches|am catching|'m catching|ride|rides|"
    r"get|gets|am on|'m on|is on|'s on|are on|'re on)\s+the\s+(?P<value>[\w:.]+(?:\s*[ap]\.?m\.?)?)"
    r"(?:\s+(?P<vehicle>train|bus|ferry|tram|shuttle|boat|coach)\b|"
    r"(?=\s*(?:now|instead|these days|[,.!]|$)))",  # "I catch the 7:40 now": the one held
    re.I,
)
_VEHICLES = frozenset({"train", "bus", "ferry", "tram", "shuttle", "boat", "coach"})
# "Winter schedule, so it's the 7:40 boat now": the one ride held, at a new time
_RIDE_NOW = re.compile(
    r"(?:so\s+)?(?:it'?s|it is)\s+(?:now\s+)?the\s+(?P<value>\d{1,2}(?::\d{2})?(?:\s*[ap]\.?m\.?)?)\s+"
    r"(?P<vehicle>train|bus|ferry|tram|shuttle|boat|coach)\b(?=.*\bnow\b)",
    re.I,
)


def ride_now(r: Reading, pos: int, at: int, end: int, confidence: float) -> bool:
    """ "it's the 7:40 boat now": the speaker's one held ride (of any vehicle) at the time said."""
    if (m := _RIDE_NOW.match(r.text, at, end)) is None:
        return False
    rides = {d.attribute for d in r.earlier if d.subject == r.speaker and d.attribute in _VEHICLES}
    if len(rides) != 1:
        return False
    add_fact(r, r.speaker, rides.pop(), m["value"], pos, end, confidence, True, "text", m.span("value"))
    return True


# "I bike to work", "she takes the bus to school", "I take the train instead" (of a commute held): how
# one gets to work or school
_COMMUTE = re.compile(
    _ADVERBS + r"(?:(?:usually|normally|always|mostly|generally)\s+)?"
    r"(?P<value>(?:bike|bikes|biking|cycle|cycles|cycling|drive|drives|driving|walk|walks|walking|carpool|"
    r"carpools|carpooling|run|runs|running)|(?:take|takes|taking|ride|rides|riding|catch|catches|catching)\s+"
    r"(?:the\s+|a\s+|my\s+)?(?:train|bus|subway|tube|metro|ferry|tram|light rail|bike|e-bike|scooter|"
    r"motorcycle|motorbike|shuttle)|"
    r"(?:work|works|working)\s+(?:from\s+home|remotely|remote)|wfh)"  # "i work from home now": no commute
    r"(?:(?P<to>\s+(?:in\s+)?to\s+(?:work|the office|school|class|campus|uni)\b|"
    r"\s+from\s+(?-i:[A-Z])\w*(?:\s+(?-i:[A-Z])\w*)?\s+to\s+(?-i:[A-Z])\w*(?=.*\b(?:every|each|daily)\b))|"
    r"(?=\s*(?:now|instead|these days|nowadays|from now on)?\s*[,.!]*\s*$))",
    re.I,
)
# "I pay $1,450 a month in rent", "my landlord charges us 2,100" (read as the speaker's clause): one's rent
_PAYS_RENT = re.compile(
    _ADVERBS + r"(?:(?:pay|pays|am paying|'m paying|are paying|'re paying)|(?:(?:my|our|the)\s+landlord\s+)?"
    r"(?P<charge>charges|is charging|'s charging)\s+(?:me|us))\s+(?:about\s+|around\s+|only\s+)?"
    r"(?P<value>[$€£]?\d[\d,]*(?:\.\d+)?k?(?:\s+(?:a|per|each)\s+month)?)(?P<rent>\s+(?:in|for)\s+rent)?\b",
    re.I,
)
_PER_PERIOD = re.compile(
    _ADVERBS + r"(?:drink|drinks|have|has|smoke|smokes|eat|eats|take|takes|cut back to|cut down to|"
    r"(?:am|'m|is|'s)\s+down\s+to|down to|up to|am up to|'m up to|only have|only drink)\s+"
    r"(?:about\s+|around\s+|like\s+|only\s+|just\s+)?(?P<n>\d{1,2}|" + EN_NUMBER_RE + r")\s+"
    r"(?P<thing>[a-z]+)\s+(?:a|per|each|every)\s+(?P<per>day|week|night)\b",
    re.I,
)
# "I quit coffee completely", "she stopped drinking soda", "gave up smoking": none a day from now on
_QUIT = re.compile(
    _ADVERBS
    + r"(?:quit|quits|stopped|gave up|have quit|'ve quit|has quit|'s quit|have given up|'ve given up|"
    r"cut out)\s+(?:drinking\s+|smoking\s+|eating\s+|having\s+)?(?P<thing>[a-z]+)",
    re.I,
)
_TAUGHT = re.compile(
    _ADVERBS + r"(?:(?:am|'m|is|'s|are|'re)\s+(?:now\s+)?)?"
    r"(?P<verb>teach|teaches|teaching|coach|coaches|coaching)\s+(?:the\s+)?(?P<value>[a-z0-9][\w'-]*(?:\s+(?!(?:in|at|for|to|with|on|now|these|this|since|because|and|but)\b)"
    r"[a-z][\w'-]*){0,3})(?=[\s,.!;]|$)",
    re.I,
)
_TAUGHT_AT = re.compile(
    r"\s+(?:at|for)\s+(?:the\s+)?(?P<org>(?-i:[A-Z][\w&'-]*)(?:\s+(?-i:[A-Z][\w&'-]*)){0,3})", re.I
)
# "Beth studies law at McGill", "I'm majoring in physics": the field of study
_STUDY = re.compile(
    _ADVERBS + r"(?:study|studies|am studying|'m studying|is studying|'s studying|major in|majors in|"
    r"am majoring in|'m majoring in|is majoring in|'s majoring in|switched to studying|is doing a degree in|"
    r"'s doing a degree in)\s+(?!at\b)(?P<value>[a-z][a-z -]{1,40}?)"
    r"(?:\s+(?:at|in)\s+(?P<org>(?-i:[A-Z]).+?))?"
    r"(?:\s+now)?[\s.!]*$",
    re.I,
)
# "Pete is the on-call lead", "Dana took over as on-call lead": a role one person holds at a time
_ROLE = re.compile(
    _ADVERBS + r"(?:is|'s|became|has become|'s become|is now|took over as|has taken over as|'s taken over as|"
    r"stepped in as|stepped up as|was named|was made|got made|replaced \w+ as|is our new|'s our new|"
    r"is the new|'s the new)\s+(?:the\s+|our\s+|my\s+|new\s+)*"
    r"(?P<value>[a-z][\w-]*(?:\s+[a-z][\w-]*){0,3}?\s+"
    r"(?:lead|manager|coordinator|captain|chair|head|owner|contact|rep|representative|organizer|"
    r"organiser|point of contact|treasurer|secretary|coach|admin|supervisor|on-call|boss))\b",
    re.I,
)
# "She got traded to the Storm": a player's new team
_TRADED = re.compile(
    _ADVERBS + r"(?:(?:got|was|has been|'s been|just got|just)\s+)?(?:traded|loaned|loaned out|sold)\s+to\s+"
    r"(?P<value>(?:the\s+)?(?-i:[A-Z])[\w'-]*(?:\s+(?-i:[A-Z])[\w'-]*){0,2})",
    re.I,
)
_OWNERS = re.compile(r"^(?:(?:the|our|my|new)\s+)+", re.I)
# "I'm training for a 10K", "she's training for the Boston marathon": the race one trains for
_TRAINING = re.compile(
    _ADVERBS + r"(?:am|'m|is|'s|are|'re|have been|'ve been|has been|'s been)\s+(?:now\s+)?training\s+for\s+"
    r"(?:a|an|the|my|his|her)\s+(?P<value>(?:[\w-]+\s+){0,3}?(?:marathon|half(?:[\s-]marathon)?|\d+\s*k|"
    r"triathlon|ironman|ultra|race|century))\b",
    re.I,
)
_RUNS_THE_TEAM = re.compile(
    _ADVERBS
    + r"(?:is|'s|has been|'s been)\s+(?:now\s+)?(?:running|leading|managing|heading)\s+(?:the|our|my)\s+"
    r"(?:team|department|dept|group|office|division|unit)\b",
    re.I,
)
# "He's up to 17 kilos", "I'm down to 72 kg", "she's at 18 pounds": a measure, its attribute named by its
# unit
_MEASURE = re.compile(
    _ADVERBS
    + r"(?:(?:am|'m|is|'s|are|'re|went|has gone|'s gone|got)\s+(?:now\s+)?(?:up|down|back(?:\s+up|\s+down)?)"
    r"\s+to\s+|(?:am|'m|is|'s|are|'re)\s+(?:now\s+)?(?:(?:at|about|around|only|just)\s+)?)(?P<value>\d+(?:[.,]\d+)?\s*(?P<unit>kilos?|kilograms?|kgs?|pounds|lbs?|stone|cm|centimet(?:er|re)s|"
    r"met(?:er|re)s|feet|foot|inches))\b",
    re.I,
)
_UNIT_ATTRIBUTE = {"cm": "height", "feet": "height", "foot": "height", "inches": "height", "met": "height"}


def _kept_thing(r: Reading, subject: str, pos: int, at: int, end: int, confidence: float, correction: bool):
    """The instrument, the ride, the field of study, a role held, a measure (see the patterns above)."""
    s = r.text
    if (m := _INSTRUMENT.match(s, at, end)) is not None and not _NEGATION.search(s, at, m.start("value")):
        value = m["value"].lower()
        add_fact(r, subject, "instrument", value, pos, end, confidence, correction, "text", m.span("value"))
        return True
    if (m := _SPORT.match(s, at, end)) is not None and not _NEGATION.search(s, at, m.start("value")):
        add_fact(
            r, subject, "sport", m["value"].lower(), pos, end, confidence, correction, "text", m.span("value")
        )
        return True
    if (m := _PER_PERIOD.match(s, at, end)) is not None and not _NEGATION.search(s, at, m.start("n")):
        # "I drink about four coffees a day" … "cut back to one coffee a day": how many, per day
        thing = singular(m["thing"].lower())  # coffees, glasses: one coffee, one glass
        key = f"{snake(thing)}.per_{m['per'].lower()}"
        n = parse_en_number(m["n"]) if not m["n"].isdigit() else int(m["n"])
        add_fact(r, subject, key, n, pos, end, confidence, correction, "number", m.span("n"))
        return True
    if (m := _QUIT.match(s, at, end)) is not None:
        thing = {"smoking": "cigarette", "cigarettes": "cigarette"}.get(
            m["thing"].lower(), m["thing"].lower()
        )
        per = singular(thing) + ".per_"
        held = latest_held(r, lambda d: d.subject == subject and d.attribute.startswith(per))
        for d in held.values():  # "four coffees a day" -> 0 a day
            add_fact(r, subject, d.attribute, 0, pos, end, confidence, correction, "number", m.span("thing"))
        if held:
            return True
    if (m := _TAUGHT.match(s, at, end)) is not None and not _NEGATION.search(s, at, m.start("value")):
        # "Pablo teaches piano in Seville", "he's coaching basketball now": what one teaches or coaches
        key = "coaching" if m["verb"].lower().startswith("coach") else "teaching"
        add_fact(r, subject, key, m["value"], pos, end, confidence, correction, "text", m.span("value"))
        if (where := _TAUGHT_AT.match(s, m.end(), end)) is not None:  # "teaches chemistry at Lincoln High"
            add_fact(r, subject, "employer", where["org"], pos, end, confidence, correction, "organization",
                     where.span("org"))  # fmt: skip
        return True
    if goes_to_school(r, subject, pos, at, end, confidence, correction):
        return True
    if (m := _RIDE.match(s, at, end)) is not None and (m["vehicle"] or re.match(r"\d", m["value"])):
        rides = [d.attribute for d in r.earlier if d.subject == subject and d.attribute in _VEHICLES]
        key = m["vehicle"].lower() if m["vehicle"] else (rides[-1] if rides else None)
        if key is not None:
            add_fact(r, subject, key, m["value"], pos, end, confidence, correction, "text", m.span("value"))
            return True
    if (m := _PAYS_RENT.match(s, at, end)) is not None and (m["rent"] or m["charge"]):
        add_fact(r, subject, "rent", m["value"], pos, end, confidence, correction, "text", m.span("value"))
        return True
    m = _COMMUTE.match(s, at, end)
    if (
        m is not None
        and (m["to"] or _holds(r, subject, "commute") or re.match(r"work|wfh", m["value"], re.I))
        and not _NEGATION.search(s, at, m.start())
    ):
        value = m["value"].lower()
        add_fact(r, subject, "commute", value, pos, end, confidence, correction, "text", m.span("value"))
        return True
    if (m := _STUDY.match(s, at, end)) is not None and not _NEGATION.search(s, at, m.start("value")):
        add_fact(r, subject, "major", m["value"], pos, end, confidence, correction, "text", m.span("value"))
        if m["org"]:
            add_fact(
                r,
                subject,
                "school",
                m["org"],
                pos,
                end,
                confidence,
                correction,
                "organization",
                m.span("org"),
            )
        return True
    if floor_en(r, subject, pos, at, end, confidence, correction):
        return True
    if (m := _TRADED.match(s, at, end)) is not None:
        add_fact(r, subject, "team", m["value"], pos, end, confidence, correction, "text", m.span("value"))
        return True
    if (m := _TRAINING.match(s, at, end)) is not None:
        add_fact(r, subject, "race", m["value"], pos, end, confidence, correction, "text", m.span("value"))
        return True
    if subject != r.speaker and (m := _RUNS_THE_TEAM.match(s, at, end)) is not None:
        # "Karen left, Tom is running the team now": the one who runs the speaker's team is their manager
        add_fact(r, r.speaker, "manager", subject, pos, end, confidence, correction, "person", (pos, at))
        return True
    if subject != r.speaker and (m := _ROLE.match(s, at, end)) is not None:
        if _NEGATION.search(s, at, m.start("value")):
            return False
        # the role is the speaker's world's ("our on-call lead"); the holder is its value, so the next
        # holder supersedes this one
        # "Marcus is our lead now" after "our team lead is Priya": a bare role word is the one held
        key = r.vocabulary.normalize(snake(_OWNERS.sub("", m["value"])))  # (my boss, my supervisor: manager)
        if (held := held_by_head(r, r.speaker, key)) is not None:
            key = held.attribute
        add_fact(
            r, r.speaker, key, subject, pos, end, confidence, correction, "person", (pos, pos + len(subject))
        )
        return True
    if (m := _MEASURE.match(s, at, end)) is not None:
        unit = m["unit"].lower()
        key = next((v for u, v in _UNIT_ATTRIBUTE.items() if unit.startswith(u)), "weight")
        add_fact(r, subject, key, m["value"], pos, end, confidence, correction, "text", m.span("value"))
        return True
    return False


# "Tom has a white Audi now", "Beth is doing architecture now": a vague verb whose attribute is the one
# the subject already holds a value of (a product for a name; an activity for lower-case words)
_HELD_VERB = re.compile(
    _ADVERBS
    + r"(?:has|'s got|has got|got|bought|has bought|'s bought|just got|just bought|drives|is driving|"
    r"'s driving|is doing|'s doing|am doing|'m doing|does|switched to|has switched to|'s switched to|"
    r"changed to|moved on to|signed up for|registered for|entered)\s+"
    r"(?:an?\s+|the\s+)?(?:(?:my|his|her|our|their)\s+(?:\w+'s\s+)?)?(?:new\s+|old\s+|used\s+)?",
    re.I,
)  # "he's driving my mom's old Civic": the possessor is no value
_ACTIVITIES = frozenset({"major", "instrument", "sport", "diet", "race"})


_NEW_HOLDER = re.compile(
    _ADVERBS
    + r"(?:has|have|'s got|'ve got|got)\s+(?:a|an)\s+new\s+(?P<role>coach|teacher|tutor|doctor|dentist|"
    r"therapist|manager|boss|landlord|nanny|babysitter|roommate|flatmate|vet|trainer|lawyer|accountant|"
    r"mentor|advisor|adviser|supervisor)(?:\s+(?:this|for the)\s+(?:season|year|term|semester|month|week))?"
    r",?\s+(?:(?:called|named)\s+)?(?P<name>(?-i:(?:(?:Mr|Mrs|Ms|Miss|Dr|Prof|Coach)\.?\s+)?[A-Z][a-z]+"
    r"(?:\s+[A-Z][a-z]+)?))",
    re.I,
)


def _held_change(r: Reading, subject: str, pos: int, at: int, end: int, confidence: float, correction: bool):
    s = r.text
    m = _HELD_VERB.match(s, at, end)
    if m is None or _NEGATION.search(s, at, m.end()):
        return False
    change = re.search(r"switched|changed|moved on|bought", m[0], re.I) is not None
    now = re.search(r"\b(?:now|these days|nowadays|anymore|instead)\b", s[m.end() : end], re.I) is not None
    if not (change or now):
        return False  # "Tom has a Volvo" alone may be a second car; "now" or a change says it replaced one
    held = [
        d for d in reversed(r.earlier) if d.subject == subject and not d.attribute.startswith("relation.")
    ]
    for d in held:
        wanted = "product" if d.kind == "product" else "text" if d.attribute in _ACTIVITIES else None
        if wanted is None:
            continue
        got = value_of(r, m.end(), end, wanted)
        if got is None or (wanted == "text" and str(got[0])[:1].isupper()):
            continue
        add_fact(r, subject, d.attribute, got[0], pos, end, confidence, correction, wanted, (got[1], got[2]))
        return True
    return False
