"""Remember what was said: the typed facts the session's extractor reads in a speaker's messages, each
stored as an Encode of a typed fact — so the engine's supersession closes the value the same subject and
attribute held before, instead of keeping two memories — and a message in which no fact was read stored
as it was said, so nothing said is lost. Every write of one call runs in one workflow (all or nothing),
validated, governed and audited like any other (docs/formation.md, "Outside a conversation").

`Memory.remember` is the API; mem0's `add(infer=True)` (memql.integrations.mem0) is this in mem0's shape.
Unlike a conversation (memql.cognition.conversation), no message record is kept beside its facts: the
facts are the memory, with the quoted words they came from in their `evidence` facet.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal

from memql.lang import build
from memql.lang.delta import MAX_TEXT, Turn, Utterance
from memql.lang.diagnostics import Diagnostic
from memql.lang.time import TimeParseError, resolve_instant

if TYPE_CHECKING:
    from memql.engine.executor import Executor

RECENT_TURNS = 6  # the turns before a message its extractor sees (corrections and pronouns bind to them)
Event = Literal["ADD", "UPDATE", "NONE"]


@dataclass(frozen=True)
class Remembered:
    """One memory a call wrote or found: `event` ADD (new), UPDATE (a fact that closed the value its key
    held: `superseded` lists those facts, `{id, text}`), NONE (already remembered: nothing written)."""

    id: str
    event: Event
    text: str
    fact: dict[str, Any] | None = None  # subject, attribute, value of a typed fact
    superseded: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class RememberResult:
    success: bool
    memories: list[Remembered] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)  # the refusal, when nothing was written


def fact_text(subject: str, attribute: str, value: Any) -> str:
    """A typed fact as a sentence a reader (or an LLM) takes as it is: "mira's residence: Lisbon"."""
    label = attribute.replace("_", " ").replace(".", " ")
    return f"{subject}'s {label}: {value}"


def remember(
    executor: Executor,
    turns: Sequence[tuple[str, str]],
    *,
    speaker: str,
    time: datetime | str | None = None,
    facets: Mapping[str, Any] | None = None,
    keep_unformed: bool = True,
    **fields: Any,
) -> RememberResult:
    """Read each of `speaker`'s messages in `turns` ((speaker, text), oldest first; the others are context
    its extractor reads corrections and pronouns against) and store what it says: one Encode per typed
    fact, and — with `keep_unformed` — the message itself when no fact was read in it. `facets` and
    `fields` (record fields: permissions, tags, sensitivity …) go on every record written."""
    for i, (_, text) in enumerate(turns):
        if len(text) > MAX_TEXT:  # what an extractor reads at once
            message = f"a message of {len(text)} characters; an extractor reads at most {MAX_TEXT}"
            return RememberResult(
                False,
                diagnostics=[
                    Diagnostic(path=f"/said/{i}", rule="field.size", severity="error", message=message)
                ],
            )
    now = executor.clock.now()
    try:  # when it was said: a datetime, an ISO-8601 string or a phrase read against the clock ("yesterday")
        at = now if time is None else resolve_instant(time, now)
    except (TimeParseError, TypeError) as exc:
        rule = "time.invalid" if isinstance(exc, TimeParseError) else "field.type"
        return RememberResult(
            False, diagnostics=[Diagnostic(path="/time", rule=rule, severity="error", message=str(exc))]
        )
    steps: list[dict[str, Any]] = []
    kinds: list[tuple[str, dict[str, Any] | None]] = []  # per step: its text, its fact
    recent: list[Turn] = []
    for who, text in turns:
        if who == speaker and text.strip():
            delta = executor.extractor.extract(Utterance(speaker=who, text=text, time=at, recent=recent))
            seen: set[tuple[str, str]] = set()
            for fact in delta.facts:
                if (fact.subject, fact.attribute) in seen:  # one value per key and message: the first
                    continue
                seen.add((fact.subject, fact.attribute))
                steps.append(
                    build.encode(
                        structured=fact.structured(),
                        type="fact",
                        facets={**(facets or {}), "evidence": fact.evidence.quote},
                        memory_type="semantic",
                        category=fact.category,
                        confidence=fact.confidence,
                        **fields,
                    )
                )
                kinds.append((fact_text(fact.subject, fact.attribute, fact.value), _fact(fact.structured())))
            if not delta.facts and keep_unformed:
                steps.append(build.encode(text, facets=dict(facets or {}) or None, **fields))
                kinds.append((text, None))
        recent = [*recent, Turn(speaker=who, text=text, time=at)][-RECENT_TURNS:]
    if not steps:
        return RememberResult(True)
    result = executor.execute(steps[0] if len(steps) == 1 else {"workflow": steps})
    if not result.success:
        return RememberResult(False, diagnostics=list(result.diagnostics))
    outcomes = result.steps if result.steps is not None else [result]
    closed = [i for o in outcomes for i in o.data.get("closed", [])]
    before = _texts(executor, closed)
    memories = []
    for (text, fact), outcome in zip(kinds, outcomes, strict=True):
        data = outcome.data
        if data.get("deduplicated"):
            event: Event = "NONE"
        elif data.get("closed") or data.get("extended"):
            event = "UPDATE"
        else:
            event = "ADD"
        superseded = [{"id": i, "text": before.get(i)} for i in data.get("closed", [])]
        memories.append(Remembered(str(data["id"]), event, text, fact, superseded))
    return RememberResult(True, memories)


def _fact(structured: dict[str, Any]) -> dict[str, Any]:
    return {k: structured[k] for k in ("subject", "attribute", "value")}


def _texts(executor: Executor, ids: list[str]) -> dict[str, str]:
    """The facts a call closed, as sentences (read as the session may: a dry run, no visit)."""
    if not ids:
        return {}
    result = executor.execute(
        build.retrieve(ids=ids, include=["id", "subject", "attribute", "value"], meta={"dry_run": True})
    )
    rows = result.data.get("rows", []) if result.success else []
    return {str(r["id"]): fact_text(r["subject"], r["attribute"], r["value"]) for r in rows}
