"""Typed facts, the read side (SGAM; DESIGN §9): current state, state at a world time, state as recorded at
a record time, and full histories with their sources.

Written in the language: every read is one Retrieve with `filter.fact` ({subject, attribute, valid_at})
and, for a record time, Retrieve's `as_of` (the audit log replayed to that instant). The write side —
closing the current value, slotting late values into history — is the engine's Encode
(memql.engine.facts).

>>> m.facts.get("passport", "deadline").facts[0].value            # now
>>> m.facts.get("passport", "deadline", as_of="2026-06-02")        # true in the world on June 2
>>> m.facts.get("passport", "deadline", recorded_at="2026-06-05")  # what memql knew on June 5
>>> m.facts.history("passport", "deadline")                        # every value, oldest first
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from memql.engine import audit
from memql.lang import build
from memql.lang.diagnostics import Diagnostic
from memql.lang.time import format_instant

if TYPE_CHECKING:
    from memql.engine.executor import Executor

LIVE = ("active", "archived")  # a fact's history is made of these (as the engine keeps it)
MAX_ROWS = 100_000  # the language's largest filter limit: a history longer than this is cut
_FIELDS = [
    *("id", "subject", "attribute", "value", "valid_from", "valid_to", "source", "evidence"),
    *("created_at", "status"),
]
_OPEN = datetime.max.replace(tzinfo=UTC)
# where a parameter of get/history lands in the Retrieve IR, to point diagnostics back at the parameter
_PARAMETERS = {
    "/target/filter/fact/valid_at": "/as_of",
    "/args/as_of": "/recorded_at",
    "/target/filter/fact/subject": "/subject",
    "/target/filter/fact/attribute": "/attribute",
}

When = datetime | str


@dataclass(frozen=True)
class Fact:
    """One value of a fact: true in the world over [valid_from, valid_to) (valid_to None: still true)."""

    id: str
    subject: str
    attribute: str
    value: Any
    valid_from: datetime
    valid_to: datetime | None
    source: str | None  # the provenance of the window's first assertion
    recorded_at: datetime  # when memql stored it
    # every assertion of the value inside the window: [{"valid_from": ISO, "source": ...}], first one first
    evidence: list[dict[str, Any]] = field(default_factory=list)
    # the records it was formed from (links derived_from: a conversation's message), readable ones only
    derived_from: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "subject": self.subject,
            "attribute": self.attribute,
            "value": self.value,
            "valid_from": format_instant(self.valid_from),
            "valid_to": None if self.valid_to is None else format_instant(self.valid_to),
            "source": self.source,
            "recorded_at": format_instant(self.recorded_at),
            "evidence": self.evidence,
            "derived_from": self.derived_from,
        }


@dataclass
class FactsResult:
    """What get and history return: the facts, or the diagnostics that explain why there are none."""

    success: bool
    facts: list[Fact] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    warnings: list[Diagnostic] = field(default_factory=list)

    def values(self) -> dict[str, Any]:
        """{attribute: value} of the facts (a history's last value per attribute)."""
        return {f.attribute: f.value for f in self.facts}

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"success": self.success, "facts": [f.to_json() for f in self.facts]}
        if self.warnings:
            out["warnings"] = [d.model_dump() for d in self.warnings]
        if self.diagnostics:
            out["diagnostics"] = [d.model_dump() for d in self.diagnostics]
        return out


class Facts:
    """The facts of one session's tenant (`Memory.facts`), read through its Executor."""

    def __init__(self, executor: Executor) -> None:
        self.executor = executor

    def get(
        self,
        subject: str,
        attribute: str | None = None,
        *,
        as_of: When | None = None,
        recorded_at: When | None = None,
    ) -> FactsResult:
        """The value of each of the subject's attributes (or of one) at world time `as_of` (default: the
        record time asked for, else now), as memql knew it at `recorded_at` (default: now). One fact per
        attribute, by attribute. Times are instants or the language's time expressions ("June 2")."""
        at = as_of if as_of is not None else recorded_at
        if at is None:
            at = self.executor.clock.now()
        fact: dict[str, Any] = {"subject": subject, "valid_at": _text(at)}
        if attribute is not None:
            fact["attribute"] = attribute
        # a world time taken from recorded_at would only repeat what is said about recorded_at
        result = self._read(fact, recorded_at, echo=None if as_of is not None else "/as_of")
        result.facts.sort(key=lambda f: (f.attribute, _chain_key(f)))
        return result

    def history(self, subject: str, attribute: str, *, recorded_at: When | None = None) -> FactsResult:
        """Every value the fact has held, in world-time order, each with its window and source; each
        one supersedes the one before it. Corrected values (same valid_from, recorded earlier) keep an
        empty window [t, t) and come before the value that corrected them."""
        result = self._read({"subject": subject, "attribute": attribute}, recorded_at)
        result.facts.sort(key=_chain_key)
        return result

    def _read(self, fact: dict[str, Any], recorded_at: When | None, echo: str | None = None) -> FactsResult:
        as_of = _text(recorded_at) if recorded_at is not None else None
        result = self.executor.execute(
            build.retrieve(
                filter={"fact": fact, "status": "any", "limit": MAX_ROWS}, include=_FIELDS, as_of=as_of
            )
        )
        warnings = [d for d in map(_repoint, result.warnings) if d.path != echo]
        if not result.success:
            errors = [d for d in map(_repoint, result.diagnostics) if d.path != echo]
            return FactsResult(False, diagnostics=errors, warnings=warnings)
        facts = [
            Fact(
                id=row["id"],
                subject=row["subject"],
                attribute=row["attribute"],
                value=row["value"],
                valid_from=row["valid_from"],
                valid_to=row["valid_to"],
                source=row["source"],
                recorded_at=row["created_at"],
                evidence=row["evidence"] or [],
                derived_from=_derived_from(self.executor, row["id"]),
            )
            for row in result.data["rows"]
            if row["status"] in LIVE
        ]
        return FactsResult(True, facts, warnings=warnings)


def _derived_from(executor: Executor, record_id: str) -> list[str]:
    """The records a fact was derived from (a conversation's message), as lineage shows them to the
    session: none it may not read."""
    return [
        str(link["dst"])
        for link in audit.lineage(executor, record_id)
        if link["relation"] == "derived_from" and str(link["src"]) == str(record_id)
    ]


def _text(when: When) -> str:
    return format_instant(when) if isinstance(when, datetime) else when


def _chain_key(f: Fact) -> tuple[datetime, datetime, int, str]:
    number = int(f.id) if f.id.isdigit() else 0
    return (f.valid_from, f.valid_to or _OPEN, number, f.id)


def _repoint(d: Diagnostic) -> Diagnostic:
    path = _PARAMETERS.get(d.path)
    return d if path is None else d.model_copy(update={"path": path})
