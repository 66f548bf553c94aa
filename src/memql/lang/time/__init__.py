"""Time normalisation: ISO-8601 durations, instants, relative ranges, natural expressions (en/zh)."""

from memql.lang.time.durations import Duration, add_duration, parse_duration
from memql.lang.time.errors import TimeParseError
from memql.lang.time.instants import format_instant, parse_instant, to_utc
from memql.lang.time.natural import TimeSpan, find_natural, parse_natural, resolve_instant
from memql.lang.time.priority import PRIORITY_WEIGHTS, priority_weight
from memql.lang.time.ranges import Unit, relative_window, shift

__all__ = [
    "PRIORITY_WEIGHTS",
    "Duration",
    "TimeParseError",
    "TimeSpan",
    "Unit",
    "add_duration",
    "find_natural",
    "format_instant",
    "parse_duration",
    "parse_instant",
    "parse_natural",
    "priority_weight",
    "relative_window",
    "resolve_instant",
    "shift",
    "to_utc",
]
