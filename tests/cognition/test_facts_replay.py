"""A replay in SGAM's style: a fixed sequence of episodes is fed one by one — each stored as an episode
record, then the facts read from it, with the episode as their source — and after every episode the same
questions are asked: the current state, the state at a world time, and the state as recorded at an
earlier record time. Each answer is exact, source included. Record-time answers once given never change.

The episodes cover the passport example of memql issue 6 (e1: deadline 2026-07-15; e2: corrected to
2026-06-30 -> current 2026-06-30 from e2, as of 2026-06-02 2026-07-15 from e1), a late-arriving older
value, a repeat, an earlier-starting equal value, a value that splits a window, and a same-time
correction."""

from __future__ import annotations

from datetime import UTC, datetime
from itertools import pairwise

import pytest


def at(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


# (name, recorded at, text, [(subject, attribute, value, valid_from or None: the episode's time)])
EPISODES = [
    (
        "e1",
        "2026-06-01T09:00",
        "Passport renewal: the deadline is 2026-07-15. Alice has lived in Paris since January.",
        [("passport", "deadline", "2026-07-15", None), ("alice", "city", "Paris", "2026-01-01")],
    ),
    (
        "e2",
        "2026-06-10T09:00",
        "Correction: the passport deadline is 2026-06-30.",
        [("passport", "deadline", "2026-06-30", None)],
    ),
    ("e3", "2026-06-12T09:00", "Alice moved to Lyon on May 20.", [("alice", "city", "Lyon", "2026-05-20")]),
    (
        "e4",
        "2026-06-15T09:00",
        "Back in 2025 Alice lived in Berlin, from March.",
        [("alice", "city", "Berlin", "2025-03-01")],
    ),
    (
        "e5",
        "2026-06-20T09:00",
        "Reminder: the passport deadline is 2026-06-30.",
        [("passport", "deadline", "2026-06-30", None)],
    ),
    (
        "e6",
        "2026-06-22T09:00",
        "Alice has been in Lyon since May 1, actually.",
        [("alice", "city", "Lyon", "2026-05-01")],
    ),
    (
        "e7",
        "2026-06-23T09:00",
        "In March Alice was still in Paris.",
        [("alice", "city", "Paris", "2026-03-01")],
    ),
    ("e8", "2026-06-24T09:00", "Alice spent February in Rome.", [("alice", "city", "Rome", "2026-02-01")]),
    (
        "e9",
        "2026-06-28T09:00",
        "The passport office moved the deadline to 2026-07-01.",
        [("passport", "deadline", "2026-07-01", None)],
    ),
    (
        "e10",
        "2026-06-29T09:00",
        "Correction to e8: in February Alice was in Milan, not Rome.",
        [("alice", "city", "Milan", "2026-02-01")],
    ),
]

# after episode N (and every later one): (subject, attribute, world time or None, record time or None)
# -> (value, source episode) or None. None world time = now; None record time = what memql knows now.
GOLD: dict[str, dict[tuple, tuple | None]] = {
    "e1": {
        ("passport", "deadline", None, None): ("2026-07-15", "e1"),
        ("alice", "city", None, None): ("Paris", "e1"),
        ("alice", "city", "2025-12-31", None): None,
        ("passport", "deadline", "2026-05-31", None): None,  # valid from the episode's time only
    },
    "e2": {
        ("passport", "deadline", None, None): ("2026-06-30", "e2"),
        ("passport", "deadline", "2026-06-02", None): ("2026-07-15", "e1"),  # the example
        ("passport", "deadline", None, "2026-06-05"): ("2026-07-15", "e1"),  # what was known on June 5
        ("passport", "deadline", "2026-06-20", "2026-06-05"): ("2026-07-15", "e1"),
    },
    "e3": {
        ("alice", "city", None, None): ("Lyon", "e3"),
        ("alice", "city", "2026-05-01", None): ("Paris", "e1"),
        ("alice", "city", "2026-05-25", None): ("Lyon", "e3"),
        ("alice", "city", "2026-05-25", "2026-06-11"): ("Paris", "e1"),
    },
    "e4": {
        ("alice", "city", None, None): ("Lyon", "e3"),  # a late older value does not disturb the current
        ("alice", "city", "2025-06-01", None): ("Berlin", "e4"),
        ("alice", "city", "2026-02-01", None): ("Paris", "e1"),
        ("alice", "city", "2025-06-01", "2026-06-14"): None,
    },
    "e5": {
        ("passport", "deadline", None, None): ("2026-06-30", "e2"),  # a repeat: nothing new
    },
    "e6": {
        ("alice", "city", None, None): ("Lyon", "e6"),  # the window now starts with e6's evidence
        ("alice", "city", "2026-05-10", None): ("Lyon", "e6"),
        ("alice", "city", "2026-05-10", "2026-06-21"): ("Paris", "e1"),
    },
    "e7": {
        ("alice", "city", "2026-03-15", None): ("Paris", "e1"),  # e7 confirms Paris within e1's window
    },
    "e8": {
        ("alice", "city", "2026-01-15", None): ("Paris", "e1"),
        ("alice", "city", "2026-02-15", None): ("Rome", "e8"),
        ("alice", "city", "2026-03-15", None): ("Paris", "e7"),  # Paris again, resting on e7 alone
        ("alice", "city", "2026-02-15", "2026-06-23T12:00"): ("Paris", "e1"),
        ("alice", "city", None, None): ("Lyon", "e6"),
    },
    "e9": {
        ("passport", "deadline", None, None): ("2026-07-01", "e9"),
        ("passport", "deadline", "2026-06-15", None): ("2026-06-30", "e2"),
        ("passport", "deadline", "2026-06-02", None): ("2026-07-15", "e1"),
        ("passport", "deadline", "2026-06-29", "2026-06-21"): ("2026-06-30", "e2"),
    },
    "e10": {
        ("alice", "city", "2026-02-15", None): ("Milan", "e10"),
        ("alice", "city", "2026-02-15", "2026-06-25"): ("Rome", "e8"),
    },
}

HISTORY_AT_THE_END = {
    ("alice", "city"): [
        ("Berlin", "2025-03-01", "2026-01-01", "e4"),
        ("Paris", "2026-01-01", "2026-02-01", "e1"),
        ("Rome", "2026-02-01", "2026-02-01", "e8"),  # corrected: an empty window
        ("Milan", "2026-02-01", "2026-03-01", "e10"),
        ("Paris", "2026-03-01", "2026-05-01", "e7"),
        ("Lyon", "2026-05-01", None, "e6"),
    ],
    ("passport", "deadline"): [
        ("2026-07-15", "2026-06-01T09:00", "2026-06-10T09:00", "e1"),
        ("2026-06-30", "2026-06-10T09:00", "2026-06-28T09:00", "e2"),
        ("2026-07-01", "2026-06-28T09:00", None, "e9"),
    ],
}


@pytest.fixture
def replay(m, clock):
    """Feed the episodes one by one; yield after each: (name, {episode name: its source string})."""

    def run():
        sources: dict[str, str] = {}
        for name, recorded, text, facts in EPISODES:
            clock.set(at(recorded))
            episode = m.encode(text, type="episode", time=at(recorded).isoformat(), dedupe=False)
            assert episode.success, episode.diagnostics
            sources[name] = f"episode:{episode.id}"
            for subject, attribute, value, valid_from in facts:
                fact = {"subject": subject, "attribute": attribute, "value": value}
                if valid_from is not None:
                    fact["valid_from"] = at(valid_from).isoformat()
                result = m.encode(structured=fact, source=sources[name], time=at(recorded).isoformat())
                assert result.success, result.diagnostics
            yield name, sources

    return run()


def _short(instant: datetime | None) -> str | None:
    if instant is None:
        return None
    return instant.strftime("%Y-%m-%dT%H:%M" if instant.hour or instant.minute else "%Y-%m-%d")


def _answer(m, question, sources):
    subject, attribute, world, recorded = question
    result = m.facts.get(
        subject,
        attribute,
        as_of=at(world) if world else None,
        recorded_at=at(recorded) if recorded else None,
    )
    assert result.success and not result.diagnostics
    if not result.facts:
        return None
    (fact,) = result.facts
    by_source = {v: k for k, v in sources.items()}
    return fact.value, by_source[fact.source]


def test_every_question_is_answered_exactly_after_every_episode(m, clock, replay):
    asked: dict[tuple, tuple | None] = {}
    for name, sources in replay:
        now = clock.now()
        asked = {q: a for q, a in asked.items() if q[3] is not None}  # record-time answers never change
        asked.update(GOLD[name])
        for question, expected in asked.items():
            assert _answer(m, question, sources) == expected, (name, question)
        clock.set(now)  # the reads above are operations too, at the episode's record time


def test_the_histories_at_the_end_carry_every_window_and_source(m, db, replay):
    *_, (_last, sources) = list(replay)
    by_source = {v: k for k, v in sources.items()}
    for (subject, attribute), expected in HISTORY_AT_THE_END.items():
        facts = m.facts.history(subject, attribute).facts
        got = [(f.value, _short(f.valid_from), _short(f.valid_to), by_source[f.source]) for f in facts]
        assert got == expected
        ids = [f.id for f in facts]
        chain = {(later, earlier, "supersedes") for earlier, later in pairwise(ids)}
        assert {link for link in db.links(m, *ids) if link[2] == "supersedes"} == chain
    # the repeat (e5) and the confirmation (e7) added evidence, not records; e7's own window came back
    # when e8 split e1's Paris, and e10's correction left Rome's record with its empty window
    paris = [f for f in m.facts.history("alice", "city").facts if f.value == "Paris"]
    assert [[by_source[e["source"]] for e in f.evidence] for f in paris] == [["e1"], ["e7"]]
    (deadline,) = [f for f in m.facts.history("passport", "deadline").facts if f.value == "2026-06-30"]
    assert [by_source[e["source"]] for e in deadline.evidence] == ["e2", "e5"]
    kinds = [r.kind for r in db.records(m).values()]
    assert kinds.count("episode") == len(EPISODES) and kinds.count("fact") == 9
