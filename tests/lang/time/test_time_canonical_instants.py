"""Instants in the canonical form (``YYYY-MM-DDTHH:MM:SSZ``) are parsed and written by shortcuts
(memql.lang.time.instants): pinned here to what the general rules give, over valid and impossible
dates and times, so that no text reads or writes differently."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memql.lang.time import TimeParseError, format_instant, parse_instant

# fields drawn past their ranges too: month 13, day 32, hour 24, minute 60, leap second 60
_FIELDS = st.tuples(
    st.integers(0, 9999),
    st.integers(0, 13),
    st.integers(0, 32),
    st.integers(0, 25),
    st.integers(0, 60),
    st.integers(0, 61),
)


@settings(max_examples=1000, deadline=None)
@given(_FIELDS)
def test_a_canonical_text_reads_as_its_fields_or_is_refused(fields):
    year, month, day, hour, minute, second = fields
    text = f"{year:04d}-{month:02d}-{day:02d}T{hour:02d}:{minute:02d}:{second:02d}Z"
    try:
        expected = datetime(year, month, day, hour, minute, second, tzinfo=UTC)
    except ValueError:
        with pytest.raises(TimeParseError, match="not a valid instant"):
            parse_instant(text)
        return
    instant, assumed_utc = parse_instant(text)
    assert (instant, assumed_utc) == (expected, False) and instant.tzinfo is UTC
    assert format_instant(instant) == text


@settings(max_examples=1000, deadline=None)
@given(
    st.datetimes(min_value=datetime(2, 1, 1), max_value=datetime(9998, 12, 31)),
    st.sampled_from([UTC, timezone(timedelta(hours=8)), timezone(timedelta(hours=-5, minutes=-30))]),
)
def test_an_instant_is_written_as_its_utc_fields(naive, zone):
    dt = naive.replace(tzinfo=zone)
    u = dt.astimezone(UTC)
    expected = f"{u.year:04d}-{u.month:02d}-{u.day:02d}T{u.hour:02d}:{u.minute:02d}:{u.second:02d}"
    expected += (f".{u.microsecond:06d}" if u.microsecond else "") + "Z"
    assert format_instant(dt) == expected


def test_the_canonical_form_alone_takes_the_shortcut_with_the_same_result():
    """Near misses of the canonical form (a lower-case z, a space, an offset, a fraction) read the same
    instant by the general rules."""
    same = datetime(2025, 10, 21, 10, 0, 5, tzinfo=UTC)
    for text in (
        "2025-10-21T10:00:05Z",
        "2025-10-21T10:00:05z",
        "2025-10-21 10:00:05Z",
        " 2025-10-21T10:00:05Z ",
    ):
        assert parse_instant(text) == (same, False)
    assert parse_instant("2025-10-21T12:00:05+02:00") == (same, False)
    assert parse_instant("2025-10-21T10:00:05.000Z") == (same, False)
