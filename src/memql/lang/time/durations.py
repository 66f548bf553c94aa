"""ISO-8601 durations: parsing, the canonical form, calendar-correct arithmetic.

Accepted (case-insensitive, surrounding whitespace ignored)::

    P3D  PT2H  P1Y2M  P2W  P1W2D  PT1H30M  P1Y2M3DT4H5M6S  PT0.5S  PT0,5S  P0D

* Components must appear in the order Y M W D T H M S; each at most once.
* Weeks may be combined with the other components (ISO 8601-2).
* A decimal fraction (``.`` or ``,``) is allowed on the last, smallest component only. It is
  converted exactly into the smaller components: ``PT1.5H`` = 1 hour 30 minutes, ``P1.5D`` =
  1 day 12 hours, ``P1.5W`` = 1 week 3 days 12 hours, ``P1.5Y`` = 1 year 6 months (a year fraction
  must come to whole months). A fraction of a month is rejected: months have no fixed length.
* No component may exceed 10,000 years' worth of its unit (10,000 Y, 120,000 M, 521,775 W,
  3,652,425 D, 87,658,200 H, ...).
* Rejected: empty text, ``P``, ``PT``, ``P1``, ``P1DT``, negative durations, junk.

Seconds are kept to nanosecond precision (rounded). `Duration.iso()` is the canonical form:
uppercase, zero components omitted, weeks kept as weeks, seconds without trailing zeros, the
zero duration as ``PT0S``; ``parse_duration(d.iso()) == d``. Only seconds ever carry a fraction.

`add_duration` is calendar-correct: years and months are calendar units (clamped to the month's
end: 2024-01-31 + P1M = 2024-02-29), weeks and days are calendar days in the instant's own time
zone, hours, minutes and seconds are exact elapsed time.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, fields
from datetime import UTC, datetime, timedelta
from decimal import Decimal

from dateutil.relativedelta import relativedelta

from .errors import TimeParseError, quote

__all__ = ["Duration", "add_duration", "parse_duration"]


@dataclass(frozen=True)
class Duration:
    """A non-negative ISO-8601 duration. Calendar parts (Y, M, W, D) are kept apart from exact ones."""

    years: int = 0
    months: int = 0
    weeks: int = 0
    days: int = 0
    hours: int = 0
    minutes: int = 0
    seconds: float = 0.0

    def __post_init__(self) -> None:
        for f in fields(self)[:-1]:
            value = getattr(self, f.name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"Duration.{f.name} must be a non-negative int, got {value!r}")
        seconds = self.seconds
        if isinstance(seconds, bool) or not isinstance(seconds, int | float):
            raise ValueError(f"Duration.seconds must be a number, got {seconds!r}")
        seconds = float(seconds)
        if not math.isfinite(seconds) or seconds < 0:
            raise ValueError(f"Duration.seconds must be finite and non-negative, got {seconds!r}")
        # Nanosecond precision keeps iso() short and exact; + 0.0 turns -0.0 into 0.0.
        object.__setattr__(self, "seconds", round(seconds, 9) + 0.0)

    def is_zero(self) -> bool:
        return not (
            self.years or self.months or self.weeks or self.days or self.hours or self.minutes or self.seconds
        )

    def iso(self) -> str:
        """The canonical ISO-8601 text, e.g. ``P1W2D``, ``PT0.5S``, ``PT0S``."""
        date_part = "".join(
            f"{value}{unit}"
            for value, unit in ((self.years, "Y"), (self.months, "M"), (self.weeks, "W"), (self.days, "D"))
            if value
        )
        time_part = "".join(
            f"{value}{unit}" for value, unit in ((self.hours, "H"), (self.minutes, "M")) if value
        )
        if self.seconds:
            time_part += _format_seconds(self.seconds) + "S"
        if not date_part and not time_part:
            return "PT0S"
        return "P" + date_part + ("T" + time_part if time_part else "")

    def __str__(self) -> str:
        return self.iso()


def _format_seconds(value: float) -> str:
    """Shortest exact decimal text for a float, never in exponent notation: 0.5 -> '0.5', 30.0 -> '30'."""
    text = format(Decimal(repr(value)), "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text


_NUM = r"([0-9]+(?:[.,][0-9]+)?)"
_DURATION_RE = re.compile(
    rf"P(?:{_NUM}Y)?(?:{_NUM}M)?(?:{_NUM}W)?(?:{_NUM}D)?(T(?:{_NUM}H)?(?:{_NUM}M)?(?:{_NUM}S)?)?"
)
# Group index -> (designator for messages, Duration field).
_COMPONENTS = (
    (1, "Y", "years"),
    (2, "M", "months"),
    (3, "W", "weeks"),
    (4, "D", "days"),
    (6, "H", "hours"),
    (7, "M", "minutes"),
    (8, "S", "seconds"),
)
_LIMITS = {  # 10,000 years' worth of each unit
    "years": Decimal(10_000),
    "months": Decimal(120_000),
    "weeks": Decimal(521_775),
    "days": Decimal(3_652_425),
    "hours": Decimal(87_658_200),
    "minutes": Decimal(5_259_492_000),
    "seconds": Decimal(315_569_520_000),
}
_MAX_COMPONENT_CHARS = 64


def parse_duration(text: str) -> Duration:
    """Parse an ISO-8601 duration such as ``P3D`` or ``PT1H30M``; raise `TimeParseError` if invalid."""
    if not isinstance(text, str):
        raise TypeError(f"parse_duration expects a str, got {type(text).__name__}")
    raw = text.strip()
    m = _DURATION_RE.fullmatch(raw.upper()) if raw.isascii() else None
    if m is None:
        raise TimeParseError(f"not an ISO-8601 duration: {quote(text)} (expected e.g. P3D, PT2H, P1Y2M, P2W)")
    present = [(group, designator, name) for group, designator, name in _COMPONENTS if m.group(group)]
    if not present:
        raise TimeParseError(f"not an ISO-8601 duration: {quote(text)} (no components)")
    if m.group(5) and not any(group > 5 for group, _, _ in present):
        raise TimeParseError(f"not an ISO-8601 duration: {quote(text)} ('T' must be followed by H, M or S)")
    values: dict[str, Decimal] = {}
    for index, (group, designator, name) in enumerate(present):
        digits = m.group(group).replace(",", ".")
        if len(digits) > _MAX_COMPONENT_CHARS:
            raise TimeParseError(f"duration component too long in {quote(text)}")
        if "." in digits and index != len(present) - 1:
            raise TimeParseError(
                f"not an ISO-8601 duration: {quote(text)} "
                f"(only the smallest component may have a fraction, not {designator})"
            )
        value = Decimal(digits)
        if value > _LIMITS[name]:
            raise TimeParseError(f"duration too large: {quote(text)} ({name} exceeds 10,000 years)")
        values[name] = value
    parts, seconds = _split_fraction(values, text)
    return Duration(
        years=parts.get("years", 0),
        months=parts.get("months", 0),
        weeks=parts.get("weeks", 0),
        days=parts.get("days", 0),
        hours=parts.get("hours", 0),
        minutes=parts.get("minutes", 0),
        seconds=float(seconds),
    )


def _split_fraction(values: dict[str, Decimal], text: str) -> tuple[dict[str, int], Decimal]:
    """Integer components and seconds, the fraction of a non-second component moved into smaller units."""
    parts = {name: int(value) for name, value in values.items() if name != "seconds"}
    seconds = values.get("seconds", Decimal(0))
    fractional = [
        (name, value)
        for name, value in values.items()
        if name != "seconds" and value != value.to_integral_value()
    ]
    if not fractional:
        return parts, seconds
    name, value = fractional[0]
    fraction = value - int(value)
    if name == "months":
        raise TimeParseError(f"a fraction of a month has no fixed length: {quote(text)}")
    if name == "years":
        months = fraction * 12
        if months != months.to_integral_value():
            raise TimeParseError(f"a fraction of a year must come to whole months: {quote(text)}")
        parts["months"] = int(months)
        return parts, seconds
    if name == "weeks":
        days = fraction * 7
        parts["days"] = int(days)
        remainder = (days - int(days)) * 86_400
    else:
        remainder = fraction * {"days": 86_400, "hours": 3_600, "minutes": 60}[name]
    for smaller, size in (("hours", 3_600), ("minutes", 60)):
        if _rank(smaller) > _rank(name):
            count = int(remainder // size)
            parts[smaller] = count
            remainder -= count * size
    return parts, remainder


def _rank(name: str) -> int:
    return ["years", "months", "weeks", "days", "hours", "minutes", "seconds"].index(name)


def add_duration(instant: datetime, d: Duration, sign: int = 1) -> datetime:
    """`instant` moved by `d` (forwards for sign=1, backwards for sign=-1), calendar-correct.

    Years and months are calendar units clamped to the month's end; weeks and days are calendar
    days in the instant's own time zone; hours, minutes and seconds are exact elapsed time. Adding
    applies the calendar part first, then the exact part; subtracting undoes them in reverse order.
    The result keeps the instant's tzinfo. Raises ValueError for a naive instant or a bad sign and
    OverflowError when the result falls outside the years 1..9999.
    """
    if not isinstance(instant, datetime) or instant.utcoffset() is None:
        raise ValueError("add_duration needs a timezone-aware datetime")
    if sign not in (1, -1):
        raise ValueError(f"sign must be 1 or -1, got {sign!r}")
    calendar = relativedelta(years=sign * d.years, months=sign * d.months, days=sign * (7 * d.weeks + d.days))
    exact = timedelta(hours=d.hours, minutes=d.minutes, seconds=d.seconds)
    try:
        if sign == 1:
            return _exact(instant + calendar, exact)
        return _exact(instant, -exact) + calendar
    except (OverflowError, ValueError) as exc:
        op = "+" if sign == 1 else "-"
        raise OverflowError(f"{instant.isoformat()} {op} {d.iso()} is out of range") from exc


def _exact(instant: datetime, delta: timedelta) -> datetime:
    if not delta:
        return instant
    return (instant.astimezone(UTC) + delta).astimezone(instant.tzinfo)
