"""Casual writing the grammars read as they read careful writing: negations however spelled, contractions
without apostrophes, names and places in lower case (services/extract)."""

from __future__ import annotations

import pytest
from extract_helpers import facts, own

ME = "Mira"


@pytest.mark.parametrize(
    "text",
    [
        "I don't work at Google anymore.",
        "I dont work at Google",
        "We don't live in Austin anymore.",
        "she doesn't work at Google now",
    ],
)
def test_a_negated_statement_states_no_value(text):
    got = own(text)
    assert not any(v in ("Google", "Austin") for _, _, v in got), got


def test_a_negated_value_replaces_nothing_held():
    # the replacement pass reads values the grammar did not: a negated one is none of them
    got = own("I don't work at Google anymore.", ("I work at Stripe now",))
    assert (ME, "employer", "Google") not in got
    assert own("I don't work at Stripe anymore, I'm at Meta", ("I work at Stripe now",)) == {
        ("Mira", "employer", "Meta")
    }


@pytest.mark.parametrize(
    "text, expected",
    [
        ("im moving to Denver next month", {(ME, "residence", "Denver")}),
        ("the NSF report is due next friday and ive written maybe 2 paragraphs",
         {(ME, "nsf_report.deadline", "2026-03-06")}),
    ],
)  # fmt: skip
def test_contractions_without_apostrophes_read_as_contractions(text, expected):
    assert own(text) == expected  # (extract_helpers checks each quote against the text as written)


def test_spelled_out_offsets_map_back_to_the_words_as_written():
    from memql.services.extract.casual import spell_out

    s = spell_out("ok im moving, ive got it. Dont! DONT thats it")
    assert s.text == "ok I'm moving, I've got it. Don't! DONT that's it"
    for word in ("moving", "I've got", "Don't", "that's it"):
        a = s.text.index(word)
        b0, b1 = s.span(a, a + len(word))
        assert s.written[b0:b1] == word.replace("'", "").replace("I", "i", 1 if word.startswith("I") else 0)
    assert s.span(0, len(s.text)) == (0, len(s.written))


@pytest.mark.parametrize(
    "text, word, written",
    [
        ("started physio w kerry, its 4pm", "with kerry", "w kerry"),
        ("appt tmrw w/ dr x", "appointment tomorrow", "appt tmrw"),
        ("my bf says its the 24th now", "it's the 24th", "its the 24th"),
    ],
)
def test_chat_shorthand_is_read_as_its_words_and_quoted_as_written(text, word, written):
    from memql.services.extract.casual import spell_out

    s = spell_out(text)
    a = s.text.index(word)
    b0, b1 = s.span(a, a + len(word))
    assert s.written[b0:b1] == written


@pytest.mark.parametrize("text", ["its toy is here", "W. Smith and U. Eco", "the cat and its bowl"])
def test_words_shorthand_could_be_are_left_as_written(text):
    from memql.services.extract.casual import spell_out

    assert spell_out(text).text == text


@pytest.mark.parametrize(
    "text, recent, absent",
    [
        (
            "最后还是定了大理 男朋友说青岛五一还冷",
            (),
            {"最后还", "boyfriend"},
        ),  # 还是 is no copula; 说 no name
        ("新年新气象 今天称了一下 72公斤", (), {"今天称了一下"}),  # a verb's words before a space: no key
        ("started physio at flexworks w kerry, wednesdays 4pm", (), {"kerry"}),
    ],
)
def test_casual_words_make_no_key_and_no_name(text, recent, absent):
    assert not {k for _, k, _ in own(text, recent)} & absent


def test_an_older_womans_husband_by_her_word_for_him():
    assert own("好 我家老头子吃的是美托洛尔 他心率快", speaker="周阿姨") == {
        ("周阿姨的老头子", "medication", "美托洛尔")
    }


