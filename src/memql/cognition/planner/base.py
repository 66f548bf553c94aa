"""The planner contract shared by the rules planner and the LLM planner.

A planner sees the instruction and, optionally, a PlanContext describing the store (existing tags, recent
ids, the reference time) — never gold IRs or bench assertions. It returns a Plan: a canonical program (one
IR, or {"workflow": [...]}) that has passed validation, a confidence in [0, 1], and diagnostics. A plan that
cannot be made safely has no program and a diagnostic naming what is missing (rule `plan.clarify`), never a
guess.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal, Protocol

from memql.lang.diagnostics import Diagnostic

Lang = Literal["auto", "en", "zh"]


@dataclass(frozen=True)
class PlanContext:
    """What a planner may know about the store it plans for."""

    now: datetime | None = None  # the reference time for relative expressions ("yesterday", "下周五")
    tags: tuple[str, ...] = ()  # tags in use in the tenant, most used first
    recent_ids: tuple[str, ...] = ()  # ids of recently written records, newest first
    types: tuple[str, ...] = ()  # record kinds (Text2Mem `type`) in use
    tag_sets: tuple[
        frozenset[str], ...
    ] = ()  # each record's tags, one set per record (which tags go together)


@dataclass
class Plan:
    program: dict[str, Any] | None  # canonical IR, or {"workflow": [IR, ...]}; None when planning failed
    confidence: float  # 0..1: how sure the planner is that the program is what was meant
    diagnostics: list[Diagnostic] = field(default_factory=list)
    planner: str = ""  # which planner made it ("rules", "llm")
    lang: str = ""  # the language the instruction was read as ("en", "zh")
    destructive: bool = False  # any Delete, `all`, or a lock change: needs confirmation before it runs
    stats: dict[str, Any] = field(default_factory=dict)  # e.g. LLM calls and tokens, repair rounds

    @property
    def ok(self) -> bool:
        return self.program is not None and not any(d.severity == "error" for d in self.diagnostics)


class Planner(Protocol):
    name: str

    def plan(self, text: str, *, lang: Lang = "auto", context: PlanContext | None = None) -> Plan: ...
