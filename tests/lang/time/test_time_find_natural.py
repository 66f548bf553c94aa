"""Finding time expressions inside longer sentences."""

import itertools
from datetime import UTC, datetime, timedelta, timezone

import pytest

from memql.lang.time import find_natural, parse_natural

WED = datetime(2025, 10, 22, 10, 0, tzinfo=UTC)
CST_WED = datetime(2025, 10, 22, 10, 0, tzinfo=timezone(timedelta(hours=8)))


def phrases(text: str, now: datetime = WED, lang: str = "auto") -> list[str]:
    return [text[start:end] for start, end, _ in find_natural(text, now, lang)]  # type: ignore[arg-type]


def test_one_match_inside_a_sentence() -> None:
    text = "remind me next Friday about the deck"
    found = find_natural(text, WED)
    assert len(found) == 1
    start, end, span = found[0]
    assert text[start:end] == "next Friday"
    assert span == parse_natural("next Friday", WED)


def test_chinese_sentence() -> None:
    text = "提醒我下周五交报告"
    found = find_natural(text, CST_WED)
    assert [text[s:e] for s, e, _ in found] == ["下周五"]
    assert found[0][2] == parse_natural("下周五", CST_WED)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("call on Monday and again in 3 days", ["on Monday", "in 3 days"]),
        ("see you the day after tomorrow!", ["the day after tomorrow"]),
        ("meet tomorrow at 3pm in room 4", ["tomorrow at 3pm"]),
        ("at 9am on friday we ship", ["at 9am on friday"]),
        ("what did I do over the last 3 weeks?", ["over the last 3 weeks"]),
        ("finish by the end of next month, ok", ["the end of next month"]),
        ("born on July 15th, 1990 in Oslo", ["July 15th, 1990"]),
        ("the deadline is 2026-07-15.", ["2026-07-15"]),
        ("tomorrow morning, then next week", ["tomorrow morning", "next week"]),
        ("this is a sentence with no time", []),
        ("money monday", ["monday"]),
        ("I sat in the sun", []),
        ("a 13 day trip", []),
        ("version 2025-10-21x", []),
        ("", []),
    ],
)
def test_english_phrases(text: str, expected: list[str]) -> None:
    assert phrases(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("明天下午3点开会", ["明天下午3点"]),
        ("13天后提醒我", ["13天后"]),
        ("7月15日之前交", ["7月15日"]),
        ("最近三天内的笔记和下个月底的计划", ["最近三天内", "下个月底"]),
        ("七月底出发", ["七月底"]),
        ("周末去爬山，大后天回来", ["周末", "大后天"]),
        ("快一点", []),
        ("有三点需要注意", []),
        ("３天后见", ["３天后"]),
    ],
)
def test_chinese_phrases(text: str, expected: list[str]) -> None:
    assert phrases(text, CST_WED) == expected


def test_mixed_languages_with_auto() -> None:
    assert phrases("明天 and next week", CST_WED) == ["明天", "next week"]
    assert phrases("明天 and next week", CST_WED, "zh") == ["明天"]
    assert phrases("明天 and next week", CST_WED, "en") == ["next week"]


def test_matches_are_ordered_and_disjoint() -> None:
    text = "yesterday, today, tomorrow; last week and next month; in 2 hours or 5 minutes ago"
    found = find_natural(text, WED)
    assert [text[s:e] for s, e, _ in found] == [
        "yesterday",
        "today",
        "tomorrow",
        "last week",
        "next month",
        "in 2 hours",
        "5 minutes ago",
    ]
    for (_, end, _), (start, _, _) in itertools.pairwise(found):
        assert end <= start


def test_offsets_refer_to_the_original_text() -> None:
    text = "ÇA — İstanbul trip Next  FRIDAY"  # non-ASCII before the match, odd spacing and case
    ((start, end, span),) = find_natural(text, WED)
    assert text[start:end] == "Next  FRIDAY"
    assert span == parse_natural("next friday", WED)


def test_long_text_is_fast_enough() -> None:
    text = "blah tomorrow blah 3 days ago " * 300
    found = find_natural(text, WED)
    assert len(found) == 600


def test_bad_now_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        find_natural("tomorrow", datetime(2025, 1, 1))


