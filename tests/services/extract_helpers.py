"""Shared helpers of the extraction tests: a message said by Mira on Monday 2 March 2026 at 09:00 UTC,
the rule extractor's facts as plain tuples, and the evidence check every delta must pass."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

from memql.lang.delta import MemoryDelta, Turn, Utterance, check_evidence
from memql.services.extract import RuleExtractor

NOW = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)  # a Monday
SHANGHAI = timezone(timedelta(hours=8))
EXTRACTOR = RuleExtractor()


def message(text: str, recent=(), speaker: str = "Mira", now=NOW) -> Utterance:
    """`recent` holds texts of the same speaker or (speaker, text) pairs, oldest first."""
    turns = []
    for turn in recent:
        who, said = turn if isinstance(turn, tuple) else (speaker, turn)
        turns.append(Turn(speaker=who, text=said, time=now))
    return Utterance(speaker=speaker, text=text, time=now, recent=tuple(turns))


def extract(text: str, recent=(), speaker: str = "Mira", now=NOW) -> MemoryDelta:
    said = message(text, recent, speaker, now)
    delta = EXTRACTOR.extract(said)
    assert check_evidence(delta, text, said.recent) == [], "every evidence quotes its turn exactly"
    return delta


def facts(text: str, recent=(), speaker: str = "Mira", now=NOW) -> set[tuple]:
    """{(subject, attribute, value)} of the rule extractor's facts stated by the message itself (not the
    earlier values it shows were facts: those are `said_in` a recent turn)."""
    delta = extract(text, recent, speaker, now)
    return {(f.subject, f.attribute, f.value) for f in delta.facts if f.said_in is None}


def own(text: str, recent=(), speaker: str = "Mira", now=NOW) -> set[tuple]:
    """The facts without the relation facts a named relative brings along."""
    return {t for t in facts(text, recent, speaker, now) if not t[1].startswith("relation.")}


def facts_of_turns(
    *turns: tuple[str, str], agent: str = "assistant", corrections: bool = False
) -> set[tuple]:
    """The facts the last (speaker, text) turn states, the turns before it as its recent turns, the agent
    named: (subject, attribute, value), with `corrections` also whether each is a correction."""
    *before, (speaker, text) = turns
    recent = tuple(Turn(speaker=s, text=t, time=NOW) for s, t in before)
    said = Utterance(speaker=speaker, text=text, time=NOW, recent=recent, agent=agent)
    delta = EXTRACTOR.extract(said)
    assert check_evidence(delta, text, said.recent) == [], "every evidence quotes its turn as written"
    own = [f for f in delta.facts if f.said_in is None]
    if corrections:
        return {(f.subject, f.attribute, f.value, f.correction) for f in own}
    return {(f.subject, f.attribute, f.value) for f in own}
