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

from memql.lang.time.numbers import EN_NUMBER_RE, parse_en_number

from .common import BOUND, HEDGED, Draft, Item, Reading, strip_span, time_value
from .vocabulary import snake

_I = re.I
_SPACE = re.compile(r"\s+")
_ENGLISH_RELATIONS = None  # filled from the vocabulary on first use (see _relation_re)
_NAME = r"(?-i:[A-Z][a-z]+(?:[- ][A-Z][a-z]+)?)"
NOT_NAMES = frozenset(
    "I The This That These Those It Its My Our Your His Her Their We He She They There Here What When Where "
    "Who Whom Whose How Why Which Yes No Ok Okay Oh Well So And But Or Also Actually Correction Sorry Today "
    "Tomorrow Yesterday Monday Tuesday Wednesday Thursday Friday Saturday Sunday January February March "
    "April May June July August September October November December Just Now Then Maybe Please Thanks "
    "Hey Hi Hello Btw Anyway Update Scratch Wait Nope Mine Everyone Nobody Someone Everything Nothing "
    "Last Next Every Each All Both Dear Mr Mrs Ms Dr".split()
)

_DISCOURSE = re.compile(
    r"(?:(?:oh|ok|okay|so|well|also|and|but|btw|by the way|anyway|hey|hi|yeah|yes|fyi|update|news|"
    r"good news|guess what|just so you know|quick update|heads up|one more thing|in other news|"
    r"back from [^,.:;]+|oh and)\b[\s,:;!.\-]*)+",
    _I,
)
_CORRECTION = re.compile(
    r"(?:actually|correction|sorry|oops|no wait|wait|no no|scratch that|strike that|"
    r"(?:scratch|ignore|forget|disregard) what i (?:said|told you)(?: (?:about|regarding|on) "
    r"(?P<about>[^,:.;]+))?|i meant(?: to say)?|i mean|make that|let me correct (?:that|myself)|"
    r"to correct myself|my bad|my mistake|i was wrong|i got (?:that|it) wrong|i misspoke|no|nope|"
    r"not quite|small correction|one correction)\b[\s,:;.!\-–—]*",
    _I,
)
_HEDGE = re.compile(r"i (?:think|believe|guess|suppose|reckon)(?: that)?\s+", _I)
_QUESTION_START = re.compile(
    r"(?:is|are|am|was|were|do|does|did|can|could|will|would|should|shall|have|has|what|when|where|who|"
    r"whom|whose|how|why|which|isn't|aren't|don't|doesn't|didn't|won't)\b",
    _I,
)
_HYPOTHETICAL = re.compile(
    r"\b(?:if|unless|suppose|supposing|imagine|what if|in case|whether|would|wouldn't|could|couldn't|"
    r"might|maybe|perhaps|possibly|hopefully|wish|wishes|'d|thinking (?:about|of)|considering|dream of|"
    r"plan(?:s|ning)? to|want(?:s|ed)? to|hope to|hoping to|going to|gonna)\b",
    _I,
)
_CONDITIONAL = re.compile(r"(?:if|unless|suppose|supposing|imagine|what if|in case|whether|when)\b", _I)
_PAST = re.compile(r"\b(?:\w+ed|was|were|began|took|got|have|'ve|has)\b", _I)
_REPORTED = re.compile(r"\b(?:said|says|told me|tells me|heard|apparently|claims|rumou?r)\b", _I)
_NEGATION = re.compile(r"\b(?:not|n't|never|no longer)\b", _I)
_ADVERBS = (
    r"(?:(?:now|currently|just|finally|recently|actually|still|also|already|officially|both|all|"
    r"really|happily|then|eventually|permanently)\s+)*"
)

