"""The data of `memql bench state`: one JSON object per line, validated into `StateItem`s.

An item is a conversation (sessions of timed turns) and questions about the state its user left behind:
the current value of something that changed, or the value true at `as_of`. `answer` lists acceptable
spellings of the right value, `stale` the superseded ones. `split` ("dev" / "heldout") marks which half a
rule writer may look at: rules are developed on "dev" only, "heldout" measures whether they generalise.
See docs/bench-state.md.
"""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from memql.errors import MemqlError

ASSISTANT = "assistant"  # the speaker who is the agent; every other speaker is a person in the conversation


class StateDataError(MemqlError, ValueError):
    """A bad line of a state bench file: the message names the file, the line and the field."""


class _Model(BaseModel):
    model_config = ConfigDict(extra="ignore", str_strip_whitespace=True, populate_by_name=True)


def _aware(value: datetime | None, what: str) -> datetime | None:
    if value is not None and value.tzinfo is None:
        raise ValueError(f"{what} needs a timezone (e.g. 2026-03-02T09:00:00Z)")
    return value


class StateTurn(_Model):
    speaker: str = Field(min_length=1)
    text: str = Field(min_length=1)


class StateSession(_Model):
    time: datetime
    turns: list[StateTurn] = Field(min_length=1)

    @field_validator("time")
    @classmethod
    def _time_aware(cls, value: datetime) -> datetime:
        return _aware(value, "a session time")  # type: ignore[return-value]


class StateQuestion(_Model):
    q: str = Field(min_length=1)
    as_of: datetime | None = None
    answer: list[str] = Field(min_length=1)
    stale: list[str] = Field(default_factory=list)
    kind: Literal["current", "past"]

    @field_validator("as_of")
    @classmethod
    def _as_of_aware(cls, value: datetime | None) -> datetime | None:
        return _aware(value, "as_of")

    @field_validator("answer", "stale")
    @classmethod
    def _no_blank(cls, values: list[str]) -> list[str]:
        if any(not v.strip() for v in values):
            raise ValueError("spellings must not be empty")
        return [v.strip() for v in values]

    @model_validator(mode="after")
    def _consistent(self) -> StateQuestion:
        if self.kind == "past" and self.as_of is None:
            raise ValueError("a 'past' question needs as_of (the instant it asks about)")
        # an answer inside a stale spelling (or the reverse) could never be scored right
        for a in self.answer:
            for s in self.stale:
                if a.casefold() in s.casefold() or s.casefold() in a.casefold():
                    raise ValueError(f"answer {a!r} and stale {s!r} overlap; no context could be right")
        return self


class StateItem(_Model):
    id: str = Field(min_length=1)
    lang: Literal["en", "zh"]
    sessions: list[StateSession] = Field(min_length=1)
    questions: list[StateQuestion] = Field(min_length=1)
    split: Literal["dev", "heldout"] | None = None  # None: an item from elsewhere, in no split
    # what the item tests (state-v1: change, correction, ...); "construct" in the file, a name pydantic keeps
    construct_name: str | None = Field(default=None, alias="construct")

    @model_validator(mode="after")
    def _ordered(self) -> StateItem:
        times = [s.time for s in self.sessions]
        if times != sorted(times):
            raise ValueError("sessions must be in time order")
        if self.user is None:
            raise ValueError(f"no turn by a speaker other than {ASSISTANT!r} (the user)")
        return self

    @property
    def user(self) -> str | None:
        """The conversation's user: the first speaker who is not the assistant."""
        for session in self.sessions:
            for turn in session.turns:
                if turn.speaker.casefold() != ASSISTANT:
                    return turn.speaker
        return None


def _where(error: ValidationError) -> str:
    first = error.errors()[0]
    field = "/" + "/".join(str(p) for p in first["loc"]) if first["loc"] else "/"
    return f"{field}: {first['msg']}"


def parse_line(line: str, *, source: str = "<data>", number: int = 1) -> StateItem:
    """One line of a state bench file as a `StateItem`; `StateDataError` naming the line and field."""
    try:
        raw = json.loads(line)
    except json.JSONDecodeError as exc:
        raise StateDataError(f"{source}:{number}: not JSON ({exc.msg} at column {exc.colno})") from None
    if not isinstance(raw, dict):
        raise StateDataError(f"{source}:{number}: a line must be a JSON object")
    try:
        return StateItem.model_validate(raw)
    except ValidationError as exc:
        label = f" (item {raw['id']!r})" if isinstance(raw.get("id"), str) else ""
        raise StateDataError(f"{source}:{number}{label}: {_where(exc)}") from None


def load_items(path: Path | str) -> list[StateItem]:
    """Every item of a state bench file (blank lines skipped); ids must be unique."""
    path = Path(path)
    items: list[StateItem] = []
    seen: dict[str, int] = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        item = parse_line(line, source=str(path), number=number)
        if item.id in seen:
            raise StateDataError(f"{path}:{number}: /id: {item.id!r} already used on line {seen[item.id]}")
        seen[item.id] = number
        items.append(item)
    if not items:
        raise StateDataError(f"{path}: no items")
    return items
