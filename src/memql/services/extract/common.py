"""What the English and Chinese rule grammars share: drafts of facts, the state a message is read in
(speaker, time, times found, earlier facts and people), value cleaning, pronoun and correction binding."""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import datetime
from functools import lru_cache
from itertools import accumulate

from memql.lang.delta import MAX_ITEMS
from memql.lang.time import TimeSpan
from memql.lang.time.numbers import TimeParseError, parse_en_number, parse_zh_number

from .patterns_zh import HOLIDAYS_ZH
from .replaced_named import named_old
from .vocabulary import Vocabulary
from .vocabulary_words import RELATIONS

# a moment as facts keep it: 2026-03-02T18:40:00Z
MOMENT = re.compile(r"(?P<date>\d{4}-\d{2}-\d{2})T(?P<h>\d{2}):(?P<m>\d{2}):\d{2}Z$")
_WHEN = (".date", ".time")  # the aspect a thing's time is kept under ("standup.time")
CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
# relations one has one of at a time: the speaker's own key then holds the name, and a new one supersedes it
_GENDERED_TITLE = re.compile(r"(Mr|Mrs|Ms|Miss)\.?\s")
# "my college roommate Theo", 我以前的老板: one held before, not the one held now
_PAST_RELATION = re.compile(
    r"\b(?:old|former|ex|college|school|uni|university|childhood)\b|大学|高中|初中|小学|以前的?|之前的?|前(?=[\u4e00-\u9fff])",
    re.I,
)
SINGULAR_RELATIONS = frozenset(
    {"boss", "manager", "wife", "husband", "partner", "boyfriend", "girlfriend", "fiance", "fiancee"}
    | {"landlord", "roommate", "coach"}
)


def corrected_holder(r: Reading, subject: str, key: str) -> tuple[str, str]:
    """(subject, key) a correction of the speaker's own words means: "the recital is May 23rd" after "my
    son's recital is on May 30th" corrects the son's recital — when the speaker held no such key and spoke
    of exactly one other holder of it (or of a key ending in it: 钢琴汇报演出 for 汇报演出)."""
    if subject != r.speaker or any(d.subject == subject and d.attribute == key for d in r.earlier):
        return subject, key
    held = {
        (d.subject, d.attribute)
        for d in r.earlier
        if d.speaker == r.speaker
        and d.subject != subject
        and not d.attribute.startswith("relation.")
        and (
            d.attribute == key
            or d.attribute.endswith(("." + key, "_" + key))
            or (CJK.search(key) and d.attribute.endswith(key))
        )
    }
    return held.pop() if len(held) == 1 else (subject, key)


def this_year_only(span: TimeSpan, now: datetime) -> bool:
    """The span is the whole current year ("this year", 今年): it dates nothing within it, so a fact it
    opens starts when it is said (else a later message would date before an earlier one)."""
    return span.granularity == "year" and span.start <= now < span.end


def held_key(vocabulary: Vocabulary, relation: str) -> str:
    """The key of the one relative of a kind the speaker has ("my boss" and "I report to" are one
    manager): the vocabulary's attribute for the relation word, else the word."""
    known = vocabulary.known(relation)
    return known.key if known is not None else relation


# statuses that say no job is held: the job title they end is the status
_NO_JOB = frozenset(
    {"retired", "unemployed", "between jobs", "out of work", "laid off", "let go", "fired", "made redundant"}
    | {"退休", "失业"}
)

# confidence of a rule fact: a plain statement, a hedged one ("I think"), a bound correction
STATED = 0.9
HEDGED = 0.6
BOUND = 0.8


# a Chinese key that is a piece of a sentence, no attribute: it opens with a particle or a preposition, or
# is the end of a clock time (了一, 从中通, 点到)
_FRAGMENT_KEY = re.compile(r"了|从|到|点到$")


@dataclass
class Draft:
    """A fact found by a grammar, before it becomes a FactCandidate."""

    subject: str
    attribute: str
    value: str | int | float | bool
    start: int  # evidence: the clause's words stating it
    end: int
    valid_from: datetime
    confidence: float = STATED
    correction: bool = False
    kind: str = "text"  # the value's kind: date, place, organization, person, number, product, text
    value_span: tuple[int, int] | None = None  # where the value is written (an entity's evidence)
    speaker: str = ""
    said_in: int | None = None  # the recent turn whose words state it (replacements.py), else this one
    replaces: tuple[int, int] | None = None  # where the words naming the value it ends are (replaced_named)


