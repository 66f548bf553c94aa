"""Shifting instants by calendar units and rolling windows ("last 3 weeks", "next 2 days")."""

from __future__ import annotations

from datetime import datetime
from typing import Literal, get_args

from .durations import Duration, add_duration
from .instants import to_utc

__all__ = ["UNITS", "Unit", "relative_window", "shift", "unit_duration"]

Unit = Literal["minutes", "hours", "days", "weeks", "months", "years"]
UNITS: tuple[str, ...] = get_args(Unit)


def unit_duration(amount: int, unit: Unit) -> Duration:
    """`amount` (>= 0) of `unit` as a Duration."""
    if unit not in UNITS:
        raise ValueError(f"unknown unit {unit!r}; expected one of {', '.join(UNITS)}")
    if isinstance(amount, bool) or not isinstance(amount, int) or amount < 0:
        raise ValueError(f"amount must be a non-negative int, got {amount!r}")
    return Duration(**{unit: amount})


def shift(instant: datetime, amount: int, unit: Unit) -> datetime:
    """`instant` moved by `amount` units (negative: backwards), calendar-correct like `add_duration`.

    Months and years clamp to the month's end (2025-03-31 shifted by -1 months is 2025-02-28); days
    and weeks are calendar days in the instant's time zone; minutes and hours are exact.
    """
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise ValueError(f"amount must be an int, got {amount!r}")
    return add_duration(instant, unit_duration(abs(amount), unit), -1 if amount < 0 else 1)


def relative_window(
    relative: Literal["last", "next"], amount: int, unit: Unit, now: datetime
) -> tuple[datetime, datetime]:
    """``last N unit`` = [now - N units, now]; ``next N unit`` = [now, now + N units]; both in UTC."""
    if relative not in ("last", "next"):
        raise ValueError(f"relative must be 'last' or 'next', got {relative!r}")
    if isinstance(amount, bool) or not isinstance(amount, int) or amount < 0:
        raise ValueError(f"amount must be a non-negative int, got {amount!r}")
    if relative == "last":
        return to_utc(shift(now, -amount, unit)), to_utc(now)
    return to_utc(now), to_utc(shift(now, amount, unit))
