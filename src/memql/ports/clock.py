"""The Clock port: every read of the current time goes through one of these."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Protocol


class Clock(Protocol):
    def now(self) -> datetime:
        """The current instant, timezone-aware."""
        ...


class SystemClock:
    """The machine's clock, in the machine's local timezone (so calendar words mean the user's days)."""

    def now(self) -> datetime:
        return datetime.now(UTC).astimezone()


class FixedClock:
    """A pinned clock for tests, the bench and `--now`; `advance` moves it forward."""

    def __init__(self, instant: datetime) -> None:
        if instant.tzinfo is None:
            raise ValueError("a FixedClock needs a timezone-aware instant")
        self._now = instant

    def now(self) -> datetime:
        return self._now

    def advance(self, delta: timedelta) -> None:
        self._now = self._now + delta

    def set(self, instant: datetime) -> None:
        if instant.tzinfo is None:
            raise ValueError("a FixedClock needs a timezone-aware instant")
        self._now = instant