@pytest.mark.parametrize(
    ("text", "phrase", "day"),
    [
        ("it's pushed to two weeks from today", "two weeks from today", "2025-11-05"),
        ("send it a week from Friday instead", "a week from Friday", "2025-10-31"),
        ("three days after tomorrow works", "three days after tomorrow", "2025-10-26"),
        ("a week from next Monday", "a week from next Monday", "2025-11-03"),
        ("book club is on the 27th at Marisol's", "the 27th", "2025-10-27"),
        ("rent is due the 1st", "the 1st", "2025-11-01"),  # the 1st of this month has passed
        ("the 31st", "the 31st", "2025-10-31"),
    ],
)
def test_an_amount_from_a_named_day_and_a_bare_day_of_the_month(text, phrase, day) -> None:
    found = find_natural(text, WED)
    assert [(text[s:e], span.start.date().isoformat(), span.granularity) for s, e, span in found] == [
        (phrase, day, "day")
    ]


@pytest.mark.parametrize(
    "text", ["we're on the 27th floor", "my 3rd birthday", "the 27 of them", "3 hours from today"]
)
def test_ordinals_and_amounts_that_name_no_day(text) -> None:
    assert [text[s:e] for s, e, _ in find_natural(text, WED) if text[s:e] != "today"] == []


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("高铁是28号", ["28号"]),
        ("是16号不是14号", ["16号", "14号"]),
        ("住在3号楼", []),
        ("坐5号线上班", []),
        ("排在第3号", []),
        ("门牌112号", []),
        ("地址是望京街5号", []),
        ("工位在A区23号", []),
    ],
)
def test_a_day_of_the_month_said_alone_in_chinese_but_no_number_marked_by_hao(text, found) -> None:
    assert phrases(text, CST_WED) == found
    if found:  # the 28th from Wednesday 22 October: this month's (the day in the speaker's zone)
        assert find_natural("高铁是28号", CST_WED)[0][2].start.astimezone(CST_WED.tzinfo).day == 28


@pytest.mark.parametrize(
    ("text", "first_day", "days"),
    [
        ("the conference is the last weekend of August", "2026-08-29", 2),
        ("the first Monday of September", "2026-09-07", 1),
        ("the second Tuesday of next month", "2026-08-11", 1),
        ("大会在八月最后一个周末", "2026-08-29", 2),
        ("九月的第一个周一", "2026-09-07", 1),
        ("下个月最后一个周五", "2026-08-28", 1),
    ],
)
def test_a_weekday_counted_within_a_month(text, first_day, days) -> None:
    now = datetime(2026, 7, 16, 10, 0, tzinfo=UTC)
    ((_, _, span),) = find_natural(text, now)
    assert span.start.date().isoformat() == first_day and (span.end - span.start).days == days


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("我过两周去体检", ["过两周"]),
        ("再过三天就放假", ["再过三天"]),
        ("过了两天", []),
        ("过两周后", ["两周后"]),
        ("我姐还有三周就生了", ["还有三周"]),  # what is left before a thing happens
        ("我还有三天假", []),  # days left of leave: no time
    ],
)
def test_guo_an_amount_is_that_long_from_now(text, found) -> None:
    assert phrases(text, CST_WED) == found


def test_the_weekend_of_a_day_is_that_day() -> None:
    ((_, _, span),) = find_natural("visiting the weekend of the 18th", datetime(2026, 4, 5, 9, tzinfo=UTC))
    assert span.start.date().isoformat() == "2026-04-18"


def test_a_date_said_with_its_weekday_is_one_expression() -> None:
    """ "Tuesday, March 10" is the 10th (not the coming Tuesday, then the 10th); "Friday, the 13th" too."""
    for text, day in (
        ("it's on Tuesday, March 10.", "2026-03-10"),
        ("Tue Mar 10", "2026-03-10"),
        ("Friday, the 13th", "2026-03-13"),
        ("Monday, June 1, 2027", "2027-06-01"),
    ):
        found = find_natural(text, datetime(2026, 3, 2, 9, tzinfo=UTC))
        assert len(found) == 1, (text, found)
        assert found[0][2].start.date().isoformat() == day


