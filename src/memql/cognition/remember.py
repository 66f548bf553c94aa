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

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal

from memql.engine.executor import bulk_limits
from memql.lang import build
from memql.lang.delta import MAX_TEXT, Turn, Utterance
from memql.lang.diagnostics import Diagnostic
from memql.lang.hygiene import lone_surrogate
from memql.lang.time import TimeParseError, resolve_instant

if TYPE_CHECKING:
    from memql.engine.executor import Executor

RECENT_TURNS = 6  # the turns before a message its extractor sees (corrections and pronouns bind to them)
Event = Literal["ADD", "UPDATE", "NONE"]
# what remember writes itself on each record (the fact's content, type and class): not a caller's field
OWN_FIELDS = ("text", "url", "structured", "payload", "type", "memory_type", "category", "confidence")


@dataclass(frozen=True)
class Remembered:
    """One memory a call wrote or found: `event` ADD (new), UPDATE (a fact that closed the value its key
    held: `superseded` lists those facts, `{id, text}`), NONE (already remembered: nothing written).
    `proposal`: written as a proposal, pending a user's approval (an agent below read_write consent)."""

    id: str
    event: Event
    text: str
    fact: dict[str, Any] | None = None  # subject, attribute, value of a typed fact
    superseded: list[dict[str, Any]] = field(default_factory=list)
    proposal: bool = False


@dataclass
class RememberResult:
    success: bool
    memories: list[Remembered] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)  # the refusal, when nothing was written

    def to_json(self) -> dict[str, Any]:
        """As JSON, as the other results: what REST (/v1/remember) and MCP (memory_remember) answer."""
        return {
            "success": self.success,
            "memories": [
                {
                    "id": m.id,
                    "event": m.event,
                    "text": m.text,
                    "fact": m.fact,
                    "superseded": m.superseded,
                    "proposal": m.proposal,
                }
                for m in self.memories
            ],
            "diagnostics": [d.model_dump() for d in self.diagnostics],
        }


def fact_text(subject: str, attribute: str, value: Any) -> str:
    """A typed fact as a sentence a reader (or an LLM) takes as it is: "mira's residence: Lisbon"."""
    label = attribute.replace("_", " ").replace(".", " ")
    return f"{subject}'s {label}: {value}"


def remember(
    executor: Executor,
    said: str | Sequence[tuple[str, str]],
    *,
    speaker: str | None = None,
    time: datetime | str | None = None,
    facets: Mapping[str, Any] | None = None,
    keep_unformed: bool = True,
    **fields: Any,
) -> RememberResult:
    """Read each of `speaker`'s messages in `said` (a message of `speaker`'s, or turns (speaker, text),
    oldest first: the others are context its extractor reads corrections and pronouns against) and store
    what it says: one Encode per typed fact, and — with `keep_unformed` — the message itself when no fact
    was read in it. `speaker` defaults to the session's actor, else "user". `facets` and `fields` (record
    fields: permissions, tags, sensitivity …) go on every record written. Input that is not of these
    shapes is a diagnostic naming where, with nothing written."""
    if speaker is None:
        speaker = executor.identity.actor or "user"
    own = [name for name in OWN_FIELDS if fields.get(name) is not None]
    if own:  # a caller's value would contradict the fact's own (and be a second keyword to build.encode)
        message = f"remember sets {own[0]} itself: each fact's is what the extractor read"
        return RememberResult(
            False,
            diagnostics=[
                Diagnostic(path=f"/{own[0]}", rule="field.invalid", severity="error", message=message)
            ],
        )
    turns, problems = _turns(said, speaker, facets)
    if problems:
        return RememberResult(False, diagnostics=problems)
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
    # one step per fact: a message may state 200 (what a delta holds), turns many more — memql's own
    # workflow, bounded per step as a bulk write is, not by the 100 steps of a hand-written one
    program = steps[0] if len(steps) == 1 else {"workflow": steps}
    result = executor.execute(program, limits=bulk_limits(len(steps)))
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
        proposal = bool(data.get("proposal"))
        memories.append(Remembered(str(data["id"]), event, text, fact, superseded, proposal))
    return RememberResult(True, memories)


def _turns(said: Any, speaker: Any, facets: Any) -> tuple[list[tuple[str, str]], list[Diagnostic]]:
    """`said` as turns (speaker, text), or what is wrong with the input: the shapes, each text's length
    (what an extractor reads at once) and Unicode, each speaker a name."""

    def problem(path: str, rule: str, message: str) -> tuple[list[tuple[str, str]], list[Diagnostic]]:
        return [], [Diagnostic(path=path, rule=rule, severity="error", message=message)]

    if facets is not None and not isinstance(facets, Mapping):
        return problem("/facets", "field.type", f"facets are an object of names, not {type(facets).__name__}")
    if isinstance(said, str):
        if not isinstance(speaker, str):
            return problem("/speaker", "field.type", f"a speaker is a name, not {type(speaker).__name__}")
        turns, speakers = [(speaker, said)], ["/speaker"]
    elif isinstance(said, Iterable) and not isinstance(said, bytes | bytearray | Mapping):
        turns = list(said)  # (a list, or any iterable of turns: a generator too)
        speakers = [f"/said/{i}/0" for i in range(len(turns))]
    else:
        return problem(
            "/said", "field.type", f"said is a message or (speaker, text) turns, not {type(said).__name__}"
        )
    for i, turn in enumerate(turns):
        if not (isinstance(turn, Sequence) and len(turn) == 2 and all(isinstance(x, str) for x in turn)):
            return problem(f"/said/{i}", "field.type", "a turn is a pair (speaker, text) of strings")
        who, text = turn
        if len(text) > MAX_TEXT:
            message = f"a message of {len(text)} characters; an extractor reads at most {MAX_TEXT}"
            return problem(f"/said/{i}", "field.size", message)
        if not who.strip() or len(who) > 512:
            return problem(speakers[i], "field.invalid", "a speaker is a name of 1 to 512 characters")
        for path, value in ((f"/said/{i}", text), (speakers[i], who)):
            if lone_surrogate(value):
                return problem(path, "json.encoding", "the text holds a lone surrogate, not valid Unicode")
    return turns, []


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
