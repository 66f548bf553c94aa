"""Property tests: arbitrary text never escapes as anything but TimeParseError; round trips hold."""

from datetime import UTC, datetime, timedelta, timezone

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from budgets import examples
from memql.lang.time import (
    Duration,
    TimeParseError,
    add_duration,
    find_natural,
    format_instant,
    natural,
    parse_duration,
    parse_instant,
    parse_natural,
    relative_window,
    shift,
    to_utc,
)

FAST = settings(
    max_examples=examples(400), deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow]
)

TOKENS = [
    "P",
    "T",
    "Y",
    "M",
    "W",
    "D",
    "H",
    "S",
    "1",
    "2",
    "3",
    "0.5",
    ",5",
    "-",
    "+",
    ":",
    " ",
    "Z",
    "z",
    "t",
    "2025",
    "-10-",
    "21",
    "08:00",
    "99999999",
    "a",
    "an",
    "the",
    "in",
    "last",
    "next",
    "this",
    "ago",
    "later",
    "from now",
    "days",
    "weeks",
    "months",
    "years",
    "hours",
    "minutes",
    "half",
    "and a half",
    "end of",
    "start of",
    "month",
    "week",
    "year",
    "day",
    "tomorrow",
    "today",
    "friday",
    "fri",
    "july",
    "15th",
    "pm",
    "at",
    "noon",
    "morning",
    "by",
    "eod",
    "twenty",
    "-one",
    "a few",
    "天",
    "后",
    "前",
    "周",
    "星期",
    "礼拜",
    "月",
    "年",
    "日",
    "号",
    "个",
    "半",
    "下",
    "上",
    "本",
    "这",
    "最近",
    "未来",
    "底",
    "初",
    "点",
    "分",
    "下午",
    "晚上",
    "明",
    "今",
    "大",
    "一",
    "二",
    "两",
    "三",
    "十",
    "百",
    "千",
    "五",
    "九",
    "〇",
    "３",
    "：",
    "之",
    "内",
    "以",
    "2026",
    "12",
    "31",
    "9999",
]
token_text = st.lists(st.sampled_from(TOKENS), max_size=12).map("".join)
any_text = st.one_of(st.text(max_size=60), token_text)

ZONES = st.sampled_from(
    [
        UTC,
        timezone(timedelta(hours=8)),
        timezone(timedelta(hours=-5)),
        timezone(timedelta(hours=14)),
        timezone(timedelta(hours=-12, minutes=-30)),
    ]
)
NOWS = st.one_of(
    st.datetimes(min_value=datetime(1, 1, 1), max_value=datetime(9999, 12, 31), timezones=ZONES),
    st.sampled_from(
        [
            datetime(2025, 10, 22, 10, tzinfo=UTC),
            datetime(2024, 2, 29, 23, 59, tzinfo=UTC),
            datetime(9999, 12, 31, 23, 59, tzinfo=UTC),
            datetime(1, 1, 1, tzinfo=UTC),
        ]
    ),
)
AWARE = st.datetimes(min_value=datetime(1000, 1, 1), max_value=datetime(9000, 12, 31), timezones=ZONES)


# --- (a) arbitrary text gives a result or TimeParseError -------------------------------------------


@FAST
@given(any_text)
def test_parse_duration_total(text: str) -> None:
    try:
        d = parse_duration(text)
    except TimeParseError:
        return
    assert parse_duration(d.iso()) == d


@FAST
@given(any_text)
def test_parse_instant_total(text: str) -> None:
    try:
        instant, assumed = parse_instant(text)
    except TimeParseError:
        return
    assert instant.tzinfo is UTC
    assert isinstance(assumed, bool)


@FAST
@given(any_text, NOWS, st.sampled_from(["auto", "en", "zh"]))
def test_parse_natural_total(text: str, now: datetime, lang: str) -> None:
    try:
        span = parse_natural(text, now, lang)  # type: ignore[arg-type]
    except TimeParseError:
        return
    assert span.start <= span.end
    assert span.start.tzinfo is UTC and span.end.tzinfo is UTC
    if span.granularity == "instant":
        assert span.start == span.end


