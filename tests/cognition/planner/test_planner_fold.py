"""The rules planner's fold (lower-case, half-width, straight quotes, offsets kept) by str's own translate
and lower, against folding each character by itself: the same text, whatever the characters — full-width
letters and quotes, the ideographic space, "İ" (whose lower case is two characters) and "Σ" (whose lower
case depends on the word)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from budgets import examples
from memql.cognition.planner.rules.text import _fold_each, fold

_TRICKY = "AbΣσςİIıßẞ ＡＢｃ１＂＇（）　‘’“”「」『』《》Ǆǅǆ中文"


@settings(max_examples=examples(500), deadline=None)
@given(text=st.text(alphabet=st.sampled_from(_TRICKY) | st.characters(), max_size=30))
def test_fold_is_each_character_folded(text):
    folded = fold(text)
    assert folded == _fold_each(text)
    assert len(folded) == len(text)


def test_fold_examples():
    assert fold("Delete ＴＨＥ “Draft”　notes") == 'delete the "draft" notes'
    assert fold("İstanbul ΟΔΟΣ") == "İstanbul οδοσ"  # (each character by itself: offsets carry over)