@dataclass
class Person:
    name: str
    gender: str | None  # "m", "f" or None
    turn: int  # the index of the turn that named them (the message itself is the last)
    span: tuple[int, int] | None = None  # in the message itself only


@dataclass(frozen=True)
class Said:
    """An earlier turn: its speaker, words and time (its index is its place among the turns)."""

    speaker: str
    text: str
    time: datetime


@dataclass
class Item:
    """A task or a decision found by a grammar."""

    text: str
    owner: str | None
    due: datetime | None
    start: int
    end: int


# the facts and people a message is read for at most (a delta holds MAX_ITEMS of each): beyond them each
# new one would be compared with thousands before it, a message of thousands of values read in quadratic time
MOST_READ = 4 * MAX_ITEMS


@dataclass
class Reading:
    """The state one turn is read in, and what the grammars found in it."""

    text: str  # the turn's text with typographic apostrophes made plain (same length)
    speaker: str
    now: datetime
    vocabulary: Vocabulary
    turn: int
    times: list[tuple[int, int, TimeSpan]]
    known_facts: list[Draft]  # facts of the turns read so far, oldest first (see `earlier`)
    known_persons: list[Person]  # people named in the turns read so far, oldest first (see `persons`)
    speakers: frozenset[str]
    facts: list[Draft] = field(default_factory=list)
    tasks: list[Item] = field(default_factory=list)
    decisions: list[Item] = field(default_factory=list)
    clause_start: int = 0  # where the clause being read begins (a time before its subject still dates it)
    # a clause that is only a correction marker ("Wait, that's wrong — it's 555 0143") marks the next one
    correction_pending: bool = False
    # a Chinese sentence that only announced what changed (我转科了！) leaves its key to the next (去了ICU)
    announced_pending: str | None = None
    # the held key the parts before a bare change named (体检只能往后挪 改到下周五了: the check-up's day)
    change_of: str | None = None
    # reads the recent turns, when a correction or a pronoun first needs them: most messages never do, and
    # reading every recent turn again for every message would cost more than the message itself
    context: Callable[[], tuple[list[Draft], list[Person]]] | None = None
    _times_at: tuple[list[int], list[int]] | None = field(default=None, repr=False)  # (_time_index)
    named: int = 0  # the people this turn named (at most MOST_READ)

    def _load(self) -> None:
        if self.context is not None:
            facts, persons = self.context()
            self.context = None
            self.known_facts[:0] = facts
            self.known_persons[:0] = persons

    @property
    def earlier(self) -> list[Draft]:
        """Facts of the recent turns and of this one so far, oldest first."""
        self._load()
        return self.known_facts

    @property
    def persons(self) -> list[Person]:
        """People named in the recent turns and in this one so far, oldest first."""
        self._load()
        return self.known_persons

    # -- times ----------------------------------------------------------------------------------------

    # the times are looked up by where they start (they are in that order), not compared one by one at
    # each call: a message of thousands of times would be read in quadratic time
    def times_in(self, start: int, end: int) -> list[tuple[int, int, TimeSpan]]:
        """The times within text[start:end]."""
        return [t for t in self.times_from(start, end) if t[1] <= end]

    def times_from(self, start: int, end: int) -> list[tuple[int, int, TimeSpan]]:
        """The times that start in [start, end), in order."""
        starts, _ = self._time_index()
        return self.times[bisect_left(starts, start) : bisect_left(starts, end)]

    def in_a_time(self, at: int) -> bool:
        """Whether text[at] is inside a time expression."""
        starts, reach = self._time_index()
        i = bisect_right(starts, at) - 1
        return i >= 0 and reach[i] > at

    def retime(self, i: int, end: int, span: TimeSpan) -> None:
        """Read the i-th time anew (an hour's half, a clock after a day): where it starts stays."""
        self.times[i] = (self.times[i][0], end, span)
        self._times_at = None

    def _time_index(self) -> tuple[list[int], list[int]]:
        """The times' starts, and the furthest end of a time starting at or before each."""
        if self._times_at is None:
            self._times_at = ([t[0] for t in self.times], list(accumulate((t[1] for t in self.times), max)))
        return self._times_at

    def time_at(self, start: int, end: int) -> TimeSpan | None:
        """The span of a value that is one time expression (give or take filler words around it)."""
        inside = self.times_in(start, end)
        if len(inside) != 1:
            return None
        t0, t1, span = inside[0]
        rest = (self.text[start:t0] + " " + self.text[t1:end]).lower()
        rest = re.sub(
            r"\b(?:on|by|at|in|until|till|before|the|of|due|is|it's|it|this|year|actually|now|still|"
            r"currently|probably|officially)\b",
            " ",
            rest,
        )
        rest = re.sub(r"[\s,.:;!?()'\"之前前为止号日的是在到了啦呢吧。，：；！？]+", "", rest)
        return span if not rest else None

    # -- people ---------------------------------------------------------------------------------------

    def name_person(self, name: str, gender: str | None, span: tuple[int, int] | None = None) -> None:
        if gender is None and (title := _GENDERED_TITLE.match(name)) is not None:
            gender = "m" if title[1] == "Mr" else "f"  # "Mrs. Ortiz" is a she, "Mr. Baker" a he
        if name and name not in self.speakers and name != self.speaker and self.named < MOST_READ:
            self.known_persons.append(Person(name, gender, self.turn, span))
            self.named += 1

    def pronoun(self, gender: str | None) -> str | None:
        """The person he/she/他/她 refers to: among the people of the latest turn that names any of a
        compatible gender (a gender an earlier line told counts), that one; None when there are none or
        several (never a guess)."""
        said = {p.name: p.gender for p in self.persons if p.gender is not None}  # "her husband Sam": m
        for turn in range(self.turn, -1, -1):
            named = [(p.name, p.gender or said.get(p.name)) for p in self.persons if p.turn == turn]
            if not named:
                continue
            fitting = {name for name, g in named if g is None or gender is None or g == gender}
            if not fitting:
                continue  # "小琪 … 她老公在讯飞上班 … 她老公去了网易": the husband named last is no 她
            return fitting.pop() if len(fitting) == 1 else None
        return None

    # -- facts ----------------------------------------------------------------------------------------

    def correct_the_one(
        self, keep: Callable[[Draft], bool], value: object, start: int, end: int, value_span: tuple[int, int]
    ) -> bool:
        """The one earlier value `keep` accepts corrected to `value` (a callable: of that value); none
        when none or several are held (never a guess)."""
        held = latest_held(self, keep)
        if len(held) != 1:
            return False
        (earlier,) = held.values()
        self.correct(earlier, value(earlier) if callable(value) else value, start, end, value_span)
        return True

    def correct(
        self, earlier: Draft, value: object, start: int, end: int, value_span: tuple[int, int]
    ) -> Draft:
        """A bound correction: `earlier`'s subject and attribute take `value` from now on; of a recurring
        time, a weekday said is the new recurring time ("every Saturday at 10am", then "to Sunday at 2pm")."""
        if isinstance(earlier.value, str) and RECURRING.match(earlier.value):
            words = self.text[value_span[0] : value_span[1]]
            if _WEEKDAY_SAID.fullmatch(words):
                value = ("每" if CJK.match(words) else "every ") + words
        return self.add(
            Draft(
                earlier.subject,
                earlier.attribute,
                value,  # type: ignore[arg-type]
                start,
                end,
                self.now,
                BOUND,
                True,
                earlier.kind,
                value_span,
            )
        )

    def valued_in(self, start: int, end: int) -> list[Draft]:
        """The message's drafts whose value is written between `start` and `end`."""
        return [d for d in self.facts if d.value_span and start <= d.value_span[0] < end]

    def drop(self, drafts: list[Draft]) -> None:
        """Leave these drafts out (by identity: two turns can say a fact at the same offsets): a pass that
        reads their words better, or an echo."""
        gone = {id(d) for d in drafts}
        self.facts[:] = [d for d in self.facts if id(d) not in gone]
        self.known_facts[:] = [d for d in self.known_facts if id(d) not in gone]

    def add(self, draft: Draft) -> Draft:
        draft.speaker = self.speaker
        if draft.correction or draft.attribute.endswith(_WHEN):
            draft.attribute = self._continued(draft)
        if _FRAGMENT_KEY.match(draft.attribute) or len(self.facts) >= MOST_READ:
            return draft  # 了一, 点到, 从中通: a piece of a sentence names nothing (not kept); or one more
        if draft.value_span is not None and draft.said_in is None and draft.replaces is None:
            draft.replaces = named_old(self.text, *draft.value_span)  # "left Boise for Denver"
        self.facts.append(draft)
        self.known_facts.append(draft)
        if draft.attribute == "employment_status" and str(draft.value).casefold() in _NO_JOB:
            self.add(replace(draft, attribute="job_title"))  # "Dad retired": what he does now, no job held
        return draft

    def _continued(self, draft: Draft) -> str:
        """The key an earlier fact of the subject gave the same thing: 站会改到十点了 after 站会九点半开
        (站会.date), "standup.time" after "standup" — one key, so the later value supersedes."""
        base = draft.attribute.removesuffix(".date").removesuffix(".time")
        same = {base, *(base + suffix for suffix in _WHEN)}
        for d in reversed(self.earlier):
            if d.subject == draft.subject and d.attribute in same:
                return d.attribute
        return draft.attribute

    def relate(
        self, name: str, relation: str, start: int, end: int, confidence: float, name_span=None
    ) -> None:
        """ "my sister Ana": (Ana, relation.sister_of) = the speaker; for a relation one has one of at a
        time ("my new manager is Tom", "my wife"), also (speaker, manager) = Tom, so the next one
        supersedes it."""
        self.add(
            Draft(
                name,
                f"relation.{relation}_of",
                self.speaker,
                start,
                end,
                self.now,
                confidence,
                kind="person",
                value_span=name_span,
            )
        )
        said_before = self.text[start : name_span[0] if name_span else end]
        if relation in SINGULAR_RELATIONS and not _PAST_RELATION.search(said_before):
            self.add(
                Draft(
                    self.speaker,
                    held_key(self.vocabulary, relation),
                    name,
                    start,
                    end,
                    self.now,
                    confidence,
                    kind="person",
                    value_span=name_span,
                )
            )

    def bind(self, kind: str, hint: str | None, rejected: str | None, value: object = None) -> Draft | None:
        """The earlier fact a correction without its own attribute corrects: the latest fact of this
        speaker (else of anyone) whose attribute matches the hint ("the deadline"), whose value is the
        rejected one ("…, not July 15"), or else whose value has the same kind (a date for a date) — a
        day for a day before a year for a day ("it's June 30" corrects July 15 rather than 2029)."""
        key = self.vocabulary.normalize(hint) if hint else None
        candidates = list(reversed(self.earlier))
        mine = [d for d in candidates if d.speaker == self.speaker]
        for pool in (mine, candidates):
            if key:
                for d in pool:
                    if (
                        d.attribute == key
                        or d.attribute.endswith("." + key)
                        or key.endswith("." + d.attribute)
                    ):
                        return d
                continue
            if rejected:
                for d in pool:
                    if same_value(d.value, rejected):
                        return d
            fitting = [
                d for d in pool if kinds_match(d.kind, kind) and not d.attribute.startswith("relation.")
            ]
            shaped = [d for d in fitting if kind != "date" or len(str(d.value)) == len(str(value))]
            if shaped or fitting:
                return (shaped or fitting)[0]
        return None


