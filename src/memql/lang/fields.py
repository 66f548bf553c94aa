"""Field types shared by the operation models: ids, tags, facets, instants, durations, time ranges.

Each type validates and canonicalises in one place, so every op spells a field the same way.
Validation errors are raised as PydanticCustomError whose type is a memql rule id (see diagnostics.RULES).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from dateutil.rrule import rrulestr
from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    JsonValue,
    PlainSerializer,
    PlainValidator,
    WithJsonSchema,
    model_validator,
)
from pydantic_core import PydanticCustomError

from memql.lang.time import TimeParseError, format_instant, parse_duration, parse_instant


class StrictModel(BaseModel):
    """Base of every language model: unknown fields are errors, no silent type coercion, immutable."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, populate_by_name=True)


# --- instants -------------------------------------------------------------------------------------


def _instant(value: Any) -> datetime:
    if isinstance(value, datetime):
        if value.tzinfo is None:
            raise PydanticCustomError("time.invalid", "a date-time needs a UTC offset")
        return value.astimezone(UTC)
    if not isinstance(value, str):
        raise PydanticCustomError("field.type", "expected an ISO-8601 date-time string")
    try:
        instant, _assumed_utc = parse_instant(value)
    except TimeParseError as exc:
        raise PydanticCustomError("time.invalid", "{reason}", {"reason": str(exc)}) from None
    return instant


Instant = Annotated[
    datetime,
    PlainValidator(_instant),
    PlainSerializer(format_instant, return_type=str),
    WithJsonSchema({"type": "string", "format": "date-time"}),
]
"""An instant: accepted as ISO-8601 with an offset, held as an aware UTC datetime, written as ...Z."""

# --- durations and recurrence ---------------------------------------------------------------------

DURATION_PATTERN = r"^P(?!$)(\d+Y)?(\d+M)?(\d+W)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+(\.\d+)?S)?)?$"


def _duration(value: Any) -> str:
    if not isinstance(value, str):
        raise PydanticCustomError("field.type", "expected an ISO-8601 duration string such as P3D")
    try:
        return parse_duration(value).iso()
    except TimeParseError as exc:
        raise PydanticCustomError("duration.invalid", "{reason}", {"reason": str(exc)}) from None


DurationText = Annotated[
    str,
    PlainValidator(_duration),
    WithJsonSchema({"type": "string", "pattern": DURATION_PATTERN, "description": "ISO-8601 duration"}),
]

_RRULE_ANCHOR = datetime(2000, 1, 1, tzinfo=UTC)


def canonical_rrule(value: str) -> str:
    """Validate an RFC 5545 RRULE and return it without the optional 'RRULE:' prefix, upper-cased."""
    text = value.strip()
    if text.upper().startswith("RRULE:"):
        text = text[6:]
    text = text.upper()
    if not text.startswith("FREQ=") and ";FREQ=" not in text:
        raise ValueError("an RRULE needs FREQ, e.g. FREQ=WEEKLY;BYDAY=MO")
    try:
        rrulestr("RRULE:" + text, dtstart=_RRULE_ANCHOR)
    except (ValueError, TypeError, KeyError, OverflowError) as exc:
        raise ValueError(f"not a valid RRULE: {exc}") from None
    return text


def _rrule(value: Any) -> str:
    if not isinstance(value, str):
        raise PydanticCustomError("field.type", "expected an RFC 5545 RRULE string")
    try:
        return canonical_rrule(value)
    except ValueError as exc:
        raise PydanticCustomError("rrule.invalid", "{reason}", {"reason": str(exc)}) from None


RRuleText = Annotated[
    str,
    PlainValidator(_rrule),
    WithJsonSchema({"type": "string", "description": "RFC 5545 RRULE, e.g. FREQ=WEEKLY;BYDAY=MO"}),
]


def _frequency(value: Any) -> str:
    """auto_frequency: an ISO-8601 duration or an RRULE (the official schema allows both)."""
    if not isinstance(value, str):
        raise PydanticCustomError("field.type", "expected an ISO-8601 duration or an RRULE")
    if value.strip().upper().startswith("P"):
        return _duration(value)
    return _rrule(value)


FrequencyText = Annotated[
    str,
    PlainValidator(_frequency),
    WithJsonSchema({"type": "string", "description": "ISO-8601 duration (P1W) or RFC 5545 RRULE"}),
]