# verb predicates: (pattern after the subject, attribute, value kind)
_PREDICATES: tuple[tuple[re.Pattern[str], str, str], ...] = tuple(
    (re.compile(_ADVERBS + pattern + r"\s+" + _ADVERBS, _I), key, kind)
    for pattern, key, kind in (
        (r"(?:live|lives|am living|'m living|are living|'re living|is living|'s living|have been living|"
         r"'ve been living|has been living|have lived|'ve lived|has lived|reside|resides|am residing|"
         r"'m residing|am based|'m based|are based|'re based|is based|'s based|am settled|'m settled|"
         r"settled|live now|stay|stays|am staying|'m staying)\s+(?:down\s+)?(?:in|at|near|outside|on)",
         "residence", "place"),
        (r"(?:moved|have moved|'ve moved|has moved|'s moved|relocated|have relocated|'ve relocated|"
         r"has relocated|am moving|'m moving|are moving|'re moving|is moving|'s moving|have now moved)"
         r"\s+(?:back\s+|over\s+|out\s+|away\s+|house\s+|permanently\s+)?(?:to|into)", "residence", "place"),
        (r"(?:am|'m|are|'re|is|'s)\s+(?:now\s+)?(?:living\s+)?in(?=\s+" + _NAME + r")(?=.*\bnow\b)",
         "residence", "place"),
        (r"(?:work|works|am working|'m working|are working|'re working|is working|'s working|"
         r"have been working|'ve been working|has been working)\s+(?:at|for)", "employer", "organization"),
        (r"(?:started|start|am starting|'m starting|is starting|'s starting|began|have started|"
         r"'ve started|has started)\s+(?:a\s+(?:new\s+)?(?:job|position|role)\s+|working\s+|work\s+)?"
         r"(?:at|with|for)", "employer", "organization"),
        (r"(?:joined|have joined|'ve joined|has joined|'s joined|am joining|'m joining|is joining)",
         "employer", "organization"),
        (r"(?:got|took|accepted|landed|have accepted|'ve accepted)\s+(?:a|an|the)\s+(?:new\s+)?"
         r"(?:job|position|role|offer)\s+(?:at|with|from)", "employer", "organization"),
        (r"(?:switched|changed|moved)\s+(?:jobs|companies|employers)\s+(?:over\s+)?to|switched\s+to|"
         r"moved\s+over\s+to", "employer", "organization"),
        (r"(?:am|'m|are|'re|is|'s)\s+(?:now\s+)?(?:employed|hired)\s+(?:by|at)", "employer", "organization"),
        (r"(?:am|'m|are|'re|is|'s)\s+(?:now\s+)?at(?=\s+" + _NAME + r")(?=.*\bnow\b)", "employer",
         "organization"),
        (r"(?:work|works|am working|'m working|is working|'s working)\s+as(?:\s+an?)?", "job_title", "text"),
        (r"(?:got|was|have been|'ve been|has been)\s+promoted\s+to(?:\s+an?)?", "job_title", "text"),
        (r"(?:was|were)\s+born\s+(?:on|in)", "birth", "text"),
        (r"(?:drive|drives|am driving|'m driving)\s+an?", "car", "product"),
        (r"(?:turned|am turning|'m turning|just turned)", "age", "number"),
        (r"(?:go|goes|am going|'m going)\s+to\s+(?:school|college|university)\s+at|(?:study|studies|"
         r"am studying|'m studying)\s+at", "school", "organization"),
    )
)
_COPULA = r"(?:am|'m|are|'re|is|'s|got|just got|have been|'ve been|has been|became|am now|'m now|is now)"
_STATUSES: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(_ADVERBS + _COPULA + r"\s+" + _ADVERBS + r"(?:an?\s+)?(?P<value>" + words + r")\b", _I), key)
    for words, key in (
        (r"married|engaged|single|divorced|separated|widowed|in a relationship", "marital_status"),
        (r"vegan|vegetarian|pescatarian|gluten[- ]free|keto|lactose[- ]intolerant", "diet"),
        (r"retired|unemployed|self[- ]employed|freelancer|freelancing|between jobs|out of work|"
         r"on (?:parental|maternity|paternity|sick) leave|a student", "employment_status"),
        (r"pregnant", "pregnancy"),
    )
)
_AGE = re.compile(_ADVERBS + r"(?:am|'m|is|'s)\s+(?P<n>\d{1,3}|" + EN_NUMBER_RE + r")(?:\s+years?\s+old|\s*yo)\b", _I)
_ALLERGY = re.compile(_ADVERBS + r"(?:am|'m|is|'s|are|'re)\s+(?:severely\s+|very\s+)?allergic\s+to\s+", _I)
_JOB = re.compile(
    _ADVERBS + r"(?:am|'m|is|'s)\s+(?:now\s+)?(?:an?|the)\s+(?P<title>(?:[a-z-]+\s+){0,2}"
    r"(?:[a-z-]+(?:er|or|ist|ian|ant|ent|ect|eon|nurse|chef|doctor|lawyer|student|intern|pilot|clerk)))"
    r"(?:\s+(?:at|for|with)\s+(?P<org>.+))?$",
    _I,
)
_PREFERENCE = re.compile(
    _ADVERBS + r"(?P<neg>don't|do not|doesn't|does not|no longer|never|didn't)?\s*"
    r"(?:really\s+|absolutely\s+|totally\s+|just\s+|still\s+|kind of\s+|kinda\s+|actually\s+)*"
    r"(?P<verb>love|loves|like|likes|enjoy|enjoys|adore|adores|hate|hates|dislike|dislikes|detest|"
    r"detests|prefer|prefers|can't stand|cannot stand|can't live without|am into|'m into|are into|"
    r"'re into|is into|'s into|am (?:a )?(?:big |huge )?fan of|'m (?:a )?(?:big |huge )?fan of|"
    r"is (?:a )?(?:big |huge )?fan of|am not (?:a )?fan of|'m not (?:a )?fan of|"
    r"am not into|'m not into)\s+",
    _I,
)
_SENTIMENT = (("not", "dislike"), ("love", "love"), ("adore", "love"), ("live without", "love"),
              ("hate", "hate"), ("detest", "hate"), ("stand", "hate"), ("dislike", "dislike"),
              ("prefer", "prefer"), ("fan", "like"), ("into", "like"), ("enjoy", "like"), ("like", "like"))