# anyone a speaker names by relation ("my aunt and my sister"): with more than one, "she" is no one's
# "my sister", "our old neighbour": a relative of the speaker's, longest word first ("sister-in-law")
SPEAKERS_KIN = re.compile(
    r"\b(?:my|our)\s+(?:\w+\s+)?("
    + "|".join(sorted(map(re.escape, RELATIONS), key=len, reverse=True))
    + r")\b",
    re.IGNORECASE,
)


def latest_organization(r: Reading, subject: str, keys: frozenset[str] | None = None) -> str | None:
    """The key of the subject's latest organisation fact (of `keys`, when given): what "transferred to X"
    or "is at X now" changes — a pupil's school, a worker's employer."""
    held = (d for d in reversed(r.earlier) if d.subject == subject and d.kind == "organization")
    return next((d.attribute for d in held if keys is None or d.attribute in keys), None)


def held_location(r: Reading, words: str) -> Draft | None:
    """The one held `.location` a change of place means: of the event the words name ("moved the wedding
    to Sonoma": the daughter's wedding), else the speaker's one event with a place; None when several."""
    places = [d for d in r.earlier if d.attribute.endswith(".location") and d not in r.facts]
    named = [d for d in places if names_key(words, d.attribute.removesuffix(".location"))]
    held = {(d.subject, d.attribute): d for d in named or [d for d in places if d.subject == r.speaker]}
    return next(iter(held.values())) if len(held) == 1 else None


