"""Extractive summaries: within budget, focus-sensitive, de-duplicated, deterministic; token estimates."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from budgets import examples
from memql.services import estimate_tokens, summarize

EN = (
    "Machine learning is a field of artificial intelligence. "
    "Machine learning systems learn patterns from data. "
    "Deep learning is a part of machine learning that uses neural networks. "
    "My passport expires in June. "
    "The weather was pleasant yesterday."
)
ZH = (
    "机器学习是人工智能的一个分支。机器学习系统从数据中学习规律。"
    "深度学习是机器学习的一个子领域。我的护照六月到期。昨天天气很好。"
)


def test_estimate_tokens():
    assert estimate_tokens("") == 0
    assert estimate_tokens("   ") == 0
    assert estimate_tokens("cat") == 1
    assert estimate_tokens("internationalization") == 5  # ceil(20 / 4)
    assert estimate_tokens("Hello, world!") == 6  # hello=2 ,=1 world=2 !=1
    assert estimate_tokens("你好世界。") == 5
    assert estimate_tokens("don't ...!?") == 3  # "don't" (5 chars) = 2, one punctuation run
    assert estimate_tokens("机器learning") == 4


def test_summary_prefers_central_sentences():
    summary = summarize([EN], 25)
    assert "machine learning" in summary.lower()
    assert "weather" not in summary and "passport" not in summary
    assert estimate_tokens(summary) <= 25


def test_focus_changes_the_choice():
    assert summarize([EN], 10, focus="passport") == "My passport expires in June."
    assert summarize([EN], 10, focus="weather yesterday") == "The weather was pleasant yesterday."
    assert summarize([ZH], 12, focus="护照") == "我的护照六月到期。"
    assert summarize([ZH], 12) != "我的护照六月到期。"


def test_chinese_summary_joins_without_spaces():
    summary = summarize([ZH], 40)
    assert " " not in summary
    assert "机器学习" in summary and estimate_tokens(summary) <= 40


def test_output_keeps_original_order_and_skips_near_duplicates():
    texts = [
        "Alpha beta gamma delta. Unrelated filler sentence here.",
        "Alpha beta gamma delta!",
        "Filler sentence unrelated here, alpha.",
    ]
    # the third text's sentence is more central (it shares "alpha"); text 1's second sentence has the
    # same words but one (Jaccard 0.8) and the repeated first sentence is identical: both are skipped
    assert summarize(texts, 100) == "Alpha beta gamma delta. Filler sentence unrelated here, alpha."


def test_truncates_when_best_sentence_is_too_long():
    long_en = "Extraordinarily comprehensive documentation describes everything thoroughly."
    out = summarize([long_en], 6)
    assert out.endswith("…") and estimate_tokens(out) <= 6
    assert long_en.startswith(out[:-1])
    assert summarize(["机器学习是人工智能的一个分支"], 5) == "机器学习…"
    assert summarize(["Supercalifragilisticexpialidocious"], 3) == "Supercal…"
    assert summarize(["anything at all"], 1) == "…"


def test_empty_and_invalid():
    assert summarize([], 10) == ""
    assert summarize(["", "  ", "..."], 10) == ""
    with pytest.raises(ValueError):
        summarize(["x"], 0)


def test_deterministic():
    texts = [EN, ZH, "Tie one. Tie two. Tie three."]
    first = summarize(texts, 30, focus="learning")
    assert all(summarize(texts, 30, focus="learning") == first for _ in range(3))
    assert summarize(["Same words here.", "Words here same."], 5) == "Same words here."


_WORDS = [
    "cat",
    "dog",
    "machine",
    "learning",
    "passport",
    "的",
    "机器",
    "学习",
    "护照",
    "ok",
    "internationalization",
]


@st.composite
def _texts(draw):
    sentences = draw(
        st.lists(
            st.tuples(
                st.lists(st.sampled_from(_WORDS), min_size=1, max_size=12),
                st.sampled_from([". ", "。", "! "]),
            ),
            max_size=8,
        )
    )
    return "".join(" ".join(words) + end for words, end in sentences)


@settings(max_examples=examples(200), deadline=None, database=None)
@given(
    st.lists(_texts(), max_size=3),
    st.integers(min_value=1, max_value=40),
    st.one_of(st.none(), st.sampled_from(_WORDS)),
)
def test_summary_within_budget(texts, budget, focus):
    summary = summarize(texts, budget, focus=focus)
    assert estimate_tokens(summary) <= budget
    assert summary == summarize(texts, budget, focus=focus)
    if any(t.strip() for t in texts):
        assert summary


@settings(max_examples=examples(100), deadline=None, database=None)
@given(st.text(max_size=80), st.integers(min_value=1, max_value=20))
def test_summary_within_budget_any_text(text, budget):
    assert estimate_tokens(summarize([text], budget)) <= budget