def test_a_date_said_with_its_year_from_now_or_its_weekday_is_one_day():
    now = datetime(2026, 3, 16, 9, tzinfo=UTC)
    found = find_natural("good till April 30 next year", now)
    assert [(s.start.date().isoformat(), s.granularity) for _, _, s in found] == [("2027-04-30", "day")]
    assert find_natural("the 3rd of May last year", now)[0][2].start.date().isoformat() == "2025-05-03"
    said = "聚会又提前到27号周五晚上了。"
    ((a, b, span),) = find_natural(said, now)
    assert said[a:b] == "27号周五晚上" and span.start.isoformat() == "2026-03-27T18:00:00+00:00"
    ((a, b, span),) = find_natural("3月27日（星期五）下午3点", now)
    assert span.start.isoformat() == "2026-03-27T15:00:00+00:00"


def test_a_month_of_a_year_named_from_now():
    now = datetime(2026, 3, 2, 9, tzinfo=UTC)

    def one(text):
        ((a, b, span),) = find_natural(text, now)
        return text[a:b], span.start.date().isoformat(), span.granularity

    assert one("今年十月") == ("今年十月", "2026-10-01", "month")
    assert one("推迟到明年五月了") == ("明年五月", "2027-05-01", "month")
    assert one("明年5月20号") == ("明年5月20号", "2027-05-20", "day")
    assert one("明年三月底") == ("明年三月底", "2027-03-31", "day")
    assert one("last December") == ("last December", "2025-12-01", "month")
    assert one("it expires next April") == ("next April", "2027-04-01", "month")
    assert find_natural("this may be wrong", now) == []  # a verb after it: no month


def test_a_holiday_is_its_next_day_and_a_time_before_or_after_it_is_none():
    now = datetime(2026, 3, 2, 9, tzinfo=UTC)

    def day(text):
        ((_, _, span),) = find_natural(text, now)
        return span.start.date().isoformat()

    assert day("Christmas") == "2026-12-25"
    assert day("Valentine's Day") == "2027-02-14"  # this year's is over
    assert day("Thanksgiving") == "2026-11-26"  # the fourth Thursday of November
    assert day("我们国庆去三亚") == "2026-10-01"
    assert day("元旦") == "2027-01-01"
    assert day("春节") == "2027-02-06" and day("中秋节") == "2026-09-25"  # from the lunar table
    assert find_natural("国庆节后", now) == [] and find_natural("春节前", now) == []
    assert find_natural("春节", datetime(2031, 3, 2, tzinfo=UTC)) == []  # past the table: no guess
    assert (
        find_natural("我同事王国庆", now) == [] and find_natural("住在五一路", now) == []
    )  # a name, a street


def test_a_day_of_the_month_said_with_its_weekday_is_the_next_such_day_that_is_that_weekday():
    # said on Monday 9 November 2026: the 13th that is a Sunday is 13 December, not Friday 13 November
    now = datetime(2026, 11, 9, 12, tzinfo=UTC)
    for said, day in (
        ("the concert's moved to Sunday the 13th, 4pm", "2026-12-13"),
        ("friday the 13th", "2026-11-13"),
        ("改到13号周日了", "2026-12-13"),
        ("周日13号见", "2026-12-13"),
        ("13号（周五）", "2026-11-13"),
    ):
        found = find_natural(said, now)
        assert found and found[0][2].start.date().isoformat() == day, (said, found)
    # December's 31st is a Thursday: the first 31st that is a Sunday is in January
    assert find_natural("Sunday the 31st", now)[0][2].start.date().isoformat() == "2027-01-31"


def test_a_chinese_month_and_day_in_digits_without_hao_is_a_day_and_a_count_is_not():
    now = datetime(2026, 3, 5, 9, tzinfo=UTC)
    said = "学院说提前到3月15交"
    ((a, b, span),) = find_natural(said, now)
    assert said[a:b] == "3月15" and span.start.date().isoformat() == "2026-03-15"
    assert phrases("中期考核是3月25，他比我还慌", now) == ["3月25"]
    assert phrases("2026年3月15前交", now) == ["2026年3月15"]
    for count in ("3月15个人报名", "3月15块钱", "3月1.5万"):
        assert not any("15" in p or "1.5" in p for p in phrases(count, now)), count
