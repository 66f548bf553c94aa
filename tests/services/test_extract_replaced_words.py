"""The words a change says its value replaced (FactCandidate.replaces; replaced_named.py): quoted from
the message, checked and re-anchored as every evidence is, and None when no old value is named."""

from __future__ import annotations

import pytest
from extract_helpers import extract

from memql.lang.delta import MemoryDelta, anchor_evidence, check_evidence


@pytest.mark.parametrize(
    "text, value, replaced",
    [
        ("my sister moved from Boise to Denver", "Denver", "Boise"),
        ("guess what, my sister left boise for denver lol", "Denver", "boise"),
        ("I left Google for Stripe", "Stripe", "Google"),
        ("my rent went from 1,850 to 1,925", "1,925", "1,850"),
        ("my passport deadline is June 30, not July 15", "2026-06-30", "July 15"),
        ("我从上海搬到杭州了", "杭州", "上海"),
        ("房东又要涨租 这个一室户从5800涨到6300", "6300", "5800"),
    ],
)
def test_the_words_of_the_value_a_change_ends(text, value, replaced):
    (fact,) = [f for f in extract(text).facts if f.value == value]
    assert fact.replaces is not None and fact.replaces.quote == replaced
    assert text[fact.replaces.start : fact.replaces.end] == replaced


@pytest.mark.parametrize("text", ["I moved to Denver last month", "我搬到杭州了", "my rent is 1,925 now"])
def test_no_replaced_words_when_none_are_said(text):
    assert [f.replaces for f in extract(text).facts] == [None]


def test_replaced_words_are_evidence_a_model_must_quote():
    text = "Hi! She left Boise for Denver."
    fact = {
        "subject": "Ana",
        "attribute": "residence",
        "value": "Denver",
        "valid_from": None,
        "confidence": 0.9,
        "evidence": {"start": 4, "end": 30, "quote": "She left Boise for Denver."},
        "replaces": {"start": 0, "end": 5, "quote": "Boise"},  # miscounted, as models do
    }
    delta = MemoryDelta.model_validate({"facts": [fact]})
    assert check_evidence(delta, text) == ["/facts/0/replaces: 'Boise' is not the text at [0, 5)"]
    anchored, problems = anchor_evidence(delta, text)
    assert problems == [] and anchored.facts[0].replaces.start == text.index("Boise")
    invented = MemoryDelta.model_validate(
        {"facts": [{**fact, "replaces": {"start": 0, "end": 6, "quote": "Austin"}}]}
    )
    assert anchor_evidence(invented, text)[1] == ["/facts/0/replaces: 'Austin' does not occur in the message"]
