"""Calendar shifts and rolling windows."""

from datetime import UTC, datetime, timedelta, timezone

import pytest

from memql.lang.time import relative_window, shift


def utc(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)


@pytest.mark.parametrize(
    ("start", "amount", "unit", "expected"),
    [
        (utc(2025, 1, 31), 1, "months", utc(2025, 2, 28)),
        (utc(2024, 1, 31), 1, "months", utc(2024, 2, 29)),
        (utc(2025, 3, 31), -1, "months", utc(2025, 2, 28)),
        (utc(2024, 2, 29), 1, "years", utc(2025, 2, 28)),
        (utc(2024, 2, 29), -1, "years", utc(2023, 2, 28)),
        (utc(2025, 12, 31), 1, "days", utc(2026, 1, 1)),
        (utc(2025, 12, 15), 1, "months", utc(2026, 1, 15)),
        (utc(2025, 1, 1), -2, "weeks", utc(2024, 12, 18)),
        (utc(2025, 1, 1), 90, "minutes", utc(2025, 1, 1, 1, 30)),
        (utc(2025, 1, 1), -3, "hours", utc(2024, 12, 31, 21)),
        (utc(2025, 1, 1), 0, "years", utc(2025, 1, 1)),
    ],
)
def test_shift(start: datetime, amount: int, unit: str, expected: datetime) -> None:
    assert shift(start, amount, unit) == expected  # type: ignore[arg-type]


def test_shift_rejects_bad_arguments() -> None:
    with pytest.raises(ValueError):
        shift(utc(2025, 1, 1), 1, "fortnights")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        shift(utc(2025, 1, 1), 1.5, "days")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        shift(datetime(2025, 1, 1), 1, "days")


def test_relative_window_last_month_clamps() -> None:
    now = utc(2025, 3, 31, 12)
    assert relative_window("last", 1, "months", now) == (utc(2025, 2, 28, 12), now)


def test_relative_window_next() -> None:
    now = utc(2025, 12, 31, 12)
    assert relative_window("next", 2, "days", now) == (now, utc(2026, 1, 2, 12))


def test_relative_window_is_returned_in_utc() -> None:
    now = datetime(2025, 10, 21, 7, tzinfo=timezone(timedelta(hours=8)))
    start, end = relative_window("last", 1, "days", now)
    assert start == utc(2025, 10, 19, 23) and end == utc(2025, 10, 20, 23)
    assert start.tzinfo is UTC and end.tzinfo is UTC


def test_relative_window_rejects_bad_arguments() -> None:
    with pytest.raises(ValueError):
        relative_window("previous", 1, "days", utc(2025, 1, 1))  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        relative_window("last", -1, "days", utc(2025, 1, 1))