_COUNT = re.compile(
    _ADVERBS + r"(?:have|has|'ve got|have got|has got|own|owns)\s+(?P<n>\d+|" + EN_NUMBER_RE + r")\s+"
    r"(?P<x>(?:[a-z-]+\s+)?[a-z-]+s)\b",
    _I,
)
_OBJECT_PRONOUN = re.compile(r"(?:it|that|this|them|you|him|her|those|these|me|us|one)\b", _I)
_VALUE_CUT = re.compile(
    r"\s*(?:,\s*|\s)(?:with|because|since|for (?:work|good|now)|so|but|and|which|where|who|after|"
    r"as|though|although|while|when|from|instead of|rather than|not)\b.*$|\s*\(.*$",
    _I,
)
_VALUE_TAIL = re.compile(
    r"(?:\s*,?\s*(?:now|these days|nowadays|anymore|any more|again|too|as well|actually|btw|by the way|"
    r"for good|lol|haha|right now|at the moment|currently|full[- ]time|so much|a lot|officially|"
    r"by the way|fyi|i think|i believe|i guess|if i remember correctly|iirc))+\s*$",
    _I,
)
_REJECTED = re.compile(r"(?:,\s*|\s+)(?:not|instead of|rather than)\s+(?P<old>[^,;.]+?)\s*[.!]?$", _I)
_DUE = re.compile(r"(?:due|to be done|needed)\s+(?:on|by|in|before)?\s*", _I)
_EXPIRY = re.compile(r"(?:valid|good|fine|ok|okay|current)\s+(?:until|till|through|thru|to)\s+", _I)
_POSSESSIVE_COPULA = (
    r"\s+(?P<cop>(?:(?:got|has been|have been|was|were|is|are|'s)\s+)?(?:moved|changed|pushed(?:\s+back)?|"
    r"bumped|extended|updated|postponed|rescheduled|delayed|brought forward)\s+(?:to|until)|is now|are now|"
    r"will be|has been|have been|is|was|are|were|'s|becomes|became|expires?(?:\s+(?:on|in|at))?|"
    r"expired(?:\s+(?:on|in))?|runs out(?:\s+(?:on|in))?|ends(?:\s+(?:on|in))?|(?:is|are|'s)\s+due"
    r"(?:\s+(?:on|by|in))?|falls on)\s+"
)
_TASK = re.compile(
    r"\b(?:(?P<who>i|we)\s+(?:really\s+|still\s+|also\s+)?(?:need to|have to|'ve got to|have got to|"
    r"got to|gotta|must|should|ought to)|remind me to|don't forget to|do not forget to|remember to|"
    r"(?:todo|to-do)\s*[:\-])\s+(?P<task>.+)$",
    _I,
)
_PLAN = re.compile(r"\b(?P<who>i|we)\s*(?:'ll|will|am going to|'m going to|are going to|'re going to)\s+"
                   r"(?P<task>(?!be\b|have\b).+)$", _I)
