"""Chunking: sizes respected, content preserved, cuts at sensible places, in English and Chinese."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from budgets import examples
from memql.services import (
    chunk_by_count,
    chunk_by_size,
    split_by_delimiters,
    split_by_topics,
    split_markdown_sections,
)

EN = "The cat sat. The dog ran far away. Birds sing in the morning. Fish swim."
ZH = "今天天气很好。我们去公园散步。公园里有很多人，大家都很开心。晚上我们回家了。"


def _squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


def test_chunk_by_size_packs_whole_sentences():
    assert chunk_by_size(EN, 40) == [
        "The cat sat. The dog ran far away.",
        "Birds sing in the morning. Fish swim.",
    ]
    assert chunk_by_size(EN, 1000) == [EN]
    assert chunk_by_size(ZH, 16) == [
        "今天天气很好。我们去公园散步。",
        "公园里有很多人，大家都很开心。",
        "晚上我们回家了。",
    ]


def test_chunk_by_size_cuts_long_sentences():
    assert chunk_by_size("one two three four five six", 10) == ["one two", "three four", "five six"]
    assert chunk_by_size("abcdefghij", 4) == ["abcd", "efgh", "ij"]
    assert chunk_by_size("公园里有很多人，大家都很开心", 10) == ["公园里有很多人，", "大家都很开心"]
    assert chunk_by_size("机器学习是人工智能的分支", 5) == ["机器学习是", "人工智能的", "分支"]


def test_chunk_by_size_keeps_formatting_and_rejects_bad_size():
    text = "- item one\n- item two\n- item three"
    assert chunk_by_size(text, 22) == ["- item one\n- item two", "- item three"]
    assert chunk_by_size("", 10) == []
    with pytest.raises(ValueError):
        chunk_by_size("x", 0)


_ALPHABET = "ab Z.!?。，学习\n"


@settings(max_examples=examples(250), deadline=None, database=None)
@given(st.text(alphabet=_ALPHABET, max_size=120), st.integers(min_value=1, max_value=30))
def test_chunk_by_size_invariants(text, max_chars):
    chunks = chunk_by_size(text, max_chars)
    assert all(0 < len(c) <= max_chars and c == c.strip() for c in chunks)
    assert _squash("".join(chunks)) == _squash(text)


def test_chunk_by_count_sentence_boundaries():
    assert chunk_by_count(EN, 2) == [
        "The cat sat. The dog ran far away.",
        "Birds sing in the morning. Fish swim.",
    ]
    assert chunk_by_count(ZH, 2) == [
        "今天天气很好。我们去公园散步。",
        "公园里有很多人，大家都很开心。晚上我们回家了。",
    ]
    assert chunk_by_count(EN, 1) == [EN]


def test_chunk_by_count_falls_back_to_words_then_characters():
    assert chunk_by_count("one two three four", 2) == ["one two", "three four"]
    assert chunk_by_count("机器学习很有趣", 3) == ["机器", "学习很", "有趣"]
    assert chunk_by_count("ab", 5) == ["a", "b"]
    assert chunk_by_count("  ", 3) == []
    with pytest.raises(ValueError):
        chunk_by_count("x", 0)


@settings(max_examples=examples(250), deadline=None, database=None)
@given(st.text(alphabet=_ALPHABET, max_size=120), st.integers(min_value=1, max_value=12))
def test_chunk_by_count_invariants(text, n):
    parts = chunk_by_count(text, n)
    visible = len(_squash(text))
    assert len(parts) == min(n, visible)
    assert all(p and p == p.strip() for p in parts)
    assert _squash("".join(parts)) == _squash(text)


def test_chunk_by_count_balances_sizes():
    text = " ".join(f"Sentence {i} has some words." for i in range(20))
    parts = chunk_by_count(text, 4)
    assert len(parts) == 4
    sizes = [len(p) for p in parts]
    assert max(sizes) - min(sizes) <= 30


def test_split_by_delimiters_labels_and_separators():
    text = "Q: What is it? A: A cat.\n\nQ: Where? A: Home."
    assert split_by_delimiters(text, ["Q:", "A:"]) == ["Q: What is it?", "A: A cat.", "Q: Where?", "A: Home."]
    assert split_by_delimiters("one\n\ntwo\n\n\nthree", ["\n\n"]) == ["one", "two", "three"]
    assert split_by_delimiters("a --- b --- c", ["---"]) == ["a", "b", "c"]
    assert split_by_delimiters("问题：吃什么？答案：面条。问题：几点？", ["问题：", "答案："]) == [
        "问题：吃什么？",
        "答案：面条。",
        "问题：几点？",
    ]
    assert split_by_delimiters("Step 1 wash Step 2 dry", ["Step"]) == ["Step 1 wash", "Step 2 dry"]
    assert split_by_delimiters("no delimiters here", ["|"]) == ["no delimiters here"]
    assert split_by_delimiters("  x  ", []) == ["x"]


def test_split_by_delimiters_longest_match_wins():
    assert split_by_delimiters("a\n\n\nb\nc", ["\n", "\n\n\n"]) == ["a", "b", "c"]


def test_split_by_topics_english():
    text = (
        "I booked a flight to Tokyo. The hotel is near the station. "
        "My knee hurts after running. The doctor prescribed rest. The flight leaves at nine."
    )
    parts = split_by_topics(text, ["travel flight hotel", "health doctor knee"])
    assert parts == [
        (
            "travel flight hotel",
            "I booked a flight to Tokyo. The hotel is near the station. The flight leaves at nine.",
        ),
        ("health doctor knee", "My knee hurts after running. The doctor prescribed rest."),
    ]


def test_split_by_topics_ties_follow_previous_and_empty_topics_vanish():
    text = "Doctors help. They work long hours. Something unrelated."
    assert split_by_topics(text, ["cooking", "doctor"]) == [("doctor", text)]  # "doctor" ~ "doctors"
    assert split_by_topics("Nothing matches here.", ["alpha", "beta"]) == [("alpha", "Nothing matches here.")]
    with pytest.raises(ValueError):
        split_by_topics(text, [" "])


def test_split_by_topics_chinese():
    text = "我明天去北京旅行。旅行要带护照。最近身体不好，要看医生。医生说多休息。"
    assert split_by_topics(text, ["旅行", "医生"]) == [
        ("旅行", "我明天去北京旅行。旅行要带护照。"),
        ("医生", "最近身体不好，要看医生。医生说多休息。"),
    ]


def test_split_markdown_sections():
    text = "Preface text.\n# One\nalpha\n```\n# comment in code\n```\n## Two\nbeta\n    # indented code"
    assert split_markdown_sections(text) == [
        "Preface text.",
        "# One\nalpha\n```\n# comment in code\n```",
        "## Two\nbeta\n    # indented code",
    ]
    assert split_markdown_sections("# 标题\n内容\n# 第二\n更多") == ["# 标题\n内容", "# 第二\n更多"]
    assert split_markdown_sections("\n\n# Only\n") == ["# Only"]
