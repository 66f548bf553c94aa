"""The single error type of the time layer."""

from __future__ import annotations

from memql.errors import MemqlError


class TimeParseError(MemqlError, ValueError):
    """A string could not be read as a duration, an instant or a natural time expression.

    The message is plain English and quotes the offending input, e.g.
    ``not an ISO-8601 duration: 'P1.5Y2M' (only the smallest component may have a fraction)``.
    """


def quote(text: str, limit: int = 80) -> str:
    """`repr` of `text`, shortened so error messages stay readable for huge inputs."""
    if len(text) > limit:
        return repr(text[:limit]) + f"... ({len(text)} characters)"
    return repr(text)
