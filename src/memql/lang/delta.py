"""The extraction boundary's data (DESIGN §9, Formation): what a message is, and the `MemoryDelta` an
extractor makes of it.

An `Utterance` is one message — who said it, its text, when (an aware datetime: its zone is the calendar
"tomorrow" is read in), and the conversation's recent turns before it. A `MemoryDelta` is what memql may
learn from it: typed fact candidates, entities, resolved times, tasks and decisions, the a2p memory type,
category, sensitivity and salience. Every derived item carries `Evidence`: the quoted words and their
[start, end) character offsets in the message text, so nothing in a delta is without a source.

`MemoryDelta.model_json_schema()` is what an LLM is asked to fill: every object is closed
(`additionalProperties: false`), every property is listed as required (an absent value is `null`) and
described, so the schema suits strict structured-output modes. `check_evidence` and `anchor_evidence`
hold a delta against the text it claims to quote.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field, field_validator, model_validator
from pydantic.json_schema import SkipJsonSchema
from pydantic_core import PydanticCustomError

from memql.lang.categories import Category
from memql.lang.diagnostics import Diagnostic
from memql.lang.fields import Confidence, Instant, MemoryType, Name, Sensitivity, StrictModel, Weight
from memql.lang.time import format_instant

__all__ = [
    "ATTRIBUTE_PATTERN",
    "ActionItem",
    "Entity",
    "EntityKind",
    "Evidence",
    "FactCandidate",
    "FactValue",
    "MemoryDelta",
    "TimeMention",
    "Turn",
    "Utterance",
    "anchor_evidence",
    "check_evidence",
]

EntityKind = Literal["person", "place", "organization", "product", "other"]
Granularity = Literal["instant", "minute", "hour", "day", "week", "month", "year"]
FactValue = str | int | float | bool
# an attribute key: lower-case dotted segments of letters, digits and '_' (any script: 血型 is a key)
ATTRIBUTE_PATTERN = re.compile(r"^[^\W_A-Z][^\WA-Z]*(\.[^\W_A-Z][^\WA-Z]*)*$")
MAX_TEXT = 100_000
MAX_ITEMS = 200


def _strict_schema(schema: dict[str, Any], cls: Any) -> None:
    """Strict structured-output modes want every property required and no defaults: absent means null."""
    properties = schema.get("properties")
    if properties:
        schema["required"] = list(properties)
        for prop in properties.values():
            prop.pop("default", None)


class DeltaModel(StrictModel):
    model_config = ConfigDict(json_schema_extra=_strict_schema)


# --- the message -----------------------------------------------------------------------------------


def _aware(value: datetime) -> datetime:
    if value.utcoffset() is None:
        raise PydanticCustomError("time.invalid", "a message's time needs a UTC offset (its calendar zone)")
    return value


AwareTime = Annotated[datetime, Field(description="an aware date-time; its zone is the message's calendar")]


class Turn(StrictModel):
    """One earlier turn of the conversation (oldest first in `Utterance.recent`)."""

    speaker: Name
    text: Annotated[str, Field(max_length=MAX_TEXT)]
    time: AwareTime | None = None
    source: Name | None = None  # the turn's id, so a fact read from its words can cite it

    @field_validator("time")
    @classmethod
    def _zoned(cls, value: datetime | None) -> datetime | None:
        return value if value is None else _aware(value)


class Utterance(StrictModel):
    """A message to extract from: `time` is when it was said (relative times resolve against it, in its
    own zone); `recent` the conversation's turns before it, oldest first (corrections and pronouns bind
    to them); `lang` forces a grammar ("auto": Chinese when the text holds CJK characters); `agent` the
    name the conversation's agent speaks under, whose turns restate what the one it answers said ("Noted:
    book club April 9 at 8pm" is the user's book club)."""

    speaker: Name
    text: Annotated[str, Field(max_length=MAX_TEXT)]
    time: AwareTime
    recent: tuple[Turn, ...] = ()
    lang: Literal["auto", "en", "zh"] = "auto"
    agent: Name | None = None

    @field_validator("time")
    @classmethod
    def _zoned(cls, value: datetime) -> datetime:
        return _aware(value)

    @field_validator("recent", mode="before")
    @classmethod
    def _turns(cls, value: Any) -> Any:
        return tuple(value) if isinstance(value, list) else value  # a list of turns is as good as a tuple


# --- the delta -------------------------------------------------------------------------------------


class Evidence(DeltaModel):
    """Where in the message text an item comes from."""

    start: Annotated[int, Field(ge=0, description="offset of the first quoted character in the text")]
    end: Annotated[int, Field(ge=0, description="offset one past the last quoted character")]
    quote: Annotated[
        str, Field(min_length=1, max_length=2000, description="exactly the text's characters [start, end)")
    ]

    @model_validator(mode="after")
    def _consistent(self) -> Evidence:
        if self.end - self.start != len(self.quote):
            raise PydanticCustomError("field.invalid", "evidence end - start must equal the quote's length")
        return self


