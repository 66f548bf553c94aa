"""The rules extractor's scans that were quadratic in a long message, made linear, answer as before: the
sentence around a span from the text's sentence ends found once (against the regex that found them again
for every span), the values a turn states with found spans marked rather than compared one by one, the
times looked up by where they start, the sentences found with one look for Chinese per sentence; and a
run-on clause is read in pieces that cover it."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from itertools import pairwise

from hypothesis import given, settings
from hypothesis import strategies as st

from budgets import examples
from memql.lang.time import TimeSpan
from memql.services.extract import rules
from memql.services.extract.common import CJK, MOST_READ, Draft, Person, Reading, sentence_around
from memql.services.extract.value_shapes import values
from memql.services.extract.vocabulary import DEFAULT_VOCABULARY

_NOW = datetime(2026, 3, 2, 9, tzinfo=UTC)
_SPAN = TimeSpan(_NOW, _NOW + timedelta(days=1), "day")

# the code before: every sentence end before `start` found again for each call
_SENTENCE_END = re.compile(r"(?:(?<!\d)\.|\.(?!\d)|[!?。！？\n])\s*")


def sentence_around_before(text: str, start: int, end: int) -> tuple[int, int]:
    left = max((m.end() for m in _SENTENCE_END.finditer(text[:start])), default=0)
    right = _SENTENCE_END.search(text, end)
    return left, right.start() if right else len(text)


texts = st.text(alphabet=".!?。 \n\t1９a,", max_size=40)


@settings(max_examples=examples(400), deadline=None)
@given(data=st.data(), text=texts)
def test_the_sentence_around_a_span_is_the_one_the_regex_found(data, text):
    start = data.draw(st.integers(0, len(text)))
    end = data.draw(st.integers(start, len(text)))
    assert sentence_around(text, start, end) == sentence_around_before(text, start, end)


def test_values_of_a_turn_as_before():
    now = datetime(2026, 3, 2, 9, tzinfo=UTC)
    said = (
        "The rent is $1,200 a month, I weigh 72 kg, the wifi is Zh#home2026 and Maria Lopez calls 555-0143 "
        "on Friday"
    )
    assert [(v.kind, v.value) for v in values(said, now)] == [
        ("money", "$1,200"),
        ("measure:kg", "72 kg"),
        ("code", "Zh#home2026"),
        ("phone", "555-0143"),
        ("date", "2026-03-06"),
    ]
    digits = "１２３４５６７８ and 9" * 3  # full-width digits: a number from its first digit
    assert [v.value for v in values(digits, now)] == [
        "１２３４５６７８",
        "9１２３４５６７８",
        "9１２３４５６７８",
        "9",
    ]


spans = st.lists(st.tuples(st.integers(0, 30), st.integers(1, 8)), max_size=12).map(
    lambda found: sorted((a, a + n) for a, n in found)
)


@settings(max_examples=examples(300), deadline=None)
@given(found=spans, start=st.integers(-2, 40), length=st.integers(0, 20))
def test_times_looked_up_by_their_start_are_those_a_scan_finds(found, start, length):
    """Reading's time lookups (by where each time starts, in the order of their starts) against a scan
    of every time, as they were before; also after a time is read anew (`retime`, its end moved)."""
    end = start + length
    reading = Reading(
        "x" * 40, "mira", _NOW, DEFAULT_VOCABULARY, 0, [(a, b, _SPAN) for a, b in found], [], [], frozenset()
    )
    for moved in (False, True):
        if moved and found:
            reading.times_in(0, 40)  # (the index built before the change)
            reading.retime(len(found) // 2, reading.times[len(found) // 2][1] + length, _SPAN)
        times = reading.times
        assert reading.times_in(start, end) == [t for t in times if t[0] >= start and t[1] <= end]
        assert reading.times_from(start, end) == [t for t in times if start <= t[0] < end]
        assert reading.in_a_time(start) == any(t0 <= start < t1 for t0, t1, _ in times)


clause_text = st.text(alphabet="ab ,，。!?\n中", max_size=60)


@settings(max_examples=examples(300), deadline=None)
@given(text=clause_text)
def test_sentences_are_those_found_by_looking_for_chinese_in_each(text):
    assert rules._sentences(text) == _sentences_before(text)


def _sentences_before(text: str) -> list[tuple[int, int]]:
    """The code before: a search for a Chinese character from the last sentence's end at every end."""
    out, last = [], 0
    for m in re.finditer(r"[。！？!?\n]+", text):
        if CJK.search(text, last, m.end()):
            out.append((last, m.end()))
            last = m.end()
    out.append((last, len(text)))
    return [(a, b) for a, b in out if text[a:b].strip()]


def test_a_run_on_clause_is_read_in_pieces_that_cover_it():
    text = ("word, " * 500) + "x" * 3000
    pieces = list(rules._bounded(text, 3, len(text)))
    assert pieces[0][0] == 3 and pieces[-1][1] == len(text)
    assert all(b == c for (_, b), (c, _) in pairwise(pieces))  # one after another, no gap
    assert all(0 < b - a <= rules.CLAUSE_READ for a, b in pieces)
    assert text[pieces[0][1] - 1] in ", "  # cut after a comma or a space where there is one
    assert text[pieces[-2][1] - 1] == "x"  # (none in the x's: cut where the bound falls)
    assert list(rules._bounded(text, 0, 999)) == [(0, 999)]


def test_a_message_is_read_for_at_most_most_read_facts_and_people():
    """Beyond MOST_READ (four times what a delta holds) a new fact or person is not kept: each would be
    compared with all before it."""
    reading = Reading("x" * 10, "mira", _NOW, DEFAULT_VOCABULARY, 0, [], [], [], frozenset())
    for i in range(MOST_READ + 5):
        reading.add(Draft("mira", f"pet.{i}", "Rex", 0, 3, _NOW))
        reading.name_person(f"Ann{i}", None)
    assert len(reading.facts) == len(reading.known_facts) == len(reading.known_persons) == MOST_READ
    assert [d.attribute for d in reading.facts[-2:]] == [f"pet.{MOST_READ - 2}", f"pet.{MOST_READ - 1}"]
    # the people of the recent turns are not this message's: they leave it its own
    earlier = [Person(f"Old{i}", None, 0, None) for i in range(MOST_READ + 5)]
    later = Reading("x" * 10, "mira", _NOW, DEFAULT_VOCABULARY, 1, [], [], [], frozenset())
    later.context = lambda: ([], earlier)
    assert len(later.persons) == MOST_READ + 5
    later.name_person("Zed", None)
    assert later.persons[-1].name == "Zed"