# --- identifiers, text, tags ----------------------------------------------------------------------


def _no_control(value: str) -> str:
    if any(ord(c) < 32 for c in value):
        raise PydanticCustomError("field.invalid", "control characters are not allowed here")
    return value


def trimmed_nonempty(value: str) -> str:
    value = value.strip()
    if not value:
        raise PydanticCustomError("field.empty", "must not be empty or blank")
    return value


Id = Annotated[str, Field(min_length=1, max_length=256), AfterValidator(_no_control)]
Name = Annotated[str, Field(max_length=512), AfterValidator(trimmed_nonempty)]
Tag = Annotated[str, Field(max_length=256), AfterValidator(trimmed_nonempty), AfterValidator(_no_control)]


def dedupe(values: list[Any]) -> list[Any]:
    seen: set[Any] = set()
    out = []
    for v in values:
        if v not in seen:
            seen.add(v)
            out.append(v)
    return out


Tags = Annotated[list[Tag], Field(max_length=1000), AfterValidator(dedupe)]
IdList = Annotated[list[Id], Field(max_length=10_000), AfterValidator(dedupe)]
Weight = Annotated[float, Field(ge=0.0, le=1.0, allow_inf_nan=False)]
WeightDelta = Annotated[float, Field(ge=-1.0, le=1.0, allow_inf_nan=False)]

ReadPerm = Literal["public", "team", "private", "custom"]
WritePerm = Literal["open", "maintainer", "owner_only", "custom"]
MemoryType = Literal["episodic", "semantic", "procedural"]
Sensitivity = Literal["standard", "restricted", "sensitive"]
# from least to most protected: a reader cleared for a level also sees the levels before it
SENSITIVITY_ORDER: tuple[str, ...] = ("standard", "sensitive", "restricted")
Status = Literal["active", "archived", "deleted", "expired", "pending", "rejected"]
Unit = Literal["minutes", "hours", "days", "weeks", "months", "years"]
Confidence = Annotated[float, Field(ge=0.0, le=1.0, allow_inf_nan=False)]
Role = Literal["user", "admin", "agent"]
# an agent's consent: propose-only, read, or read and write (memql; engine/access.py)
Consent = Literal["propose", "read", "read_write"]

# --- facets ---------------------------------------------------------------------------------------


class Facets(StrictModel):
    """Facets: the four official keys are typed; any other key is a free facet holding JSON."""

    model_config = ConfigDict(extra="allow")
    __pydantic_extra__: dict[str, JsonValue] = Field(init=False)

    subject: Name | None = None
    time: Instant | None = None
    location: Name | None = None
    topic: Name | None = None

    @model_validator(mode="after")
    def _free_keys(self) -> Facets:
        for key in self.__pydantic_extra__ or {}:
            if not key or key != key.strip() or len(key) > 128:
                raise PydanticCustomError("json.bad_key", "facet keys must be trimmed, 1-128 characters")
        return self

    def is_empty(self) -> bool:
        return not self.model_dump(exclude_none=True)


# --- time ranges ----------------------------------------------------------------------------------


class TimeRange(StrictModel):
    """Either an absolute window {start, end} or a relative one {relative, amount, unit}."""

    start: Instant | None = None
    end: Instant | None = None
    relative: Literal["last", "next"] | None = None
    amount: Annotated[int, Field(ge=1, le=100_000)] | None = None
    unit: Unit | None = None

    @model_validator(mode="after")
    def _one_form(self) -> TimeRange:
        absolute = (self.start, self.end)
        relative = (self.relative, self.amount, self.unit)
        has_abs = any(v is not None for v in absolute)
        has_rel = any(v is not None for v in relative)
        if has_abs and has_rel:
            raise PydanticCustomError(
                "field.invalid", "give either start+end or relative+amount+unit, not both"
            )
        if has_abs and not all(v is not None for v in absolute):
            raise PydanticCustomError("field.required", "an absolute time range needs both start and end")
        if has_rel and not all(v is not None for v in relative):
            raise PydanticCustomError(
                "field.required", "a relative time range needs relative, amount and unit"
            )
        if not has_abs and not has_rel:
            raise PydanticCustomError(
                "field.required", "a time range needs start+end or relative+amount+unit"
            )
        if self.start is not None and self.end is not None and self.end < self.start:
            raise PydanticCustomError("time.empty_range", "the time range ends before it starts")
        return self