def _attribute(value: str) -> str:
    if not ATTRIBUTE_PATTERN.match(value):
        raise PydanticCustomError(
            "field.invalid",
            "an attribute is lower-case dotted segments of letters, digits and _ (passport.deadline)",
        )
    return value


class FactCandidate(DeltaModel):
    """A typed fact the message states: (subject, attribute) -> value, true from `valid_from`."""

    subject: Annotated[
        Name,
        Field(description="who or what the fact is about: the speaker's name for I/me/my, else the name"),
    ]
    attribute: Annotated[
        str,
        Field(
            min_length=1,
            max_length=256,
            description="normalised key, lower-case dotted snake case: residence, employer, "
            "passport.deadline, favorite.color, preference.sushi, relation.sister_of",
        ),
    ]
    value: Annotated[
        FactValue,
        Field(
            description="the value: a date as YYYY-MM-DD (YYYY-MM, YYYY), a moment as ISO-8601, "
            "a number, a boolean or the words"
        ),
    ]
    valid_from: Annotated[
        Instant | None,
        Field(description="when the value became true in the world; null: the message's time"),
    ]
    confidence: Annotated[Confidence, Field(description="0..1: how sure the extraction is")]
    evidence: Annotated[Evidence, Field(description="the words stating the fact")]
    correction: Annotated[
        bool,
        Field(description="true when the message corrects an earlier value rather than reports a change"),
    ] = False
    category: Annotated[Category | None, Field(description="the a2p category of the fact, or null")] = None
    replaces: Annotated[
        Evidence | None,
        Field(
            description='the words that name the value this fact ends, when the message names it ("left '
            'Boise for Denver": Boise; "June 30, not July 15": July 15; 从上海搬到杭州: 上海): true '
            "until this fact's valid_from; else null"
        ),
    ] = None
    said_in: Annotated[
        int | None,
        Field(
            ge=0,
            description="null when this message states the fact; else the index (0 = oldest) of the recent "
            "turn that stated it, when only this message shows it was a fact (the value a change or "
            "correction replaces): the evidence then quotes that turn",
        ),
    ] = None

    @field_validator("attribute")
    @classmethod
    def _key(cls, value: str) -> str:
        return _attribute(value)

    def structured(self, source: str | None = None) -> dict[str, Any]:
        """The typed-fact payload an Encode takes (`payload.structured`, memql.lang.facts): subject,
        attribute, value, valid_from when known, and `source` (the message it came from) when given."""
        out: dict[str, Any] = {"subject": self.subject, "attribute": self.attribute, "value": self.value}
        if self.valid_from is not None:
            out["valid_from"] = format_instant(self.valid_from)
        if source is not None:
            out["source"] = source
        return out

    @field_validator("value")
    @classmethod
    def _value(cls, value: FactValue) -> FactValue:
        if isinstance(value, str) and not value.strip():
            raise PydanticCustomError("field.empty", "a fact's value must not be blank")
        if isinstance(value, float) and value != value:
            raise PydanticCustomError("json.non_finite", "a fact's value must be a finite number")
        return value


class Entity(DeltaModel):
    """A person, place, organisation or product the message names."""

    text: Annotated[Name, Field(description="the name as written (without a leading article)")]
    kind: Annotated[EntityKind, Field(description="person | place | organization | product | other")]
    evidence: Annotated[Evidence, Field(description="where the name is written")]


class TimeMention(DeltaModel):
    """A time expression resolved to absolute UTC instants against the message's own time."""

    start: Annotated[Instant, Field(description="start of the span (UTC)")]
    end: Annotated[Instant, Field(description="end of the span, exclusive; equal to start for an instant")]
    granularity: Annotated[Granularity, Field(description="what the span stands for: a day, a month ...")]
    evidence: Annotated[Evidence, Field(description="the time words")]

    @model_validator(mode="after")
    def _ordered(self) -> TimeMention:
        if self.end < self.start:
            raise PydanticCustomError("time.empty_range", "a time span ends before it starts")
        return self


class ActionItem(DeltaModel):
    """A task (something to do) or a decision (something settled)."""

    text: Annotated[Name, Field(description="what is to be done or was decided, in the message's words")]
    owner: Annotated[Name | None, Field(description="who does it or decided it, or null when unsaid")]
    due: Annotated[Instant | None, Field(description="when it is due (UTC), or null when unsaid")]
    evidence: Annotated[Evidence, Field(description="the words of the task or decision")]