_DECISION = re.compile(
    r"\b(?:(?P<who>we|i)\s+(?:have\s+|'ve\s+|finally\s+|just\s+)*(?:decided|agreed|chose|settled on|"
    r"opted|resolved|committed)\s+(?:to|on|that|for)?|let's go with|lets go with|we(?:'re| are) going with|"
    r"we(?:'ll| will) go with|(?:the|our|my) (?:final )?decision(?: is|:))\s*(?P<what>.+)$",
    _I,
)


def _relation_words(r: Reading) -> str:
    words = [w for w in r.vocabulary.relations if w.isascii()]
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))


def clauses(text: str) -> list[tuple[int, int]]:
    """Sentences, then clauses joined by "and/but/so" before a new subject, as [start, end) offsets."""
    cuts = [0]
    for m in re.finditer(r"(?<=[.!?])\s+|\n+|;\s*|\s+[-–—]{1,2}\s+", text):
        before = text[: m.start()].rsplit(None, 1)
        word = before[-1].lower().rstrip(".") if before else ""
        if m.group(0).strip() == "" and word in ("dr", "mr", "mrs", "ms", "st", "jr", "sr", "e.g", "i.e", "vs"):
            continue
        cuts += [m.start(), m.end()]
    cuts.append(len(text))
    out = []
    for a, b in zip(cuts[::2], cuts[1::2], strict=False):
        inner = re.finditer(
            r",?\s+(?:and|but|so|plus)\s+(?=(?:i|i'm|i've|we|we're|he|she|they|my|our|his|her)\b)", text[a:b], _I
        )
        last = a
        for m in inner:
            out.append((last, a + m.start()))
            last = a + m.end()
        out.append((last, b))
    return [strip_span(text, a, b, " \t\n") for a, b in out if text[a:b].strip()]


def read_clause(r: Reading, start: int, end: int) -> None:
    s = r.text
    body_end = strip_span(s, start, end)[1]
    question = s[start:end].rstrip().endswith("?")
    pos = _skip(_DISCOURSE, s, start, end)
    correction, about = False, None
    while (m := _CORRECTION.match(s, pos, end)) is not None and m.end() > pos:
        correction, about = True, about or m["about"]
        pos = _skip(_DISCOURSE, s, m.end(), end)
    if question or _QUESTION_START.match(s, pos, end):
        return
    confidence = 0.9
    if (m := _HEDGE.match(s, pos, end)) is not None:
        confidence, pos = HEDGED, m.end()
    rest = s[pos:body_end]
    if _CONDITIONAL.match(rest):
        return
    _tasks(r, pos, body_end)
    if _decisions(r, pos, body_end) or _HYPOTHETICAL.search(rest) or _REPORTED.search(rest):
        return
    found = (
        _relation(r, pos, body_end, confidence)
        or _possessive(r, pos, body_end, confidence, correction)
        or _subject_predicate(r, pos, body_end, confidence, correction)
        or _label(r, pos, body_end, confidence, correction)
    )
    if not found:
        _bare_correction(r, pos, body_end, correction, about)


