"""ISO-8601 / RFC 3339 instants: parsing to aware UTC datetimes and the canonical UTC text.

Accepted (surrounding whitespace ignored)::

    2025-10-21                      date only: midnight UTC, assumed_utc=True
    2025-10-21T10:00                minutes only; no offset: read as UTC, assumed_utc=True
    2025-10-21 10:00:05.123456Z     'T', 't' or a space between date and time
    2025-10-21T10:00:05,5+08:00     offsets Z/z, +08:00, +0800, +08 (-00:00 is read as UTC)

Fractional seconds beyond microseconds are truncated. Rejected: impossible dates (2025-02-30),
hour 24 or 25, leap second 60, offsets of 24 hours or more, years outside 1..9999 (also after
conversion to UTC), and anything else.
"""

from __future__ import annotations

import functools
import re
from datetime import UTC, datetime, timedelta, timezone

from .errors import TimeParseError, quote

__all__ = ["format_instant", "parse_instant", "to_utc"]

_INSTANT_RE = re.compile(
    r"(?P<y>[0-9]{4})-(?P<mo>[0-9]{2})-(?P<d>[0-9]{2})"
    r"(?:[Tt ](?P<h>[0-9]{2}):(?P<mi>[0-9]{2})(?::(?P<s>[0-9]{2})(?:[.,](?P<f>[0-9]{1,30}))?)?"
    r"(?P<tz>[Zz]|(?P<sign>[+-])(?P<oh>[0-9]{2})(?::?(?P<om>[0-9]{2}))?)?)?"
)


def parse_instant(text: str) -> tuple[datetime, bool]:
    """Parse an ISO-8601 instant; return (aware UTC datetime, assumed_utc).

    `assumed_utc` is True when the text carried no offset (a date or a naive date-time), which is
    then read as UTC. Raises `TimeParseError` for anything that is not a valid instant.
    """
    if not isinstance(text, str):
        raise TypeError(f"parse_instant expects a str, got {type(text).__name__}")
    return _parse_instant(text)


# the canonical form (what format_instant writes, without microseconds): most instants given are in it
_CANONICAL_RE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z")


@functools.lru_cache(maxsize=4096)  # validation parses each instant twice (normalising, then the model)
def _parse_instant(text: str) -> tuple[datetime, bool]:
    raw = text.strip()
    if _CANONICAL_RE.fullmatch(raw):  # by one C call; kept only when it reads back as the same text
        try:
            instant = datetime.fromisoformat(raw)
        except ValueError:
            pass  # an impossible date or time: the general path says why
        else:
            if instant.isoformat()[:-6] + "Z" == raw:
                return instant, False
    m = _INSTANT_RE.fullmatch(raw)
    if m is None:
        raise TimeParseError(
            f"not an ISO-8601 instant: {quote(text)} (expected e.g. 2025-10-21T10:00:00Z or 2025-10-21)"
        )
    offset = timedelta(0)
    if m["sign"]:
        hours, minutes = int(m["oh"]), int(m["om"] or 0)
        if hours > 23 or minutes > 59:
            raise TimeParseError(f"invalid UTC offset in {quote(text)}")
        offset = timedelta(hours=hours, minutes=minutes) * (1 if m["sign"] == "+" else -1)
    fraction = (m["f"] or "")[:6].ljust(6, "0")
    try:
        local = datetime(
            int(m["y"]),
            int(m["mo"]),
            int(m["d"]),
            int(m["h"] or 0),
            int(m["mi"] or 0),
            int(m["s"] or 0),
            int(fraction),
            tzinfo=timezone(offset) if offset else UTC,
        )
        instant = local.astimezone(UTC)
    except (ValueError, OverflowError) as exc:
        raise TimeParseError(f"not a valid instant: {quote(text)} ({exc})") from None
    return instant, m["tz"] is None


def to_utc(dt: datetime) -> datetime:
    """The same instant with tzinfo=UTC. A naive datetime has no defined instant: ValueError."""
    if not isinstance(dt, datetime) or dt.utcoffset() is None:
        raise ValueError(f"expected a timezone-aware datetime, got {dt!r}")
    return dt.astimezone(UTC)


@functools.lru_cache(maxsize=4096)  # a write formats the same instants (its now) for every record
def format_instant(dt: datetime) -> str:
    """Canonical UTC text ``YYYY-MM-DDTHH:MM:SSZ``, with ``.ffffff`` only when there are microseconds."""
    if dt.tzinfo is UTC:  # as instants are held: isoformat writes the same fields, its offset +00:00
        return dt.isoformat()[:-6] + "Z"
    u = to_utc(dt)
    text = f"{u.year:04d}-{u.month:02d}-{u.day:02d}T{u.hour:02d}:{u.minute:02d}:{u.second:02d}"
    if u.microsecond:
        text += f".{u.microsecond:06d}"
    return text + "Z"
