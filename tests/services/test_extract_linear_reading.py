"""The rules extractor's scans that were quadratic in a long message, made linear, answer as before: the
sentence around a span from the text's sentence ends found once (against the regex that found them again
for every span), and the values a turn states with found spans marked rather than compared one by one."""

from __future__ import annotations

import re
from datetime import UTC, datetime

from hypothesis import given, settings
from hypothesis import strategies as st

from budgets import examples
from memql.services.extract.common import sentence_around
from memql.services.extract.value_shapes import values

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