class MemoryDelta(DeltaModel):
    """What one message adds to memory. An empty delta (no facts, nothing else) is a valid answer."""

    facts: Annotated[
        list[FactCandidate],
        Field(max_length=MAX_ITEMS, default_factory=list, description="typed facts the message states"),
    ]
    entities: Annotated[
        list[Entity],
        Field(
            max_length=MAX_ITEMS, default_factory=list, description="people, places, organisations, products"
        ),
    ]
    times: Annotated[
        list[TimeMention],
        Field(max_length=MAX_ITEMS, default_factory=list, description="time expressions, resolved"),
    ]
    tasks: Annotated[
        list[ActionItem], Field(max_length=MAX_ITEMS, default_factory=list, description="things to do")
    ]
    decisions: Annotated[
        list[ActionItem], Field(max_length=MAX_ITEMS, default_factory=list, description="things decided")
    ]
    memory_type: Annotated[
        MemoryType,
        Field(
            description="a2p type: procedural if it says how to do something or a routine; else semantic "
            "if it states lasting facts or preferences; else episodic (an event)"
        ),
    ] = "episodic"
    category: Annotated[Category | None, Field(description="the message's main a2p category, or null")] = None
    sensitivity: Annotated[
        Sensitivity, Field(description="standard | sensitive | restricted (health, money: restricted)")
    ] = "standard"
    salience: Annotated[Weight, Field(description="0..1: how much the message is worth remembering")] = 0.0
    # what the extractor reports about its own run (an LLM reply that was dropped ...); not the model's
    diagnostics: SkipJsonSchema[tuple[Diagnostic, ...]] = ()

    def is_empty(self) -> bool:
        return not (self.facts or self.entities or self.times or self.tasks or self.decisions)

    def evidence(self) -> list[tuple[str, Evidence]]:
        """Every (JSON pointer, evidence) of the delta."""
        out: list[tuple[str, Evidence]] = []
        for name in ("facts", "entities", "times", "tasks", "decisions"):
            for i, item in enumerate(getattr(self, name)):
                out.append((f"/{name}/{i}/evidence", item.evidence))
                if name == "facts" and item.replaces is not None:
                    out.append((f"/{name}/{i}/replaces", item.replaces))
        return out


def _quoted(delta: MemoryDelta, path: str, text: str, recent: Sequence[Turn]) -> str | None:
    """The text an evidence at `path` quotes: the message's, or a recent turn's for a fact `said_in` it
    (None when that turn does not exist)."""
    if not path.startswith("/facts/"):
        return text
    said_in = delta.facts[int(path.split("/")[2])].said_in
    if said_in is None:
        return text
    return recent[said_in].text if said_in < len(recent) else None


def check_evidence(delta: MemoryDelta, text: str, recent: Sequence[Turn] = ()) -> list[str]:
    """What in `delta` does not quote `text` (or, for a fact `said_in` a recent turn, that turn's text)
    faithfully (empty when every span is exact)."""
    problems = []
    for path, ev in delta.evidence():
        quoted = _quoted(delta, path, text, recent)
        if quoted is None:
            problems.append(f"{path}: said_in names no recent turn")
        elif ev.end > len(quoted) or quoted[ev.start : ev.end] != ev.quote:
            problems.append(f"{path}: {ev.quote!r} is not the text at [{ev.start}, {ev.end})")
    return problems


def _anchored(ev: Evidence, text: str) -> Evidence | None:
    if ev.end <= len(text) and text[ev.start : ev.end] == ev.quote:
        return ev
    places = [m.start() for m in re.finditer(re.escape(ev.quote), text)]
    if not places:
        return None
    start = min(places, key=lambda p: abs(p - ev.start))  # the occurrence nearest to where it was put
    return Evidence(start=start, end=start + len(ev.quote), quote=ev.quote)


def anchor_evidence(
    delta: MemoryDelta, text: str, recent: Sequence[Turn] = ()
) -> tuple[MemoryDelta, list[str]]:
    """The delta with each evidence's offsets moved onto its quote in `text` (or in the recent turn a fact
    is `said_in`: a model quotes words well and counts characters badly); the problems name the quotes
    that text does not contain at all."""
    problems: list[str] = []
    data = delta.model_dump()
    for path, ev in delta.evidence():
        quoted = _quoted(delta, path, text, recent)
        fixed = _anchored(ev, quoted) if quoted is not None else None
        if fixed is None:
            where = "the message" if quoted is text else "the recent turn it is said_in"
            problems.append(f"{path}: {ev.quote!r} does not occur in {where}")
            continue
        _, name, index, field = path.split("/")
        data[name][int(index)][field] = fixed.model_dump()
    if problems:
        return delta, problems
    return MemoryDelta.model_validate(data, strict=False), []
