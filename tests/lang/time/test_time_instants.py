"""ISO-8601 / RFC 3339 instants."""

from datetime import UTC, datetime, timedelta, timezone

import pytest

from memql.lang.time import TimeParseError, format_instant, parse_instant, to_utc


def utc(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "expected", "assumed"),
    [
        ("2025-10-21T10:00:00Z", utc(2025, 10, 21, 10), False),
        ("2025-10-21t10:00:00z", utc(2025, 10, 21, 10), False),
        ("2025-10-21 10:00:00Z", utc(2025, 10, 21, 10), False),
        ("2025-10-21T10:00:00+08:00", utc(2025, 10, 21, 2), False),
        ("2025-10-21T10:00:00+0800", utc(2025, 10, 21, 2), False),
        ("2025-10-21T10:00:00+08", utc(2025, 10, 21, 2), False),
        ("2025-10-21T10:00:00-05:30", utc(2025, 10, 21, 15, 30), False),
        ("2025-10-21T10:00:00-00:00", utc(2025, 10, 21, 10), False),
        ("2025-10-21T01:00:00+08:00", utc(2025, 10, 20, 17), False),
        ("2025-10-21T10:00:00.123456Z", utc(2025, 10, 21, 10, 0, 0, 123456), False),
        ("2025-10-21T10:00:00.5Z", utc(2025, 10, 21, 10, 0, 0, 500000), False),
        ("2025-10-21T10:00:00,25Z", utc(2025, 10, 21, 10, 0, 0, 250000), False),
        ("2025-10-21T10:00:00.123456789Z", utc(2025, 10, 21, 10, 0, 0, 123456), False),
        ("2025-10-21T10:00Z", utc(2025, 10, 21, 10), False),
        ("2025-10-21T10:00", utc(2025, 10, 21, 10), True),
        ("2025-10-21 10:00:30", utc(2025, 10, 21, 10, 0, 30), True),
        ("2025-10-21", utc(2025, 10, 21), True),
        ("  2025-10-21T10:00:00Z  ", utc(2025, 10, 21, 10), False),
        ("2024-02-29T00:00:00Z", utc(2024, 2, 29), False),
        ("0001-01-01T00:00:00Z", utc(1, 1, 1), False),
        ("9999-12-31T23:59:59Z", utc(9999, 12, 31, 23, 59, 59), False),
    ],
)
def test_parse_instant(text: str, expected: datetime, assumed: bool) -> None:
    instant, assumed_utc = parse_instant(text)
    assert instant == expected
    assert instant.tzinfo is UTC
    assert assumed_utc is assumed


@pytest.mark.parametrize(
    "text",
    [
        "",
        "now",
        "2025-02-30",
        "2025-02-29",
        "2025-13-01",
        "2025-00-10",
        "2025-10-00",
        "2025-10-21T25:00:00Z",
        "2025-10-21T24:00:00Z",
        "2025-10-21T10:60:00Z",
        "2025-10-21T10:00:60Z",
        "0000-01-01T00:00:00Z",
        "10000-01-01T00:00:00Z",
        "2025-10-21T10:00:00+24:00",
        "2025-10-21T10:00:00+08:60",
        "2025-10-21T10",
        "2025-10-21T10:00:00 Z",
        "2025-10-21Z",
        "25-10-21",
        "2025/10/21",
        "2025-1-2",
        "2025-10-21T10:00:00+8",
        "0001-01-01T00:00:00+01:00",
        "9999-12-31T23:00:00-02:00",
        "２０２５-10-21",
        "2025-10-21T10:00:00Zjunk",
        "tomorrow",
    ],
)
def test_parse_instant_rejects(text: str) -> None:
    with pytest.raises(TimeParseError):
        parse_instant(text)


def test_error_message_quotes_the_input() -> None:
    with pytest.raises(TimeParseError, match="2025-02-30"):
        parse_instant("2025-02-30")


@pytest.mark.parametrize(
    ("dt", "text"),
    [
        (utc(2025, 10, 21, 10), "2025-10-21T10:00:00Z"),
        (utc(2025, 10, 21, 10, 0, 0, 500000), "2025-10-21T10:00:00.500000Z"),
        (datetime(2025, 10, 21, 10, tzinfo=timezone(timedelta(hours=8))), "2025-10-21T02:00:00Z"),
        (utc(5, 1, 2, 3, 4, 5), "0005-01-02T03:04:05Z"),
    ],
)
def test_format_instant(dt: datetime, text: str) -> None:
    assert format_instant(dt) == text
    assert parse_instant(text) == (to_utc(dt), False)


def test_naive_datetimes_are_programmer_errors() -> None:
    with pytest.raises(ValueError):
        format_instant(datetime(2025, 1, 1))
    with pytest.raises(ValueError):
        to_utc(datetime(2025, 1, 1))


def test_to_utc() -> None:
    local = datetime(2025, 10, 21, 1, tzinfo=timezone(timedelta(hours=8)))
    assert to_utc(local) == local
    assert to_utc(local).tzinfo is UTC
    assert to_utc(local).day == 20