def latest_held(r: Reading, keep: Callable[[Draft], bool]) -> dict[tuple[str, str], Draft]:
    """The latest earlier value of each (subject, attribute) that `keep` accepts (not the message's own)."""
    return {(d.subject, d.attribute): d for d in r.earlier if d not in r.facts and keep(d)}


def _says(folded: str, words, whole: bool) -> bool:
    """Does the case-folded text hold one of the words (at a word start, or as a whole word when `whole`;
    Chinese words anywhere)?"""
    end = r"\b" if whole else ""
    return any((re.search(rf"\b{re.escape(w)}{end}", folded) if w.isascii() else w in folded) for w in words)


_PLURAL = re.compile(r"(?:(?<=ss)|(?<=sh)|(?<=ch)|(?<=x))es$|(?<!s)s$")


def singular(word: str) -> str:
    """An English plural's singular, by its ending: coffees -> coffee, glasses -> glass."""
    return _PLURAL.sub("", word)


# a holiday a key opens with names it too (五一 of 五一旅行.location: "那五一还出去吗？")
_HOLIDAY_HEAD = re.compile("|".join(HOLIDAYS_ZH))


def names_key(text: str, attribute: str) -> bool:
    """Does the text name a word of the key ("the flight" of `flight_home`, 体检 of `体检.date`, and of
    公司体检 by its head noun)?"""
    words = [w for w in re.split(r"[._]", attribute) if len(w) >= 2]
    heads = [w[-2:] for w in words if len(w) >= 3 and re.fullmatch(r"[\u4e00-\u9fff]{2}", w[-2:])]
    heads += [m[0] for w in words if (m := _HOLIDAY_HEAD.match(w)) is not None and len(w) > len(m[0])]
    return _says(text.casefold(), [*words, *heads], whole=False)