@FAST
@given(any_text, NOWS)
def test_find_natural_total(text: str, now: datetime) -> None:
    found = find_natural(text, now)
    previous_end = 0
    for start, end, span in found:
        assert previous_end <= start < end <= len(text)
        assert span.start <= span.end
        previous_end = end


# --- (b) Duration round trip through iso() -----------------------------------------------------------

seconds = st.one_of(
    st.integers(0, 315_569_520_000).map(float),
    st.decimals(min_value=0, max_value=1_000_000, places=6, allow_nan=False).map(float),
    st.floats(min_value=0, max_value=315_569_520_000, allow_nan=False, allow_infinity=False),
)
durations = st.builds(
    Duration,
    years=st.integers(0, 10_000),
    months=st.integers(0, 120_000),
    weeks=st.integers(0, 521_775),
    days=st.integers(0, 3_652_425),
    hours=st.integers(0, 87_658_200),
    minutes=st.integers(0, 5_259_492_000),
    seconds=seconds,
)
small_durations = st.builds(
    Duration,
    years=st.integers(0, 3),
    months=st.integers(0, 30),
    weeks=st.integers(0, 10),
    days=st.integers(0, 60),
    hours=st.integers(0, 100),
    minutes=st.integers(0, 1000),
    seconds=st.integers(0, 10_000).map(float),
)


@FAST
@given(durations)
def test_duration_round_trip(d: Duration) -> None:
    text = d.iso()
    assert text == text.upper()
    assert parse_duration(text) == d
    assert parse_duration(text.lower()) == d


@FAST
@given(small_durations.map(lambda d: Duration(0, 0, d.weeks, d.days, d.hours, d.minutes, d.seconds)), AWARE)
def test_add_then_subtract_without_months_is_identity(d: Duration, t: datetime) -> None:
    assert add_duration(add_duration(t, d), d, -1) == t


@FAST
@given(small_durations, AWARE)
def test_add_duration_moves_forward_and_keeps_the_zone(d: Duration, t: datetime) -> None:
    moved = add_duration(t, d)
    assert moved >= t
    assert moved.tzinfo is t.tzinfo
    assert add_duration(t, d, -1) <= t


# --- (c) shifts and windows --------------------------------------------------------------------------


@FAST
@given(AWARE, st.integers(-100_000, 100_000))
def test_shift_days_round_trip(t: datetime, n: int) -> None:
    assert shift(shift(t, n, "days"), -n, "days") == t


@FAST
@given(AWARE, st.integers(-10_000, 10_000), st.sampled_from(["minutes", "hours", "weeks"]))
def test_shift_exact_units_round_trip(t: datetime, n: int, unit: str) -> None:
    assert shift(shift(t, n, unit), -n, unit) == t  # type: ignore[arg-type]


@FAST
@given(
    AWARE,
    st.integers(0, 500),
    st.sampled_from(["minutes", "hours", "days", "weeks", "months", "years"]),
    st.sampled_from(["last", "next"]),
)
def test_relative_window_is_ordered(now: datetime, n: int, unit: str, relative: str) -> None:
    start, end = relative_window(relative, n, unit, now)  # type: ignore[arg-type]
    assert start <= end
    assert (end if relative == "last" else start) == now
    assert start.tzinfo is UTC and end.tzinfo is UTC


@FAST
@given(AWARE)
def test_format_then_parse_instant(t: datetime) -> None:
    assert parse_instant(format_instant(t)) == (to_utc(t), False)


@FAST
@given(st.text(max_size=24) | st.text(alphabet="ΣσςİıＡＺａｚ　ẞßǄǅ Ab1", max_size=12))
def test_folding_a_text_is_folding_each_character(text):
    """natural._fold lowers and half-widths a whole text at once when that is exact: the result is always
    the per-character fold, of the same length (every span found is an offset into the original)."""
    folded = natural._fold(text)
    assert folded == "".join(map(natural._fold_char, text))
    assert len(folded) == len(text)