def _skip(pattern: re.Pattern[str], s: str, pos: int, end: int) -> int:
    m = pattern.match(s, pos, end)
    return m.end() if m else pos


# --- subjects ------------------------------------------------------------------------------------------


def _subject(r: Reading, pos: int, end: int) -> tuple[str, int] | None:
    """(subject, position after it) for a clause subject: I/we, he/she, my <relation> [Name], a Name."""
    s = r.text
    if (m := re.compile(r"(?:i|we)\b", _I).match(s, pos, end)) is not None:
        return r.speaker, m.end()
    if (m := re.compile(r"(?P<p>he|she)\b", _I).match(s, pos, end)) is not None:
        who = r.pronoun("m" if m["p"].lower() == "he" else "f")
        return (who, m.end()) if who else None
    rel = re.compile(rf"(?:my|our)\s+(?P<rel>{_relation_words(r)})(?:,?\s+(?P<name>{_NAME})(?![\w']),?)?",
                     _I).match(s, pos, end)
    if rel is not None:
        return _relative(r, rel), rel.end()
    if (m := re.compile(_NAME + r"(?![\w'])").match(s, pos, end)) is not None and m[0] not in NOT_NAMES:
        r.name_person(m[0], None, (m.start(), m.end()))
        return m[0], m.end()
    return None


def _relative(r: Reading, m: re.Match[str]) -> str:
    """The person "my sister [Ana]" names: Ana (with the fact Ana relation.sister_of speaker), or
    "<speaker>'s sister" when unnamed."""
    relation, gender = r.vocabulary.relation(m["rel"]) or (snake(m["rel"]), None)
    name = m["name"]
    if not name or name in NOT_NAMES:
        return f"{r.speaker}'s {m['rel'].lower()}"
    r.name_person(name, gender, (m.start("name"), m.end("name")))
    r.add(Draft(name, f"relation.{relation}_of", r.speaker, m.start(), m.end("name"), r.now, kind="person"))
    return name


def _possessor(r: Reading, pos: int, end: int) -> tuple[str, int] | None:
    s = r.text
    rels = _relation_words(r)
    m = re.compile(rf"(?:my|our)\s+(?P<rel>{rels})(?:,?\s+(?P<name>{_NAME}))?'s?\s+", _I).match(s, pos, end)
    if m is not None:
        return _relative(r, m), m.end()
    if (m := re.compile(r"(?:my|our)\s+", _I).match(s, pos, end)) is not None:
        return r.speaker, m.end()
    if (m := re.compile(r"(?P<p>his|her)\s+", _I).match(s, pos, end)) is not None:
        who = r.pronoun("m" if m["p"].lower() == "his" else "f")
        return (who, m.end()) if who else None
    if (m := re.compile(r"the\s+(?=(?:[\w'-]+\s+){0,5}?(?:is|was|'s|got|has)\b)", _I).match(s, pos, end)):
        return r.speaker, m.end()  # "the deadline for the passport is ...": the speaker's own matters
    m = re.compile(rf"(?P<name>{_NAME})'s?\s+").match(s, pos, end)
    if m is not None and m["name"] not in NOT_NAMES:
        r.name_person(m["name"], None, (m.start("name"), m.end("name")))
        return m["name"], m.end()
    return None


# --- values --------------------------------------------------------------------------------------------


