"""The rules planner's working data: verb cues, the clauses of an instruction, one planned step."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from memql.cognition.planner.base import PlanContext
from memql.errors import MemqlError


@dataclass(frozen=True)
class Cue:
    """Words that name an operation. `where` is "start" when the words only count at the head of the
    imperative (they are common nouns too: "record", "note"), "any" when they count anywhere."""

    pattern: str
    verb: str  # one of the twelve, or "Priority" (set a priority level: Promote or Demote by the level)
    where: str = "any"
    mode: str | None = None  # Lock unlock/append_only, Label remove/replace
    archive: bool = False  # Demote by archiving
    remind: bool = False  # Promote with a reminder

    @property
    def regex(self) -> re.Pattern[str]:
        return _compiled(self.pattern)


_CACHE: dict[str, re.Pattern[str]] = {}


def _compiled(pattern: str) -> re.Pattern[str]:
    found = _CACHE.get(pattern)
    if found is None:
        found = _CACHE[pattern] = re.compile(pattern)
    return found


@dataclass
class Clause:
    """One step of an instruction: its text, and the verb read from it."""

    text: str  # as written (trimmed)
    lower: str  # lower-cased, straight quotes: what the patterns read
    index: int  # position among the steps
    cue: Cue | None = None
    cue_start: int = 0  # where the verb cue sits in `lower`
    cue_end: int = 0
    cue_object: tuple[int, int] | None = (
        None  # the object when the cue's words enclose it ("set X to expire")
    )
    body: str = ""  # `lower` after the politeness prefix
    body_offset: int = 0  # where `body` starts in `lower`

    @property
    def verb(self) -> str | None:
        return self.cue.verb if self.cue else None

    @property
    def after_cue(self) -> str:
        return self.lower[self.cue_end :]

    @property
    def original_after_cue(self) -> str:
        return self.text[self.cue_end :]


@dataclass
class Reading:
    """What the planner needs besides the text: the language and the store context."""

    lang: str  # "en" or "zh"
    now: datetime
    context: PlanContext
    notes: list[str] = field(default_factory=list)  # what the planner left out or assumed, plan-wide


@dataclass
class Step:
    """One planned IR before validation, with how sure the planner is of it and what it assumed."""

    op: str
    args: dict[str, Any] = field(default_factory=dict)
    target: dict[str, Any] | None = None
    confidence: float = 0.9
    assumptions: list[str] = field(default_factory=list)
    destructive: bool = False

    def ir(self) -> dict[str, Any]:
        out: dict[str, Any] = {"op": self.op}
        if self.target is not None:
            out["target"] = self.target
        out["args"] = self.args
        return out


class Clarify(MemqlError):  # a planning outcome (the user must say more), raised out of the readers
    """The instruction cannot be read safely: `missing` names what the user has to say."""

    def __init__(self, missing: str, message: str, step: int | None = None) -> None:
        super().__init__(message)
        self.missing, self.message, self.step = missing, message, step
