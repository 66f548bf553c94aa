"""ISO-8601 durations: parsing, canonical text, calendar arithmetic."""

from datetime import UTC, datetime, timedelta, timezone

import pytest

from memql.lang.time import Duration, TimeParseError, add_duration, parse_duration


def utc(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)


# --- the examples named in the issue ------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("P3D", Duration(days=3)),
        ("PT2H", Duration(hours=2)),
        ("P1Y2M", Duration(years=1, months=2)),
        ("P2W", Duration(weeks=2)),
    ],
)
def test_issue_examples(text: str, expected: Duration) -> None:
    assert parse_duration(text) == expected
    assert parse_duration(text).iso() == text


@pytest.mark.parametrize(
    ("text", "expected", "canonical"),
    [
        ("PT1H30M", Duration(hours=1, minutes=30), "PT1H30M"),
        ("P1Y2M3DT4H5M6S", Duration(1, 2, 0, 3, 4, 5, 6.0), "P1Y2M3DT4H5M6S"),
        ("PT0.5S", Duration(seconds=0.5), "PT0.5S"),
        ("PT0,5S", Duration(seconds=0.5), "PT0.5S"),
        ("PT30S", Duration(seconds=30), "PT30S"),
        ("PT30.000S", Duration(seconds=30), "PT30S"),
        ("P1W2D", Duration(weeks=1, days=2), "P1W2D"),
        ("p3d", Duration(days=3), "P3D"),
        ("  P3D \n", Duration(days=3), "P3D"),
        ("pt2h30m", Duration(hours=2, minutes=30), "PT2H30M"),
        ("P0D", Duration(), "PT0S"),
        ("PT0S", Duration(), "PT0S"),
        ("P0Y0M0DT0H0M0.0S", Duration(), "PT0S"),
        ("P1DT12H", Duration(days=1, hours=12), "P1DT12H"),
        ("P10000Y", Duration(years=10_000), "P10000Y"),
    ],
)
def test_parse_and_canonical(text: str, expected: Duration, canonical: str) -> None:
    d = parse_duration(text)
    assert d == expected
    assert d.iso() == canonical
    assert str(d) == canonical


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("PT1.5H", Duration(hours=1, minutes=30)),
        ("PT1,5H", Duration(hours=1, minutes=30)),
        ("PT1.1H", Duration(hours=1, minutes=6)),
        ("PT2.5M", Duration(minutes=2, seconds=30)),
        ("P1.5D", Duration(days=1, hours=12)),
        ("P1.5W", Duration(weeks=1, days=3, hours=12)),
        ("P1.5Y", Duration(years=1, months=6)),
        ("P1DT1.5H", Duration(days=1, hours=1, minutes=30)),
    ],
)
def test_fraction_on_smallest_component_is_converted_exactly(text: str, expected: Duration) -> None:
    assert parse_duration(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "P",
        "PT",
        "P1",
        "T1H",
        "1D",
        "P1DT",
        "-P1D",
        "P-1D",
        "+P1D",
        "P1.5Y2M",
        "P1.5DT2H",
        "PT1.5H30M",
        "P1.5M",
        "P1.3Y",
        "P1D1Y",
        "P1M1Y",
        "PT1S1M",
        "P1Y1Y",
        "PT1H 2M",
        "P 1D",
        "P1D junk",
        "P99999999Y",
        "P120001M",
        "P521776W",
        "P3652426D",
        "PT87658201H",
        "P" + "9" * 5000 + "D",
        "P1,D",
        "P.5D",
        "P1..5D",
        "P１D",
        "P1e3D",
        "PT",
        "three days",
        "P3d\x00",
    ],
)
def test_rejected(text: str) -> None:
    with pytest.raises(TimeParseError):
        parse_duration(text)


def test_error_message_quotes_the_input() -> None:
    with pytest.raises(TimeParseError, match=r"P1\.5Y2M"):
        parse_duration("P1.5Y2M")
    with pytest.raises(TimeParseError, match="banana"):
        parse_duration("banana")


def test_time_parse_error_is_a_value_error() -> None:
    assert issubclass(TimeParseError, ValueError)


def test_non_string_is_a_type_error() -> None:
    with pytest.raises(TypeError):
        parse_duration(3)  # type: ignore[arg-type]


def test_is_zero() -> None:
    assert Duration().is_zero()
    assert parse_duration("PT0S").is_zero()
    assert not Duration(seconds=0.001).is_zero()
    assert not parse_duration("P2W").is_zero()