def _value(r: Reading, start: int, end: int, kind: str) -> tuple[object, int, int, str | None] | None:
    """(value, start, end, rejected words) of the words in [start, end): cut at a new clause, its time
    expression resolved when the value is one, a trailing time removed from a non-date value."""
    s = r.text
    start, end = strip_span(s, start, end)
    rejected = None
    if (m := _REJECTED.search(s, start, end)) is not None and m.start() > start:
        rejected, end = m["old"].strip(), m.start()
    if (m := _VALUE_TAIL.search(s, start, end)) is not None and m.start() > start:
        start, end = strip_span(s, start, m.start())
    span = r.time_at(start, end)
    if span is not None:
        return time_value(span, r.now), start, end, rejected
    if kind == "date":
        return None
    if (m := _VALUE_CUT.search(s, start, end)) is not None and m.start() > start:
        end = m.start()
    for t0, t1, _ in reversed(r.times_in(start, end)):  # "Lisbon last month": the time is not the value
        if t0 > start and not s[t1:end].strip(" ,.!"):
            end = t0
            head = re.search(r"\s+(?:in|on|at|since|from|last|this|as of)\s*$", s[start:end], _I)
            if head:
                end = start + head.start()
    if (m := _VALUE_TAIL.search(s, start, end)) is not None and m.start() > start:
        end = m.start()
    start, end = strip_span(s, start, end)
    if (m := re.compile(r"(?:the|a|an)\s+", _I).match(s, start, end)) and kind in ("place", "organization"):
        start = m.end()
    words = s[start:end]
    if not words or len(words.split()) > (6 if kind != "text" else 10) or _OBJECT_PRONOUN.fullmatch(words):
        return None
    if re.fullmatch(r"-?\d+", words):
        return int(words), start, end, rejected
    if re.fullmatch(r"-?\d+\.\d+", words):
        return float(words), start, end, rejected
    return words, start, end, rejected


def _valid_from(r: Reading, start: int, end: int, vstart: int, vend: int):
    """A time in the clause outside the value ("moved to Lisbon last month") starts the fact; else now."""
    for t0, t1, span in r.times_in(start, end):
        if t1 <= vstart or t0 >= vend:
            begin = span.start
            if begin > r.now and span.granularity == "month" and _PAST.search(r.text, start, end):
                begin = begin.replace(year=begin.year - 1)  # "I started in January" said in March
            return begin
    return r.now


def _fact(r, subject, key, value, start, end, confidence, correction, kind, vspan, rejected=None) -> Draft:
    if correction and "." not in key:  # "actually my deadline is ..." names the earlier passport.deadline
        for d in reversed(r.earlier):
            if d.subject == subject and d.attribute.endswith("." + key):
                key = d.attribute
                break
    if rejected and not correction:
        correction = any(d.attribute == key and str(d.value).lower() == rejected.lower() for d in r.earlier)
    if kind == "text" and isinstance(value, str) and r.time_at(*vspan) is not None:
        kind = "date"
    return r.add(Draft(subject, key, value, start, end, _valid_from(r, start, end, *vspan), confidence,
                       correction, kind, vspan))


# --- the predicates ------------------------------------------------------------------------------------


def _relation(r: Reading, pos: int, end: int, confidence: float) -> bool:
    s, rels = r.text, _relation_words(r)
    m = re.compile(rf"(?:my|our)\s+(?P<rel>{rels})(?:'s name)?\s+(?:is|was|'s)\s+(?:called\s+|named\s+)?"
                   rf"(?P<name>{_NAME})[\s.!,]*$", _I).match(s, pos, end)
    m = m or re.compile(rf"(?P<name>{_NAME})\s+is\s+my\s+(?P<rel>{rels})[\s.!,]*$", _I).match(s, pos, end)
    if m is None or m["name"] in NOT_NAMES:
        return False
    relation, gender = r.vocabulary.relation(m["rel"]) or (snake(m["rel"]), None)
    r.name_person(m["name"], gender, (m.start("name"), m.end("name")))
    r.add(Draft(m["name"], f"relation.{relation}_of", r.speaker, pos, end, r.now, confidence, kind="person",
                value_span=(m.start("name"), m.end("name"))))
    return True


