"""The earlier turns a message is shown beside its recent ones: those that stated the speaker's current
facts of what the message changes, so a change said sessions later still finds the value it changes
(memql.cognition.conversation.formation reads each message with them)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime

from memql.cognition.conversation.stale_forms import StoredFact
from memql.lang.delta import Turn
from memql.services.extract.answers import pet_of
from memql.services.extract.common import names_key
from memql.services.extract.doses import names_a_dose
from memql.services.extract.replacements import CORRECTION, names_a_name_of
from memql.services.extract.value_shapes import values


def _says_word(text: str, value: object) -> bool:
    """The text says a held one-word name as a word, in any case ("moved pickle to friday" of a cat's
    Pickle)."""
    word = str(value)
    return word.isalpha() and len(word) >= 4 and re.search(rf"\b{re.escape(word)}\b", text, re.I) is not None


def _says_value(text: str, value: object, at: datetime | None) -> bool:
    """The text says the value: its words, or its time on the clock's face (a moment's "4:30", said on
    another day, with or without pm)."""
    said = values(text, at) if at is not None else []
    if any(str(v.value) == str(value) for v in said):
        return True
    moment = str(value)
    if len(moment) < 16 or moment[10] != "T":
        return False
    face = _clock_face(moment)  # "4:30" is read as 04:30 where no am/pm is said
    return any(v.kind == "clock" and _clock_face(str(v.value)) == face for v in said)


def _names_another(text: str, said: str, f: StoredFact, at: datetime | None) -> bool:
    """The text says another value of the fact's shape and it or its recent turns name the fact's key
    ("do you need to update your insurance?" … "$118 a month w them" … "its $124/mo now")."""
    if at is None or not names_key(said, f.attribute):
        return False
    shapes = {v.kind for v in values(str(f.value), at) if v.rare()}
    return any(v.kind in shapes for v in values(text, at))


def _corrects_clock(text: str, f: StoredFact, at: datetime | None) -> bool:
    """A correction that says a clock, of a held moment ("改到周五上午十点" … "不对 … 是十点半"): the
    moment's time is what it corrects."""
    moment = str(f.value)
    if at is None or len(moment) < 16 or moment[10] != "T" or not CORRECTION.search(text):
        return False
    return any(v.kind == "clock" for v in values(text, at))


def _clock_face(moment: str) -> tuple[int, str]:
    return int(moment[11:13]) % 12, moment[14:16]


HELD_TURNS = 3  # the most a message is shown of earlier turns that stated a current fact of a key it names
_HELD_LOOKED_AT = 40  # the speaker's latest current facts looked at for them (a long conversation has more)


def held_turns(
    facts: Sequence[StoredFact], speaker: str, text: str, recent: Sequence[Turn], at: datetime | None = None
) -> list[Turn]:
    """The turns, older than `recent`, that stated `speaker`'s current facts whose key the message or its
    recent turns name ("rent" … "from june 1 it's $1,595"), or whose name the message says ("okafor is
    going on sabbatical so I'm handed over to prof lindqvist" … "my advisor Dr. Okafor"), oldest first:
    each as the words that stated it, so a change said sessions later still finds the value it changes;
    of a current fact a recent turn stated as a change, the value it changed."""
    live = [f for f in facts if f.valid_to is None and f.subject == speaker and f.evidence and f.source]
    in_recent = {t.source for t in recent}
    said = " ".join([text, *(t.text for t in recent)])
    # the days the message and its recent turns say ("strike announced for the 19th"): a held fact of that
    # day is the one a change ("they moved me to the 21st") may move
    spoken = [(t.text, t.time or at) for t in recent] + [(text, at)]
    days = {
        str(v.value)[:10]
        for said_text, when in spoken
        if when
        for v in values(said_text, when)
        if v.kind == "date"
    }
    # a current fact a recent turn stated by changing an older value, which the message says again ("its
    # 4:15 not 4:30" after "push me to 4:30 same day", itself after "dentist is tuesday feb 17 at 3pm"):
    # the older turn, without which the recent one says nothing
    replaced = {
        (f.attribute, f.valid_to): f
        for f in facts
        if f.valid_to is not None and f.subject == speaker and f.evidence and f.source
    }
    out: list[Turn] = []
    shown: set[tuple] = set()  # (a message that stated two facts shows the words of each)
    for f in reversed(live[-_HELD_LOOKED_AT:]):
        if f.source in in_recent:
            says = _says_value(text, f.value, at) or _corrects_clock(text, f, at)
            if not (says or _names_another(text, said, f, at)):
                continue
            f = replaced.get((f.attribute, f.valid_from))  # type: ignore[assignment]
            if f is None or f.source in in_recent:
                continue
        if (f.source, f.evidence) in shown:
            continue
        named = names_key(said, f.attribute) or names_a_name_of(str(f.value), text)
        said_day = isinstance(f.value, str) and len(f.value) >= 10 and f.value[:10] in days
        if not (named or said_day or _says_word(said, f.value) or names_a_dose(said, f.value)):
            continue
        shown.add((f.source, f.evidence))
        out.append(Turn(speaker=speaker, text=f.evidence, time=f.valid_from, source=f.source))  # type: ignore[arg-type]
        if len(out) == HELD_TURNS:
            break
    return out[::-1]


def pet_turn(facts: Sequence[StoredFact], speaker: str, recent: Sequence[Turn]) -> list[Turn]:
    """The turn that named the speaker's one animal, when older than `recent`: what a message saying 它
    (医生说它4.2公斤) needs to know whose it is; none with no animal or several."""
    pets = [f for f in facts if f.valid_to is None and pet_of(f, speaker) and f.evidence and f.source]
    if len({f.subject for f in pets}) != 1 or pets[-1].source in {t.source for t in recent}:
        return []
    f = pets[-1]
    return [Turn(speaker=speaker, text=f.evidence, time=f.valid_from, source=f.source)]  # type: ignore[arg-type]
