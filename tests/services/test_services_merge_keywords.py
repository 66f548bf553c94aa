"""Merging by de-duplicated union; keywords by TF-IDF; set overlap measures."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from budgets import examples
from memql.services import jaccard, keywords, merge_texts, tokens
from memql.services.keywords import term_overlap


def test_merge_deduplicates_and_keeps_order():
    merged = merge_texts(["I like tea. The sky is blue.", "i like  TEA! A new fact. The sky is blue"])
    assert merged == "I like tea. The sky is blue. A new fact."


def test_merge_drops_contained_and_keeps_different():
    merged = merge_texts(["I do not like rain.", "I like rain.", "Rain, I do not like!"])
    # "I like rain" says something else (J = 0.6); the reordered sentence has the same tokens
    assert merged == "I do not like rain. I like rain."


def test_merge_longer_near_duplicate_replaces_in_place():
    a = "the meeting with the design team is on monday at ten in room four b."
    b = "the meeting with the design team is on monday at ten in room four b, upstairs."
    merged = merge_texts([a + " Other news.", b])
    assert merged == b + " Other news."


def test_merge_chinese():
    assert merge_texts(["我喜欢茶。天空是蓝色的。", "我喜欢茶！你呢？"]) == "我喜欢茶。天空是蓝色的。你呢？"
    assert merge_texts([]) == ""
    assert merge_texts(["", "Only."]) == "Only."


@settings(max_examples=examples(150), deadline=None, database=None)
@given(st.lists(st.text(alphabet="ab c.。!我", max_size=30), max_size=4))
def test_merging_twice_adds_nothing(texts):
    assert merge_texts(texts + texts) == merge_texts(texts)


@settings(max_examples=examples(150), deadline=None, database=None)
@given(st.lists(st.text(alphabet="ab cd.!?\n", max_size=30), max_size=4))
def test_merge_loses_no_word(texts):
    merged = merge_texts(texts)
    assert set(tokens(merged)) == {t for text in texts for t in tokens(text)}


def test_keywords_english():
    text = (
        "The passport office renews passports. A passport renewal needs a photo and a form. "
        "The office is open on Monday. Renewal fees are paid at the office."
    )
    top = keywords(text, k=4)
    assert set(top[:3]) == {"passport", "office", "renewal"}
    assert "the" not in top and "a" not in top


def test_keywords_chinese():
    text = "机器学习是人工智能的一个分支。机器学习系统从数据中学习规律。深度学习是机器学习的一种方法。"
    top = keywords(text, k=3)
    assert top[:2] == ["学习", "机器"]
    assert "器学" not in keywords(text, k=20)  # the inside of a repeated word is not a keyword
    assert "的" not in keywords(text, k=50) and "一个" not in keywords(text, k=50)


def test_keywords_filters_numbers_and_single_letters():
    assert keywords("2024 2024 2024 x x x y report report") == ["report"]
    assert keywords("", k=5) == [] and keywords("anything", k=0) == []


def test_keywords_with_corpus_statistics():
    text = "memory memory memory agent agent"
    assert keywords(text, k=2) == ["memory", "agent"]
    # "memory" is in every document of the corpus, "agent" in one: IDF reverses the order
    assert keywords(text, k=2, corpus_df={"memory": 100, "agent": 1}, corpus_size=100) == ["agent", "memory"]


def test_keywords_ties_keep_first_position():
    assert keywords("zebra apple mango", k=3) == ["zebra", "apple", "mango"]


_ASCII_WORDS = ["the", "of", "a", "x", "2024", "7", "river", "rivers", "garden", "invoice", "mp3", "Piano"]


@settings(max_examples=examples(200), deadline=None)
@given(
    words=st.lists(st.sampled_from(_ASCII_WORDS) | st.text("abcz09", min_size=1, max_size=20), max_size=30),
    k=st.integers(0, 10),
)
def test_keywords_of_an_ascii_text_are_term_frequency_by_length_boost(words, k):
    """An ASCII text's keywords (the fast path) by their definition: each distinct word that is not one
    character, a stop word or a number, scored by its count times 1 + ln(its length, capped at 16),
    best first, ties in the order of first appearance."""
    from math import log

    from memql.services.tokenize import STOP_WORDS

    text = " ".join(words) + "."
    toks = tokens(text)
    first = {t: toks.index(t) for t in toks}
    wanted = [t for t in first if len(t) > 1 and t not in STOP_WORDS and not t.isnumeric()]
    score = {t: toks.count(t) * (1.0 + log(min(len(t), 16))) for t in wanted}
    assert keywords(text, k=k) == sorted(wanted, key=lambda t: (-score[t], first[t]))[:k]


def test_jaccard():
    assert jaccard(["a", "b"], ["b", "c"]) == 1 / 3
    assert jaccard("ab", "ab") == 1.0
    assert jaccard([], []) == 0.0
    assert jaccard(["学习"], []) == 0.0


def test_term_overlap():
    assert term_overlap(["travel", "hotel"], ["travelling", "hotel", "x"]) == 1.5
    assert term_overlap(["cat"], ["cats"]) == 0.0  # too short for a prefix match
    assert term_overlap(["学习"], ["学习", "机器"]) == 1.0
