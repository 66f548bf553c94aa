"""The lexical analyzer: tokens, query tokens, and MATCH expressions safe against a real FTS5 table."""

from __future__ import annotations

import sqlite3

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from budgets import examples
from memql.services import (
    fts_match_expression,
    index_terms,
    index_text,
    is_cjk,
    normalize_text,
    query_terms,
    query_tokens,
    tokens,
)
from memql.services.tokenize import MAX_WORD, STOP_WORDS, index_term


def test_normalize_text_nfkc_and_casefold():
    assert normalize_text("ＡＢＣ Straße") == "abc strasse"
    assert normalize_text("ﾃｽﾄ") == "テスト"
    assert normalize_text("①") == "1"


def test_is_cjk():
    assert all(is_cjk(c) for c in "机器学习ひらがなカタカナ한국㐀豈〇")
    assert not any(is_cjk(c) for c in "aZ9 ，。！・-")
    assert not is_cjk("") and not is_cjk("机器")


def test_tokens_mixed_english_chinese():
    assert tokens("机器学习 is fun") == ["机器", "器学", "学习", "is", "fun"]
    assert tokens("我") == ["我"]
    assert tokens("猫，狗") == ["猫", "狗"]
    assert tokens("2024年3月") == ["2024", "年", "3", "月"]
    assert tokens("用Python写") == ["用", "python", "写"]


def test_tokens_split_on_apostrophes_hyphens_and_punctuation():
    assert tokens("Don't re-use e-mail!") == ["don", "t", "re", "use", "e", "mail"]
    assert tokens("C++ & ... --- ???") == ["c"]
    assert tokens("snake_case") == ["snake", "case"]
    assert tokens("") == [] and tokens("  ,.!") == []


def test_tokens_keep_duplicates_and_other_scripts():
    assert tokens("the cat and the hat") == ["the", "cat", "and", "the", "hat"]
    assert tokens("Café naïve") == ["café", "naïve"]
    assert tokens("Москва 한국어") == ["москва", "한국", "국어"]


def test_long_words_truncated():
    assert tokens("x" * 100) == ["x" * MAX_WORD]


def test_index_text():
    assert index_text("机器学习 is FUN!") == "机器 器学 学习 is fun"
    assert index_text("Running races, she runs") == "run race she run"


def test_index_terms_stem_latin_words_only():
    assert index_terms("running runs run") == ["run", "run", "run"]
    assert index_terms("Hiking paintings adopted") == ["hike", "paint", "adopt"]
    # CJK bigrams, numbers, letters mixed with digits and other scripts are their own terms
    assert index_terms("我喜欢跑步") == tokens("我喜欢跑步") == ["我喜", "喜欢", "欢跑", "跑步"]
    assert index_terms("mp3 2024 covid19 3rd") == ["mp3", "2024", "covid19", "3rd"]
    assert index_terms("Москва 한국어") == ["москва", "한국", "국어"]
    # diacritics are set aside for the stem, as FTS5's remove_diacritics does for matching
    assert index_terms("naïve naive cafés") == ["naiv", "naiv", "cafe"]
    # the surface tokens stay readable words: stemming is only for the index
    assert tokens("Running paintings") == ["running", "paintings"]


def test_index_term_is_cached_and_stable():
    index_term.cache_clear()
    assert [index_term("generously") for _ in range(3)] == ["generous"] * 3
    info = index_term.cache_info()
    assert (info.misses, info.hits) == (1, 2)


def test_query_tokens_remove_stop_words_and_duplicates():
    assert query_tokens("What is the deadline for the passport?") == ["deadline", "passport"]
    assert query_tokens("the passport, the PASSPORT") == ["passport"]
    assert query_tokens("我的护照") == ["我的", "的护", "护照"]  # bigrams are kept; only lone characters drop
    assert query_tokens("我 和 你") == ["我", "和", "你"]  # nothing but stop words: keep them all
    assert query_tokens("猫 和 狗") == ["猫", "狗"]
    assert query_tokens("the of") == ["the", "of"]


def test_query_terms_drop_stop_words_by_surface_then_stem():
    assert query_terms("Who is running? Runs!") == ["run"]  # stemmed, then distinct
    assert query_terms("What are her paintings about?") == ["paint"]
    # stop words go by the word as written: "does" is one, although its stem "doe" is not
    assert query_terms("being does hiking") == ["hike"]
    assert "does" in STOP_WORDS and index_term("does") == "doe" and "doe" not in STOP_WORDS
    # nothing but stop words: kept, and stemmed exactly as the index stems them
    assert query_terms("being does") == ["be", "doe"] == index_terms("being does")
    assert query_terms("我 和 你") == ["我", "和", "你"]
    assert query_terms("我的护照") == query_tokens("我的护照")


