"""The offline rule extractor: a message -> MemoryDelta by the English and Chinese grammars, no model.

The recent turns are read first, in order, each with its own speaker and time, so that a correction
("correction: it's June 30", "不对，是6月30号") finds the fact it corrects and a pronoun ("she", "她")
finds the person it stands for; only the message's own findings go into the delta. Each sentence is read
by the grammar of its script (Chinese when it holds CJK characters, unless `Utterance.lang` says
otherwise). What the grammars cannot read is left out: a delta holds fewer facts rather than invented ones.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import replace
from datetime import datetime
from functools import lru_cache
from typing import Any

from pydantic import ValidationError

from memql.lang.categories import STANDARD_CATEGORIES, root, stricter
from memql.lang.delta import (
    MAX_ITEMS,
    ActionItem,
    Entity,
    Evidence,
    FactCandidate,
    MemoryDelta,
    TimeMention,
    Utterance,
)
from memql.services.tokenize import STOP_WORDS

from . import (
    answers,
    from_to,
    household,
    pets,
    raises,
    replacements,
    rules_en,
    rules_zh,
    shifts,
    swaps,
    tickets,
)
from .casual import Spelled, capitalised_managers, capitalised_titles, speaks_of_itself, spell_out
from .common import CJK, Draft, Item, Person, Reading, Said, same_value
from .events_en import clock_after_day
from .marks import Marks
from .patterns_en import NOT_NAMES
from .places_en import capitalised_places
from .times_found import find_times
from .vocabulary import DEFAULT_VOCABULARY, Vocabulary

_PROCEDURAL = re.compile(
    r"\b(?:how to|step \d|steps?:|first,? .{1,300}? then|always|"
    r"every (?:day|morning|evening|night|week|month|time)|"
    r"whenever|each time|my routine|the trick is|the way to|make sure to)\b|"
    # (first … then within a few sentences: from each "first" to the line's end, many would be read in
    # quadratic time)
    r"步骤|怎么做|如何|每天|每次|每周|每个月|总是|先.{1,300}?(?:再|然后)|习惯|流程",
    re.I,
)
_ENTITY_KINDS = {"place": "place", "organization": "organization", "person": "person", "product": "product"}
_CAPITALISED = re.compile(r"(?<![.!?]\s)(?<!^)\b(?-i:[A-Z][a-z]+(?:\s+[A-Z][a-z]+)*)\b")


class RuleExtractor:
    """The offline `Extractor` (see the module docstring). `vocabulary` maps attribute phrases to keys."""

    name = "rules"

    def __init__(self, vocabulary: Vocabulary | None = None) -> None:
        self.vocabulary = vocabulary or DEFAULT_VOCABULARY

    def extract(self, message: Utterance) -> MemoryDelta:
        speakers = frozenset({message.speaker, *(t.speaker for t in message.recent)})

        # every turn is read as spelled out ("im" as "I'm"); the delta quotes each as written. The agent's
        # turns are read as said by the one it answers ("Noted: book club at Chloe's", "your new manager")
        turns = [*message.recent, message]
        voice = [_voice(turns, i, message.agent) for i in range(len(turns))]
        *recent, spelled = (spell_out(t.text, v != t.speaker) for t, v in zip(turns, voice, strict=True))
        said = [
            Said(v, _confirmed(s.text, v, turns[i + 1]), t.time or message.time)
            for i, (t, v, s) in enumerate(zip(message.recent, voice[:-1], recent, strict=True))
        ]

        # the agent's question the message says yes to ("you're working at the Harborview shop now?" …
        # "yeah …"): its facts are the message's, said in the question's words
        asked = len(said) - 1 if said and said[-1].text != recent[-1].text else None
        confirmed: list[Draft] = []

        def recent_turns() -> tuple[list[Draft], list[Person]]:
            """The recent turns read in order, each with its own speaker and time (on first need)."""
            earlier: list[Draft] = []
            persons: list[Person] = []
            for i, turn in enumerate(said):
                reading = self._read(
                    turn.text, turn.speaker, turn.time, i, earlier, persons, speakers, message.lang, said[:i]
                )
                _after_grammar(reading, said[:i], i)
                if voice[i] != message.recent[i].speaker:
                    _echoes_dropped(reading)
                if i == asked:
                    confirmed.extend(reading.facts)
            return earlier, persons

        reading = self._read(
            spelled.text,
            voice[-1],
            message.time,
            len(message.recent),
            [],
            [],
            speakers,
            message.lang,
            said,
            context=recent_turns if message.recent else None,
        )
        _after_grammar(reading, said, None)
        if voice[-1] != message.speaker:
            _echoes_dropped(reading)
        if asked is not None:
            _said_yes_to(reading, asked, confirmed)
        return _delta(reading, spelled, recent, self.vocabulary)

    def _read(
        self, text, speaker, now: datetime, turn, earlier, persons, speakers, lang, said, context=None
    ) -> Reading:
        plain = text.replace("\u2019", "'").replace("\u2018", "'")
        # "高数定在下周三上午 英语是12号": in Chinese a space between words parts clauses as a comma does
        plain = _CJK_SPACE.sub(lambda m: "，" * len(m[0]), plain)
        plain = _LATIN_IN_CJK_SPACE.sub(lambda m: m[1] + "，" * len(m[2]), plain)  # 去了ICU 护士长换成…
        times = find_times(plain, now)
        reading = Reading(plain, speaker, now, self.vocabulary, turn, times, earlier, persons, speakers)
        reading.context = context
        _capitalise_known_names(reading, said)
        reading.text = capitalised_places(reading.text)  # "moved to denver": a known place, as a place
        reading.text = capitalised_titles(reading.text)  # "i got dr lindqvist": a titled name
        reading.text = capitalised_managers(reading.text)  # "reporting to sunita mehta"
        clocks_read = False  # a day's "at 7:30" is read once, as the first English clause is
        for start, end in _sentences(plain):
            chinese = lang == "zh" or (lang == "auto" and CJK.search(plain, start, end) is not None)
            grammar = rules_zh if chinese else rules_en
            for a, b in grammar.clauses(plain[start:end]):
                if not (chinese or clocks_read):
                    clocks_read = True
                    clock_after_day(reading)
                for piece in _bounded(plain, start + a, start + b):
                    grammar.read_clause(reading, *piece)
        return reading


def _echoes_dropped(r: Reading) -> None:
    """The agent restating a value its user holds ("Updated: Tuesday Feb 17 at 4:30pm" after "push me to
    4:30") states nothing new: left out, so the value stays under its one key."""
    if not r.facts:
        return  # (most turns: and the recent turns are not read for nothing)
    own = {id(d) for d in r.facts}  # (by identity: two turns can say a fact at the same offsets)
    earlier = [d for d in r.earlier if id(d) not in own]
    # (the user's values and those they said of others: 阿姨的手机号是… restates 我妈的新手机号 …)
    held = [d.value for d in earlier if d.subject == r.speaker or d.speaker == r.speaker]
    echoes = [
        d
        for d in r.facts
        if any(v == d.value or same_value(v, str(d.value)) for v in held)
        or any((e.subject, e.attribute, e.value) == (d.subject, d.attribute, d.value) for e in earlier)
        or any(_shortened(d, e) for e in earlier)
    ]
    r.drop(echoes)
    # the earlier value such an echo was read as changing goes with it ("已更新：门锁密码是860274" after
    # 又改了，现在是 860274: no 门锁密码 of 520131 left standing alone)
    keys = {(d.subject, d.attribute) for d in echoes}
    r.facts[:] = [d for d in r.facts if not (d.said_in is not None and (d.subject, d.attribute) in keys)]


def _shortened(d: Draft, e: Draft) -> bool:
    """d says e's value by its first words ("So Raj is your new manager" after "reporting to raj okonkwo"):
    the same value, not a change to a shorter one."""
    if (d.subject, d.attribute) != (e.subject, e.attribute):
        return False
    if not isinstance(d.value, str) or not isinstance(e.value, str):
        return False
    return e.value.casefold().startswith(d.value.casefold() + " ")


# a reply that says yes to what was asked
_YES = re.compile(r"\s*(?:yeah|yep|yup|yes|ya|correct|exactly|right|对|是的|是啊|嗯|没错)(?![a-z])", re.I)


def _confirmed(text: str, voice: str, reply) -> str:
    """The agent's question in its user's voice, said yes to in the user's next turn ("Oh, you're working
    at the Harborview shop now?" … "yeah the transfer went through"): read as said, its mark a point (the
    same length, so every offset holds)."""
    if reply.speaker != voice or not text.rstrip().endswith(("?", "？")) or not _YES.match(reply.text):
        return text
    end = len(text.rstrip())
    asked = 2 if text[end - 2 : end - 1] in ("吗", "呢") else 1  # 老孙是你的直属领导吗？: its 吗 too
    return text[: end - asked] + " " * (asked - 1) + ("." if text[end - 1] == "?" else "。") + text[end:]


def _said_yes_to(r: Reading, asked: int, confirmed: list[Draft]) -> None:
    """The facts of the question the message says yes to, as said in it (the message's own first)."""
    r.earlier  # noqa: B018 -- reads the recent turns, the question among them
    own = {(d.subject, d.attribute) for d in r.facts}
    for d in confirmed:
        if d.subject == r.speaker and d.said_in is None and (d.subject, d.attribute) not in own:
            r.facts.append(replace(d, said_in=asked))


def _voice(turns: list, i: int, agent: str | None) -> str:
    """Whose words turn `i` says: its speaker's, or for the agent's restatement (a turn that says nothing
    of the agent itself), the latest other speaker's before it (none before it in the turns: the first
    after it; none at all: the agent's own)."""
    speaker = turns[i].speaker
    if agent is None or speaker != agent or speaks_of_itself(turns[i].text):
        return speaker
    others = [t.speaker for t in (*reversed(turns[:i]), *turns[i + 1 :]) if t.speaker != agent]
    return others[0] if others else speaker


def _after_grammar(reading: Reading, before: list[Said], turn: int | None) -> None:
    """The passes that read what the grammars did not, in order, for a turn (`turn` its index among the
    recent turns; None for the message itself) said after `before`: a day or an amount moved by an amount
    first ("a day earlier" is no day of its own to replace one with), then swaps, replacements, answers."""
    shifts.bind(reading)
    raises.bind(reading)
    from_to.bind(reading)
    household.bind(reading)
    pets.bind(reading)
    swaps.bind(reading, [t.text for t in before[-3:] if t.speaker == reading.speaker])
    replacements.bind(reading, before, turn)
    tickets.bind(reading)  # (after: a number of a train is no other value's replacement)
    answers.bind(reading, before)


# a Latin word written into Chinese (去了ICU 护士长…): the space after it parts clauses too
_LATIN_IN_CJK_SPACE = re.compile(r"(?<=[\u4e00-\u9fff])([A-Za-z]+)([ \u3000]+)(?=[\u4e00-\u9fff])")
# a space between Chinese words parts clauses (涨到4500 说周边…, 好的 我知道了), but for one after what a verb
# takes (吃的 氨氯地平, 住的 望京: the space stands for 是)
_CJK_SPACE = re.compile(
    r"(?<=[\u4e00-\u9fff0-9])(?<![吃住用开买喝穿养租坐读学]的)[ \u3000]+(?=[\u4e00-\u9fff])"
)
# a person as written: a capitalised name after "my sister", "with", "and", or before a verb of people
_PERSON_WRITTEN = re.compile(
    r"(?:\b(?:my|our|his|her|their)\s+(?:[a-z-]+\s+){0,2}|\bwith\s+|\band\s+)(?-i:(?P<a>[A-Z][a-z]{2,}))\b|"
    r"(?-i:(?P<b>[A-Z][a-z]{2,}))\s+(?=(?:is|was|and|said|says|just|got|moved|lives|works|left|started|wants|"
    r"thinks|has|had)\b)"
)
_LOWER_WORD = re.compile(r"(?<![\w@./#-])[a-z]{3,}(?![\w@/#-]|\.\w)")  # a word, not part of an address


# names that are also words ("This is", "with Will"): never capitalised where written in lower case
_ALSO_WORDS = frozenset(
    {*STOP_WORDS, *(w.lower() for w in NOT_NAMES)}
    | {"will", "may", "mark", "bill", "grace", "hope", "rose", "pat", "sue", "jack", "frank", "rich", "art"}
    | {"june", "april", "august", "summer", "joy"}
)


@lru_cache(maxsize=512)
def _persons_written(text: str) -> dict[str, str]:
    found = (m["a"] or m["b"] for m in _PERSON_WRITTEN.finditer(text))
    return {w.lower(): w for w in found if w.lower() not in _ALSO_WORDS}


@lru_cache(maxsize=512)
def _lower_words(text: str) -> frozenset[str]:
    return frozenset(_LOWER_WORD.findall(text))


def _capitalise_known_names(reading: Reading, said: list[Said]) -> None:
    """ "luke just moved to Seattle" after "my brother Luke": a person written capitalised before (a
    speaker, a relative by name, a name before a verb of people) is that person when written in lower
    case (same length, so every offset holds); never a word capitalised for another reason ("Big Bear":
    not "big"). Read from the words alone: the recent turns are not read for it (a recent turn is read
    again for every later message, so its words are remembered)."""
    text = reading.text
    lower = _lower_words(text)
    if not lower:
        return
    written = {w.lower(): w for w in reading.speakers if w[:1].isupper() and w.lower() not in _ALSO_WORDS}
    for t in (*said, reading):
        written.update(_persons_written(t.text))
    for low in lower & written.keys():
        text = re.sub(rf"(?<![\w@./#-]){low}(?![\w@/#-]|\.\w)", written[low], text)
    reading.text = text


def _sentences(text: str) -> list[tuple[int, int]]:
    """Chinese sentences end at 。！？; the English grammar splits its own sentences further."""
    out, last = [], 0
    cjk = CJK.search(text)  # the first Chinese character from `last` on (looked for again once passed)
    for m in re.finditer(r"[。！？!?\n]+", text):
        if cjk is None:
            break
        if cjk.start() < m.end():
            out.append((last, m.end()))
            last = m.end()
            cjk = CJK.search(text, last)
    out.append((last, len(text)))
    return [(a, b) for a, b in out if text[a:b].strip()]


# A clause is read in pieces of at most this many characters, cut after a space or comma where it can be:
# the grammars look for a value to their clause's end, once per word that may start one, so a run-on clause
# of thousands of characters would be read in quadratic time. (A fact's evidence quotes at most 2,000
# characters: a clause up to that long is read whole, as before.)
CLAUSE_READ = 2000
_CUT_AFTER = re.compile(r".*[\s,，、;；]", re.S)


def _bounded(text: str, start: int, end: int) -> Iterable[tuple[int, int]]:
    """[start, end) in pieces of at most CLAUSE_READ characters (one piece, nearly always)."""
    while end - start > CLAUSE_READ:
        cut = _CUT_AFTER.match(text, start + CLAUSE_READ // 2, start + CLAUSE_READ)
        piece_end = cut.end() if cut is not None else start + CLAUSE_READ
        yield start, piece_end
        start = piece_end
    yield start, end


def _evidence(text: Spelled, start: int, end: int) -> Evidence:
    """The words of the read text's [start, end) as written."""
    start, end = text.span(start, end)
    return Evidence(start=start, end=end, quote=text.written[start:end])


def _delta(r: Reading, text: Spelled, recent: list[Spelled], vocabulary: Vocabulary) -> MemoryDelta:
    def fact(d: Draft) -> FactCandidate:
        quoted = text if d.said_in is None else recent[d.said_in]
        return FactCandidate(
            subject=d.subject,
            attribute=d.attribute,
            value=d.value,
            valid_from=d.valid_from,
            confidence=d.confidence,
            evidence=_evidence(quoted, d.start, d.end),
            correction=d.correction,
            category=vocabulary.category(d.attribute),
            replaces=_evidence(quoted, *d.replaces) if d.replaces else None,
            said_in=d.said_in,
        )

    # a fact said in an earlier turn first; a draft the delta cannot hold (a key without words ...) left out
    facts = _held(fact, sorted(r.facts, key=lambda d: d.said_in is None))
    entities = _entities(r, text)
    times = _held(
        lambda t: TimeMention(
            start=t[2].start, end=t[2].end, granularity=t[2].granularity, evidence=_evidence(text, t[0], t[1])
        ),
        r.times,
    )
    tasks = _held(lambda item: _item(text, item), r.tasks)
    decisions = _held(lambda item: _item(text, item), r.decisions)
    categories = [f.category for f in facts if f.category]
    category = Counter(categories).most_common(1)[0][0] if categories else None
    sensitivity = stricter(*(STANDARD_CATEGORIES.get(root(c)) for c in categories))
    if _PROCEDURAL.search(text.text):
        memory_type = "procedural"
    elif facts:
        memory_type = "semantic"
    else:
        memory_type = "episodic"
    salience = 0.1 + 0.4 * bool(facts) + 0.15 * any(f.correction for f in facts)
    salience += 0.15 * bool(tasks or decisions) + 0.1 * bool(times) + 0.05 * bool(entities)
    return MemoryDelta(  # each list as much as a delta holds (MAX_ITEMS), the first said first
        facts=facts[:MAX_ITEMS],
        entities=entities[:MAX_ITEMS],
        times=times[:MAX_ITEMS],
        tasks=tasks[:MAX_ITEMS],
        decisions=decisions[:MAX_ITEMS],
        memory_type=memory_type,
        category=category,
        sensitivity=sensitivity,  # type: ignore[arg-type]
        salience=round(min(salience, 1.0), 2),
    )


def _held(build: Callable[[Any], Any], items: Iterable[Any]) -> list[Any]:
    """Each item built, but those a delta cannot hold (evidence past its 2,000 characters, a key without
    words …): left out."""
    out = []
    for item in items:
        try:
            out.append(build(item))
        except ValidationError:
            continue
    return out


def _item(text: Spelled, item: Item) -> ActionItem:
    return ActionItem(
        text=item.text, owner=item.owner, due=item.due, evidence=_evidence(text, item.start, item.end)
    )


def _entities(r: Reading, text: Spelled) -> list[Entity]:
    found: dict[tuple[int, int], Entity] = {}
    covered = Marks(len(r.text))  # where a found entity lies: a name's overlap is looked up in its span

    def add(start: int, end: int, kind: str, free: bool = False) -> None:
        if (start, end) in found:
            return
        try:
            evidence = _evidence(text, start, end)
            if not (name := evidence.quote.strip()):
                return
            if not free and not covered.free(start, end) and any(a <= start and end <= b for a, b in found):
                return  # (lying in a found one: looked for only when one overlaps it)
            found[(start, end)] = Entity(text=name, kind=kind, evidence=evidence)  # type: ignore[arg-type]
        except ValidationError:
            return  # (a span longer than evidence quotes: capitalised words over many lines)
        covered.mark(start, end)

    for p in r.known_persons:
        if p.turn == r.turn and p.span is not None:
            add(*p.span, "person")
    for d in r.facts:
        if d.kind in _ENTITY_KINDS and d.value_span is not None and isinstance(d.value, str):
            add(*d.value_span, _ENTITY_KINDS[d.kind])
    for m in _CAPITALISED.finditer(r.text):
        if m[0] in rules_en.NOT_NAMES or r.in_a_time(m.start()) or r.times_from(m.start(), m.end()):
            continue  # (a time overlaps it: one started before covers its start, or one starts inside)
        if covered.free(m.start(), m.end()):  # (overlapping none, it lies in none)
            add(m.start(), m.end(), "other", free=True)
    return sorted(found.values(), key=lambda e: e.evidence.start)