@pytest.mark.parametrize(
    "text, recent, expected",
    [
        ("yeah pescatarian i guess. mei is horrified lol", (), {(ME, "diet", "pescatarian")}),
        # a status confirmed after "yeah", or held for a while ("been vegetarian 6 yrs")
        ("yeah pescatarian, starting w salmon once or twice a week", ("So you'd be going pescatarian?",),
         {(ME, "diet", "pescatarian")}),
        ("new year. been vegetarian 6 yrs but im always tired", (), {(ME, "diet", "vegetarian")}),
        # whom one reports to, in lower case: the name alone, capitalised
        ("big reorg, im now reporting to sunita mehta on the platform side", (),
         {(ME, "manager", "Sunita Mehta")}),
        ("im reporting to greg now", (), {(ME, "manager", "Greg")}),
        # what one makes or earns, said as an amount, is the salary
        ("I make 104k", (), {(ME, "salary", "104k")}),
        ("im making 110k now", (), {(ME, "salary", "110k")}),
        ("my wife makes 96k as a nurse", (), {("Mira's wife", "salary", "96k")}),
        ("crestmark letter came. from june 1 its $1,595. cool cool cool", ("rent is $1,450/mo",),
         {(ME, "rent", "$1,595/mo")}),
        ("caved and got an iphone 16 lol", (), {(ME, "phone", "iphone 16")}),
        # "remind me" opens no key ("remind me to …" is still a task)
        ("remind me dentist is tuesday feb 17 at 3pm", (), {(ME, "dentist", "2027-02-17T15:00:00Z")}),
    ],
)  # fmt: skip
def test_casual_statements_and_changes(text, recent, expected):
    assert expected <= own(text, recent)


@pytest.mark.parametrize(
    "text, recent",
    [
        ("No, that's all. Thank you, you're a great help.", ("My cell is 503-555-0148.",)),
        ("Sorry dear, I gave you the wrong one yesterday.", ("Maybe tomorrow.",)),
        ("vegan.", ()),  # a status alone, with no "so", "now" or "I guess": not read as the speaker's
    ],
)
def test_no_value_from_a_closing_word_a_past_day_or_a_bare_word(text, recent):
    assert own(text, recent) == set()


@pytest.mark.parametrize("text", ["我妈腿脚还行 就是怕坐车", "我妈肯定受不了 改去青岛吧", "男朋友说青岛还冷"])
def test_what_a_relative_says_or_how_they_are_is_not_their_name(text):
    assert not {s for s, k, _ in facts(text) if k.startswith("relation.")}


def test_a_holidays_trip_planned_then_moved():
    first = "五一打算去厦门 鼓浪屿 想吃沙茶面"
    assert own(first) == {(ME, "五一旅行.location", "厦门")}
    assert own("厦门酒店全满了 离谱 改去青岛吧", (first,)) == {(ME, "五一旅行.location", "青岛")}
    assert own("我打算去北京工作") == set()  # a plan of work, not a holiday's trip: a wish still


@pytest.mark.parametrize(
    "text, expected",
    [
        ("moved to denver last week", {(ME, "residence", "Denver")}),
        ("we live in austin", {(ME, "residence", "Austin")}),
        ("i work in seattle now", {(ME, "work_location", "Seattle")}),
        ("I work in marketing now", set()),  # a field, no place
    ],
)
def test_a_well_known_place_written_in_lower_case_is_that_place(text, expected):
    assert own(text) == expected  # (the evidence still quotes "denver" as written)


@pytest.mark.parametrize("text", ["moved to a new place", "in la la land", "talked to the landlord"])
def test_words_that_are_no_known_place_stay_as_written(text):
    from memql.services.extract.places_en import capitalised_places

    assert capitalised_places(text) == text


def test_making_things_is_no_salary():
    assert not any(k == "salary" for _, k, _ in own("she's making cookies for the party"))
    assert not any(k == "salary" for _, k, _ in own("I make 3 trips a week"))