def names_person(text: str, subject: str) -> bool:
    """Does the text name the subject: by name, or by a word of the relation a subject such as "Owen's
    father" has ("Dad", "father")?"""
    who = subject.rsplit("'s ", 1)[-1].casefold()
    return _says(text.casefold(), {who, *(w for w, (key, _) in RELATIONS.items() if key == who)}, whole=True)


def the_one(held: dict[tuple[str, str], Draft], named: list[Draft], alone: bool) -> tuple[Draft, bool] | None:
    """(the held fact a message means, whether it named it): the one it names, else — when `alone` says
    it names nothing else — the only one held; None for none or two (never a guess)."""
    fits = named or (list(held.values()) if len(held) == 1 and alone else [])
    return (fits[0], bool(named)) if len(fits) == 1 else None


def kin_named(texts: list[str]) -> set[str]:
    """The relation words ("aunt", "sister") the texts name a relative of the speaker's by."""
    return {m[1].lower() for text in texts for m in SPEAKERS_KIN.finditer(text)}


def same_value(value: object, words: str) -> bool:
    """The same value, as said: the same words, or the same count in digits or words (2, "two", 两)."""
    a, b = str(value).strip().lower(), words.strip().lower()
    if a == b:
        return True
    count = count_of(a)
    return count is not None and count == count_of(b)


_COUNT_WORDS = re.compile(r"\d{1,6}|[a-z]+(?:-[a-z]+)?|[零〇一二两三四五六七八九十百千]{1,6}")


def count_of(text: str) -> int | None:
    """A whole count written in digits, English number words or Chinese numerals; else None."""
    text = text.strip().lower()
    if not _COUNT_WORDS.fullmatch(text) or text in ("a", "an", "few", "couple", "dozen", "several"):
        return None
    for parse in (parse_en_number, parse_zh_number):
        try:
            return parse(text)
        except TimeParseError:
            continue
    return None