def _possessive(r: Reading, pos: int, end: int, confidence: float, correction: bool) -> bool:
    owner = _possessor(r, pos, end)
    if owner is None:
        return False
    subject, at = owner
    m = re.compile(r"(?P<attr>(?:[\w'-]+\s+){0,4}?[\w'-]+)" + _POSSESSIVE_COPULA, _I).match(r.text, at, end)
    if m is None or _NEGATION.search(m["cop"]):
        return False
    phrase, cop = m["attr"], m["cop"].lower()
    vstart = m.end()
    if (d := _DUE.match(r.text, vstart, end)) is not None or "due" in cop:
        phrase, vstart = phrase + " deadline", d.end() if d else vstart
    elif (e := _EXPIRY.match(r.text, vstart, end)) is not None or cop.startswith(("expire", "runs out")):
        phrase, vstart = phrase + " expiry", e.end() if e else vstart
    key = r.vocabulary.normalize(phrase)
    if not key or _NEGATION.match(r.text, vstart, end):
        return False
    kind = r.vocabulary.kind(key)
    got = _value(r, vstart, end, kind)
    if got is None:
        return False
    value, v0, v1, rejected = got
    if key == "name" and subject != r.speaker and isinstance(value, str):
        kind = "person"
    _fact(r, subject, key, value, pos, end, confidence, correction, kind, (v0, v1), rejected)
    return True


def _subject_predicate(r: Reading, pos: int, end: int, confidence: float, correction: bool) -> bool:
    got = _subject(r, pos, end)
    if got is None:
        return False
    subject, at = got
    s = r.text
    at = _skip(_SPACE, s, at, end)
    for pattern, key, kind in _PREDICATES:
        m = pattern.match(s, at, end)
        if m is None:
            continue
        if key == "birth":
            span = r.time_at(m.end(), end)
            key, kind = ("birthday", "date") if span is not None else ("birthplace", "place")
        value = _value(r, m.end(), end, kind)
        if value is None:
            return False
        v, v0, v1, rejected = value
        _fact(r, subject, key, v, pos, end, confidence, correction, kind, (v0, v1), rejected)
        return True
    if (m := _AGE.match(s, at, end)) is not None:
        n = parse_en_number(m["n"])
        _fact(r, subject, "age", n, pos, end, confidence, correction, "number", (m.start("n"), m.end("n")))
        return True
    for pattern, key in _STATUSES:
        if (m := pattern.match(s, at, end)) is not None and not _NEGATION.search(s, at, m.start("value")):
            v = m["value"].lower()
            _fact(r, subject, key, v, pos, end, confidence, correction, "text", (m.start("value"), m.end()))
            return True
    if (m := _ALLERGY.match(s, at, end)) is not None:
        got2 = _value(r, m.end(), end, "text")
        if got2 is not None:
            _fact(r, subject, "allergy." + snake(str(got2[0])), True, pos, end, confidence, correction, "text",
                  (got2[1], got2[2]))
            return True
    if (m := _JOB.match(s, at, end)) is not None and r.vocabulary.relation(m["title"]) is None:
        _fact(r, subject, "job_title", m["title"], pos, end, confidence, correction, "text",
              (m.start("title"), m.end("title")))
        if m["org"]:
            org = _value(r, m.start("org"), end, "organization")
            if org is not None:
                _fact(r, subject, "employer", org[0], pos, end, confidence, correction, "organization",
                      (org[1], org[2]))
        return True
    if (m := _PREFERENCE.match(s, at, end)) is not None:
        return _preference(r, subject, m, pos, end, confidence)
    if (m := _COUNT.match(s, at, end)) is not None:
        n = parse_en_number(m["n"])
        _fact(r, subject, r.vocabulary.normalize(m["x"]) + ".count", n, pos, end, confidence, correction, "number",
              (m.start("n"), m.end("n")))
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
    obj_end = end
    if (c := re.compile(r"\s+(?:over|more than|rather than|to|than)\s+", _I).search(s, obj_start, end)):
        obj_end = c.start() if sentiment == "prefer" else obj_end
    got = _value(r, obj_start, obj_end, "text")
    if got is None or len(str(got[0]).split()) > 4:
        return False
    value, v0, v1, _ = got
    key = "preference." + snake(str(value))
    _fact(r, subject, key, sentiment, pos, end, confidence, False, "text", (v0, v1))
    return True


