"""Which fact keys a question names (services/extract/matching.py): the one matcher behind a conversation's
leading facts and Retrieve's `facts`."""

from __future__ import annotations

import pytest

from memql.services.extract.matching import QueryWords, attribute_phrases, match_score
from memql.services.extract.vocabulary import DEFAULT_VOCABULARY


def score(query: str, subject: str, attribute: str, *values: str, asker: str | None = "mira") -> float:
    return match_score(subject, attribute, values, QueryWords.of(query), asker=asker)


def test_an_attribute_word_is_needed_and_the_subject_and_value_rank():
    assert score("what is the weather like?", "mira", "passport.deadline") == 0.0
    due = score("when is my passport due?", "mira", "passport.deadline")
    assert due > 0
    assert score("when is my passport due?", "leo", "passport.deadline") < due  # "my" is the asker's
    assert score("when is my passport due?", "mira", "passport.deadline", asker=None) < due
    assert score("when is Leo's passport due?", "Leo", "passport.deadline") > score(
        "when is Leo's passport due?", "mira", "passport.deadline"
    )
    assert (
        score("is it still Lisbon for the city?", "mira", "city", "Lisbon")
        == score("is it still Lisbon for the city?", "mira", "city", "Porto") + 0.5
    )


def test_plurals_stop_words_and_chinese_phrases():
    assert score("what are my phones", "mira", "phone") > 0  # "phones" -> phone
    assert score("the of a", "mira", "the") == 0.0  # a phrase of stop words names nothing
    chinese = score("我的护照截止日期是什么时候？", "mira", "passport.deadline")
    assert chinese >= 2.0  # 护照 (the thing), 截止日期 (the aspect), and 我 for the asker
    assert "护照" in attribute_phrases("passport.deadline", DEFAULT_VOCABULARY)


@pytest.mark.parametrize(
    ("subject", "query", "matches"),
    [
        ("Ravi's brother", "which city do I live in?", False),
        ("Ravi's brother", "where does my brother live?", True),
        ("Ravi", "which city do I live in?", True),
        ("Ravi的妹妹", "我住在哪？", False),
        ("Ravi的妹妹", "我妹妹住在哪？", True),
        # a named person's relative is not who a question about that person asks of
        ("Oz's sister", "where does Oz live?", False),
        ("Oz's sister", "where does Oz's sister live?", True),
        ("Oz", "where does Oz live?", True),
        ("曹阳的爸爸", "曹阳住在哪？", False),
        ("曹阳的爸爸", "曹阳爸爸住在哪？", True),
        # the relative is named by any word for the same relation
        ("Mo's grandfather", "where does Mo's grandpa live?", True),
        ("Mo's grandfather", "where does Mo's sister live?", False),
    ],
)
def test_a_question_about_the_asker_is_not_about_their_relative(subject, query, matches):
    score = match_score(subject, "residence", ["Austin"], QueryWords.of(query), asker="Ravi")
    assert (score > 0) is matches


def test_a_chinese_key_without_de_matches_a_question_with_it():
    query = QueryWords.of("阿杰去成都的高铁是几号？")
    assert match_score("阿杰", "去成都高铁", ["2026-03-16"], query) > 0
    assert match_score("阿杰", "去上海高铁", ["2026-03-16"], QueryWords.of("阿杰去成都的高铁是几号？")) == 0


def test_a_chinese_key_of_a_place_or_a_gathering_is_named_by_either_part():
    # 去成都出差 is keyed 成都出差: "去成都" or "出差" asks for it, as "Denver" names denver.fly
    assert score("小菲什么时候去成都？", "小菲", "成都出差.date") > 0
    assert score("小菲什么时候出差？", "小菲", "成都出差.date") > 0
    assert score("小菲什么时候去杭州？", "小菲", "成都出差.date") == 0.0
    # 纪念日晚饭: the occasion or the meal
    assert score("小蕊纪念日在哪吃饭？", "小蕊", "纪念日晚饭.location") > 0
    assert {"纪念日", "晚饭"} <= attribute_phrases("纪念日晚饭.location", DEFAULT_VOCABULARY)


def test_a_chinese_key_of_a_relative_and_a_thing_of_theirs_is_named_by_either_part():
    assert {"爷爷", "90大寿"} <= attribute_phrases("爷爷90大寿", DEFAULT_VOCABULARY)
    assert score("小菲爷爷的寿宴是哪天？", "小菲", "爷爷90大寿") > 0