# a weekday and maybe its hour or part of the day, no day of a month
_WEEKDAY_SAID = re.compile(
    r"(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day(?:\s+(?:at\s+)?\d{1,2}(?::\d{2})?\s*(?:[ap]\.?m\.?)?|"
    r"\s+(?:morning|afternoon|evening|night)s?)?|(?:周|星期|礼拜)[一二三四五六日天][\u4e00-\u9fff0-9:：]{0,6})",
    re.I,
)
# a time that recurs, held as its words ("every Saturday at 10am", 每周六上午十点): a fact of kind "schedule"
RECURRING = re.compile(r"(?:every|each)\s|(?:mon|tues|wednes|thurs|fri|satur|sun)days\b|每", re.I)
_WEEKDAY = r"(?:mon|tues|wednes|thurs|fri|satur|sun)day"
# a weekly time as said: "Tuesdays 6pm", "every Thursday at 5:30", "Mondays and Wednesdays at 7"
WEEKLY = re.compile(
    rf"(?:on\s+)?(?:(?:every|each)\s+{_WEEKDAY}|{_WEEKDAY}s)(?:\s*(?:,|and|&|/)\s*{_WEEKDAY}s?)*"
    r"(?:\s+(?:at\s+)?\d{1,2}(?::\d{2})?(?:\s*[ap]\.?m\.?)?)?(?![\w:])",
    re.I,
)


def kinds_match(old: str, new: str) -> bool:
    if {old, new} == {"date", "schedule"}:
        return True  # "piano is every Saturday at 10", then "it's at 3pm": the same time, corrected
    if old == "date" or new == "date":
        return old == new
    if old == "number" or new == "number":
        return old == new
    return True


def time_value(span: TimeSpan, now: datetime) -> str:
    """A resolved time as a fact value: the local date for a day (YYYY-MM-DD), YYYY-MM for a month, YYYY
    for a year, an ISO-8601 UTC moment otherwise."""
    local = span.start.astimezone(now.tzinfo)
    if span.granularity == "day":
        return local.date().isoformat()
    if span.granularity == "month":
        return f"{local.year:04d}-{local.month:02d}"
    if span.granularity == "year":
        return f"{local.year:04d}"
    if span.granularity == "week":
        return local.date().isoformat()
    return span.start.strftime("%Y-%m-%dT%H:%M:%SZ")


def strip_span(
    text: str, start: int, end: int, chars: str = " \t,.;:!?\"'()。，；：！？、“”"
) -> tuple[int, int]:
    while start < end and text[start] in chars:
        start += 1
    while end > start and text[end - 1] in chars:
        end -= 1
    return start, end


def last_said(text: str, at: int, start: int = 0, also: str = "") -> int:
    """Where the last character of text[start:at] that is no space (nor in `also`) is, or start - 1: looked
    for backwards from `at`, not in a copy of all before it (a message of many names or times would be read
    in quadratic time)."""
    i = at - 1
    while i >= start and (text[i].isspace() or text[i] in also):
        i -= 1
    return i


def sentence_around(text: str, start: int, end: int) -> tuple[int, int]:
    """The bounds of the sentence (or line) around text[start:end] (a point between digits ends none:
    "netflix 17.99, spotify 16.99"): after the last end of a sentence before `start` (and the spaces after
    it), up to the first at or after `end`. Looked up in the text's ends found once (`_sentence_ends`),
    not found again in all before `start` for each span asked about (a message of many times)."""
    ends = _sentence_ends(text)
    last = start - 1
    if not ((last >= 0 and text[last] in _ENDS_ALWAYS) or text[last : last + 1] == "."):  # (at `start`: ends)
        i = bisect_left(ends, last) - 1  # the last one before
        last = ends[i] if i >= 0 else -1
    left = last + 1  # (0 when no sentence ended before: `last` is -1)
    while last >= 0 and left < start and text[left].isspace():  # the spaces after the end, up to `start`
        left += 1
    i = bisect_left(ends, end)
    return left, ends[i] if i < len(ends) else len(text)


_ENDS_ALWAYS = "!?。！？\n"


@lru_cache(maxsize=16)
def _sentence_ends(text: str) -> list[int]:
    """Where a sentence ends in `text`: a point not between two digits, or !?。！？ or a line's end."""
    return [
        i
        for i, c in enumerate(text)
        if c in _ENDS_ALWAYS
        or (c == "." and not (0 < i < len(text) - 1 and text[i - 1].isdecimal() and text[i + 1].isdecimal()))
    ]
