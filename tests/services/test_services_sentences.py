"""Sentence and paragraph splitting: English abbreviations, decimals, quotes, lists; Chinese punctuation."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from budgets import examples
from memql.services import split_paragraphs, split_sentences
from memql.services.sentences import join_sentences, sentence_spans


def _squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


def test_english_basic_and_abbreviations():
    text = "Mr. Smith met Dr. Jones at 3 p.m. on Friday. They talked. Did it work? Yes!"
    assert split_sentences(text) == [
        "Mr. Smith met Dr. Jones at 3 p.m. on Friday.",
        "They talked.",
        "Did it work?",
        "Yes!",
    ]


@pytest.mark.parametrize(
    "text",
    [
        "Pi is 3.14 and e is 2.72 in value.",
        "J. Smith wrote the book.",
        "Bring fruit, e.g. Apples and pears.",
        "That is, i.e. The main point stays.",
        "The U.S. Army arrived.",
        "See Fig. 3 for the plot.",
        "Acme Inc. Was founded long ago.",
        "Read item No. 5 today.",
        "Cats vs. Dogs is a debate.",
        "Prof. Lee and Mrs. Lee and Ms. Wu and St. Louis and Jr. Member.",
        "Version 1.2.3 was released.",
    ],
)
def test_english_no_split(text):
    assert split_sentences(text, "en") == [text]


def test_english_splits_after_no_when_not_a_number():
    assert split_sentences("I said no. Then I left.") == ["I said no.", "Then I left."]


def test_english_quotes_brackets_and_ellipsis():
    assert split_sentences('He said "Stop." Then he left. (An aside.) Next...') == [
        'He said "Stop."',
        "Then he left.",
        "(An aside.)",
        "Next...",
    ]
    assert split_sentences("I waited… Then it came. 'Quoted' start.") == [
        "I waited…",
        "Then it came.",
        "'Quoted' start.",
    ]
    assert split_sentences("no split. lowercase follows") == ["no split. lowercase follows"]


def test_english_lines_lists_and_headings():
    text = (
        "# Plan\nSteps to take:\n1. Open the door\n2) Walk in\n- bullet one\n* bullet two\nwraps here"
        "\n\nNew para."
    )
    assert split_sentences(text, "en") == [
        "# Plan",
        "Steps to take:",
        "1. Open the door",
        "2) Walk in",
        "- bullet one",
        "* bullet two\nwraps here",
        "New para.",
    ]
    assert split_sentences("a soft\nwrapped line", "en") == ["a soft\nwrapped line"]


def test_chinese_punctuation_and_quotes():
    text = "我喜欢机器学习。你呢？他说：“太好了！”然后走了。今天很好；明天也不错……真的吗"
    assert split_sentences(text, "zh") == [
        "我喜欢机器学习。",
        "你呢？",
        "他说：“太好了！”",
        "然后走了。",
        "今天很好；",
        "明天也不错……",
        "真的吗",
    ]
    assert split_sentences("「你好。」她笑了。『再见！』") == ["「你好。」", "她笑了。", "『再见！』"]
    assert split_sentences("他来了!我走了?好的.") == ["他来了!", "我走了?", "好的."]
    assert split_sentences("版本1.2很好，价格3.5元。") == ["版本1.2很好，价格3.5元。"]


def test_chinese_newlines_split():
    assert split_sentences("第一行\n第二行", "zh") == ["第一行", "第二行"]
    assert split_sentences("第一行\n第二行") == ["第一行", "第二行"]  # auto: CJK on either side
    assert split_sentences("first line\nsecond line", "zh") == ["first line", "second line"]


def test_mixed_text_auto():
    text = "I like Python. 我也喜欢。Really? 真的！OK then."
    assert split_sentences(text) == ["I like Python.", "我也喜欢。", "Really?", "真的！", "OK then."]


def test_empty_and_whitespace():
    assert split_sentences("") == []
    assert split_sentences("  \n\n ") == []
    assert split_sentences("  one  ") == ["one"]


def test_bad_lang():
    with pytest.raises(ValueError):
        split_sentences("x", "fr")  # type: ignore[arg-type]


def test_spans_point_into_the_text():
    text = "  First one. Second one!  "
    assert [text[a:b] for a, b in sentence_spans(text)] == ["First one.", "Second one!"]


def test_join_sentences():
    assert join_sentences(["我喜欢。", "你呢？", "OK.", "Fine."]) == "我喜欢。你呢？ OK. Fine."
    assert join_sentences([]) == ""


_ALPHABET = "ab Z9.!?…。！？；”」)\"'\n-*#1、我的"


@settings(max_examples=examples(300), deadline=None, database=None)
@given(st.text(alphabet=_ALPHABET, max_size=80), st.sampled_from(["auto", "en", "zh"]))
def test_sentences_preserve_content(text, lang):
    sentences = split_sentences(text, lang)
    assert _squash("".join(sentences)) == _squash(text)
    assert all(s and s == s.strip() for s in sentences)


def test_paragraphs():
    text = (
        "# Title\nintro line\n## Part\nbody one\nbody two\n\n\n"
        "last para\n```\n# not a heading\n\nstill code\n```"
    )
    assert split_paragraphs(text) == [
        "# Title\nintro line",
        "## Part\nbody one\nbody two",
        "last para\n```\n# not a heading\n\nstill code\n```",
    ]
    assert split_paragraphs("第一段。\n\n第二段。") == ["第一段。", "第二段。"]
    assert split_paragraphs("\n\n") == []


@settings(max_examples=examples(200), deadline=None, database=None)
@given(st.text(alphabet="ab #\n`~.", max_size=60))
def test_paragraphs_preserve_content(text):
    paragraphs = split_paragraphs(text)
    assert _squash("".join(paragraphs)) == _squash(text)
    assert all(p and p == p.strip() for p in paragraphs)