@pytest.mark.parametrize(
    "kwargs",
    [
        {"days": -1},
        {"seconds": -0.5},
        {"seconds": float("nan")},
        {"seconds": float("inf")},
        {"hours": 1.5},
        {"weeks": True},
    ],
)
def test_invalid_duration_values(kwargs: dict) -> None:
    with pytest.raises(ValueError):
        Duration(**kwargs)


def test_seconds_are_floats_and_negative_zero_is_normalised() -> None:
    assert Duration(seconds=3).seconds == 3.0
    assert isinstance(Duration(seconds=3).seconds, float)
    assert Duration(seconds=-0.0).iso() == "PT0S"


def test_seconds_never_use_exponent_notation() -> None:
    assert Duration(seconds=1e-07).iso() == "PT0.0000001S"
    assert Duration(seconds=1e16).iso() == "PT10000000000000000S"
    assert Duration(seconds=0.1 + 0.2).iso() == "PT0.3S"  # nanosecond precision
    assert Duration(seconds=2e-32).is_zero()
    assert parse_duration("PT1.0000000004S") == Duration(seconds=1.0)


# --- add_duration -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("start", "text", "sign", "expected"),
    [
        (utc(2024, 1, 31), "P1M", 1, utc(2024, 2, 29)),
        (utc(2025, 1, 31), "P1M", 1, utc(2025, 2, 28)),
        (utc(2024, 2, 29), "P1Y", 1, utc(2025, 2, 28)),
        (utc(2024, 2, 29), "P1Y", -1, utc(2023, 2, 28)),
        (utc(2024, 2, 29), "P4Y", 1, utc(2028, 2, 29)),
        (utc(2025, 3, 31), "P1M", -1, utc(2025, 2, 28)),
        (utc(2024, 3, 31), "P1M", -1, utc(2024, 2, 29)),
        (utc(2025, 12, 31, 23), "PT2H", 1, utc(2026, 1, 1, 1)),
        (utc(2025, 1, 1), "P2W", 1, utc(2025, 1, 15)),
        (utc(2025, 1, 1), "P1W2D", 1, utc(2025, 1, 10)),
        (utc(2025, 1, 1), "P1Y2M3DT4H5M6S", 1, utc(2026, 3, 4, 4, 5, 6)),
        (utc(2025, 1, 1), "PT0.5S", 1, utc(2025, 1, 1, 0, 0, 0, 500_000)),
        (utc(2025, 1, 1), "PT0S", -1, utc(2025, 1, 1)),
        (utc(2025, 10, 31, 12), "P1M", 1, utc(2025, 11, 30, 12)),
    ],
)
def test_add_duration_is_calendar_correct(start: datetime, text: str, sign: int, expected: datetime) -> None:
    assert add_duration(start, parse_duration(text), sign) == expected


def test_add_duration_keeps_the_time_zone_and_counts_days_locally() -> None:
    tz = timezone(timedelta(hours=8))
    start = datetime(2025, 1, 31, 23, 30, tzinfo=tz)
    result = add_duration(start, Duration(months=1))
    assert result == datetime(2025, 2, 28, 23, 30, tzinfo=tz)
    assert result.utcoffset() == timedelta(hours=8)


def test_hours_are_exact_elapsed_time() -> None:
    tz = timezone(timedelta(hours=-5))
    start = datetime(2025, 3, 8, 22, 0, tzinfo=tz)
    assert add_duration(start, Duration(hours=30)) - start == timedelta(hours=30)
    assert start - add_duration(start, Duration(minutes=90), -1) == timedelta(minutes=90)


def test_subtraction_undoes_addition_in_reverse_order() -> None:
    start = utc(2025, 1, 31, 23, 30)
    d = Duration(months=1, hours=1)
    forward = add_duration(start, d)
    assert forward == utc(2025, 3, 1, 0, 30)  # Jan 31 + 1 month = Feb 28 (clamped), then + 1 hour
    assert add_duration(forward, d, -1) == utc(2025, 1, 28, 23, 30)  # - 1 hour, then - 1 month
    plain = utc(2025, 1, 15, 10)
    assert add_duration(add_duration(plain, d), d, -1) == plain


def test_add_duration_errors() -> None:
    with pytest.raises(ValueError):
        add_duration(datetime(2025, 1, 1), Duration(days=1))
    with pytest.raises(ValueError):
        add_duration(utc(2025, 1, 1), Duration(days=1), sign=2)
    with pytest.raises(OverflowError):
        add_duration(utc(9999, 12, 31), Duration(days=1))
    with pytest.raises(OverflowError):
        add_duration(utc(2025, 1, 1), Duration(years=10_000))
    with pytest.raises(OverflowError):
        add_duration(utc(1, 1, 1), Duration(hours=1), -1)