def _label(r: Reading, pos: int, end: int, confidence: float, correction: bool) -> bool:
    m = re.compile(r"(?P<attr>[A-Za-z][\w' -]{1,40}?)\s*:\s*", _I).match(r.text, pos, end)
    if m is None:
        return False
    key = r.vocabulary.normalize(m["attr"])
    known = r.vocabulary.known(m["attr"]) is not None or "." in key or key in r.vocabulary.aspects
    if not known:
        return False
    got = _value(r, m.end(), end, r.vocabulary.kind(key))
    if got is None:
        return False
    value, v0, v1, rejected = got
    _fact(r, r.speaker, key, value, pos, end, confidence, correction, r.vocabulary.kind(key), (v0, v1), rejected)
    return True


_BARE = re.compile(
    r"(?:(?:it'?s|it is|it was|it will be|that'?s|that is|its|it should be|should be|make it|it's actually|"
    r"the (?P<attr>[\w ]+?) is)\s+)?(?P<value>.+)$",
    _I,
)


def _bare_correction(r: Reading, pos: int, end: int, correction: bool, about: str | None) -> None:
    """"correction: it's June 30", "actually, Porto", "it's June 30, not July 15": a value without its
    attribute, bound to the earlier fact it corrects (never bound: no fact)."""
    m = _BARE.match(r.text, pos, end)
    if m is None:
        return
    got = _value(r, m.start("value"), end, "text")
    if got is None:
        return
    value, v0, v1, rejected = got
    if not correction and rejected is None:
        return
    if len(r.text[v0:v1].split()) > 5:
        return
    kind = "date" if r.time_at(v0, v1) is not None else "number" if isinstance(value, int | float) else "text"
    earlier = r.bind(kind, about or m["attr"], rejected)
    if earlier is None or (not correction and not any(str(d.value).lower() == rejected.lower()
                                                       for d in r.earlier if d is earlier)):
        return
    r.add(Draft(earlier.subject, earlier.attribute, value, pos, end, r.now, BOUND, True, earlier.kind, (v0, v1)))


# --- tasks and decisions -------------------------------------------------------------------------------


def _owner(r: Reading, who: str | None) -> str:
    return r.speaker


def _due(r: Reading, start: int, end: int):
    inside = r.times_in(start, end)
    return inside[0][2].start if inside else None


def _tasks(r: Reading, pos: int, end: int) -> None:
    s = r.text
    m = _TASK.search(s, pos, end)
    if m is None:
        m = _PLAN.search(s, pos, end)
        if m is None or not r.times_in(m.start("task"), end):
            return
    t0, t1 = strip_span(s, m.start("task"), end)
    if t1 > t0:
        r.tasks.append(Item(s[t0:t1], _owner(r, m["who"]), _due(r, t0, t1), m.start(), t1))


def _decisions(r: Reading, pos: int, end: int) -> bool:
    s = r.text
    m = _DECISION.search(s, pos, end)
    if m is None:
        return False
    t0, t1 = strip_span(s, m.start("what"), end)
    if t1 <= t0:
        return False
    r.decisions.append(Item(s[t0:t1], _owner(r, m["who"]), _due(r, t0, t1), m.start(), t1))
    return True