def test_fts_match_expression_shapes():
    assert fts_match_expression("passport deadline") == '"passport" OR "deadlin"'  # the index's stems
    assert fts_match_expression("running deadlines") == '"run" OR "deadlin"'
    assert fts_match_expression("学习") == '"学习"'
    assert fts_match_expression("") is None
    assert fts_match_expression('"*()"') is None


ADVERSARIAL = [
    'passport" OR "x',
    "NEAR(passport deadline, 2)",
    "passport AND NOT deadline",
    "body:passport",
    "pass*",
    '"unterminated',
    "(((",
    "^start",
    "a - b + c",
    "NOT",
    "AND OR NOT NEAR",
    "{body} : x",
    "'; drop table t; --",
    '学习"）（*',
]


@pytest.fixture()
def fts():
    db = sqlite3.connect(":memory:")
    db.execute("create virtual table t using fts5(body, tokenize='unicode61')")
    docs = [
        "My passport expires in June; the renewal deadline is May 1.",
        "机器学习是人工智能的一个分支。",
        "Near the station there is a bakery (open daily).",
        "我喜欢吃苹果和香蕉。",
        "AND OR NOT are operators",
    ]
    db.executemany(
        "insert into t(rowid, body) values (?, ?)", [(i, index_text(d)) for i, d in enumerate(docs)]
    )
    yield db
    db.close()


def _search(db: sqlite3.Connection, text: str) -> list[int]:
    expr = fts_match_expression(text)
    if expr is None:
        return []
    return [r[0] for r in db.execute("select rowid from t where t match ? order by rank", (expr,))]


def test_fts_finds_english_and_chinese(fts):
    assert _search(fts, "When is the passport deadline?") == [0]
    assert _search(fts, "deadlines for passports") == [0]  # stems on both sides
    assert _search(fts, "stations near bakeries") == [2]
    assert _search(fts, "operator") == [4]
    assert _search(fts, "学习") == [1]
    assert _search(fts, "机器学习有什么用") == [1]
    assert _search(fts, "香蕉") == [3]
    assert _search(fts, "bakery near station") == [2]


@pytest.mark.parametrize("text", ADVERSARIAL)
def test_fts_adversarial_queries_never_raise(fts, text):
    hits = _search(fts, text)
    assert all(isinstance(h, int) for h in hits)


def test_fts_operator_words_are_plain_words(fts):
    assert _search(fts, "NOT") == [4]
    assert _search(fts, 'passport" OR "x') == [0]


@settings(max_examples=examples(150), deadline=None, database=None)
@given(st.text(max_size=40))
def test_fts_any_text_is_a_valid_query(text):
    db = sqlite3.connect(":memory:")
    db.execute("create virtual table t using fts5(body, tokenize='unicode61')")
    db.execute("insert into t(body) values (?)", (index_text(text),))
    expr = fts_match_expression(text)
    if expr is not None:
        assert db.execute("select count(*) from t where t match ?", (expr,)).fetchone()[0] in (0, 1)
    db.close()


@settings(max_examples=examples(100), deadline=None, database=None)
@given(st.text(alphabet='abc XYZ学习机器的。，!?"*()-:^', max_size=30))
def test_fts_document_is_found_by_its_own_text(text):
    db = sqlite3.connect(":memory:")
    db.execute("create virtual table t using fts5(body, tokenize='unicode61')")
    db.execute("insert into t(body) values (?)", (index_text(text),))
    expr = fts_match_expression(text)
    assert (expr is None) == (not tokens(text))
    if expr is not None:
        assert db.execute("select count(*) from t where t match ?", (expr,)).fetchone()[0] == 1
    db.close()


@settings(max_examples=examples(150), deadline=None, database=None)
@given(st.text(max_size=60))
def test_tokens_are_normalised_and_nonempty(text):
    toks = tokens(text)
    assert all(t and len(t) <= MAX_WORD for t in toks)
    assert all(not any(c.isspace() for c in t) for t in toks)
    assert query_tokens(text) == list(dict.fromkeys(query_tokens(text)))
    assert set(query_tokens(text)) <= set(toks)
    terms = index_terms(text)
    assert len(terms) == len(toks) and all(t and not any(c.isspace() for c in t) for t in terms)
    assert set(query_terms(text)) <= set(terms)
