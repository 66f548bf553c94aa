"""The typed request and response bodies of the REST API (what /openapi.json publishes). Results are the
Python API's own JSON (`to_json()` of ExecutionResult, PlanOutcome, FactsResult, ...), described here."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from memql.engine.result import ExecutionResult
from memql.lang.delta import MAX_TEXT
from memql.lang.diagnostics import Diagnostic
from memql.lang.fields import ReadPerm, Sensitivity, WritePerm

_TEXT = 100_000  # the language's own string limit is in its validator; this only bounds the form fields


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class PlanRequest(Strict):
    text: str = Field(min_length=1, max_length=_TEXT, description="the instruction, English or Chinese")
    lang: Literal["auto", "en", "zh"] = "auto"
    planner: Literal["rules", "llm"] = "rules"
    execute: bool = Field(False, description="run the plan (a destructive one needs confirm)")
    confirm: bool = Field(False, description="confirm a destructive plan (any delete, all, lock change)")


class RetrieveRequest(Strict):
    """Retrieve in a form: a search `query`, or `ids`, or a `filter` (the IR's target.filter)."""

    query: str | None = Field(None, max_length=_TEXT)
    ids: list[str] | None = Field(None, max_length=10_000)
    filter: dict[str, Any] | None = None
    k: int | None = Field(None, ge=1, le=10_000)
    include: list[str] | None = Field(None, max_length=100)
    as_of: str | None = Field(None, max_length=200)
    order_by: str | None = Field(None, max_length=100)
    overrides: dict[str, Any] | None = None
    facts: Literal["current", "history"] | None = Field(
        None,
        description="also return the typed facts the query names (data.facts), true at as_of or now, "
        "and mark each row whose facts were superseded (superseded_by, superseded_at)",
    )


class ContextRequest(Strict):
    """A conversation's cited context for a query (the Python API's `Conversation.context`)."""

    query: str = Field(min_length=1, max_length=10_000, description="what the agent needs to know")
    user: str | None = Field(
        None, min_length=1, max_length=256, description="who the agent talks to (default: the caller)"
    )
    agent: str | None = Field(
        None, min_length=1, max_length=256, description="the agent (default: the caller, when an agent)"
    )
    conversation: str | None = Field(
        None, min_length=1, max_length=512, description="conversation id (default user/agent)"
    )
    budget_tokens: int = Field(2000, ge=1, le=100_000, description="most tokens the context may have")
    strategy: Literal["flat", "tiers", "ladder", "hybrid"] | None = Field(
        None, description="how the context is assembled (default: the conversation's own)"
    )
    as_of: str | None = Field(
        None,
        min_length=1,
        max_length=200,
        description="world time: the facts true then lead, and only what was said by then (default now)",
    )


class ContextPiece(BaseModel):
    text: str
    memory_ids: list[str]
    source_ids: list[str]
    level: str = Field(description='"fact" and "fact_history" for the leading typed facts')
    score: float
    time: str | None = None
    tokens: int


class ContextResponse(BaseModel):
    success: bool
    query: str
    strategy: str
    budget_tokens: int
    tokens: int
    llm_calls: int
    memory_ids: list[str]
    source_ids: list[str]
    text: str
    pieces: list[ContextPiece]


_WHEN = "when it was said: ISO-8601 or a time phrase ('yesterday 9am'; default now)"


class SaidTurn(Strict):
    speaker: str = Field(min_length=1, max_length=512, description="who said it")
    text: str = Field(max_length=MAX_TEXT)


class RememberRequest(Strict):
    """What people said, for memql to form typed facts from (the Python API's `Memory.remember`)."""

    said: Annotated[str, Field(max_length=MAX_TEXT)] | Annotated[list[SaidTurn], Field(max_length=1000)] = (
        Field(description="a message of the speaker's, or an exchange's turns {speaker, text}, oldest first")
    )
    speaker: str | None = Field(
        None, min_length=1, max_length=512, description="whose messages (default: the caller)"
    )
    time: str | None = Field(None, min_length=1, max_length=200, description=_WHEN)
    tags: list[str] | None = Field(None, max_length=100, description="tags of every record written")
    facets: dict[str, Any] | None = Field(None, description="facets of every record written")
    sensitivity: Sensitivity | None = Field(None, description="of every record written")
    read_perm_level: ReadPerm | None = Field(None, description="who may read every record written")
    write_perm_level: WritePerm | None = Field(None, description="who may change (or supersede) them")
    keep_unformed: bool = Field(True, description="store a message in which no fact was read as it was said")


class Remembered(BaseModel):
    id: str
    event: Literal["ADD", "UPDATE", "NONE"] = Field(description="UPDATE: it closed the value its key held")
    text: str
    fact: dict[str, Any] | None = Field(None, description="subject, attribute, value of a typed fact")
    superseded: list[dict[str, Any]] = Field(description="the facts it closed: {id, text}")
    proposal: bool = Field(description="a proposal, pending a user's approval (an agent below read_write)")


class RememberResponse(BaseModel):
    success: bool
    memories: list[Remembered]
    diagnostics: list[Diagnostic]


class MessageIn(Strict):
    role: str = Field(min_length=1, max_length=512, description='"user", "assistant" or a speaker\'s name')
    text: str = Field(min_length=1, max_length=MAX_TEXT)
    time: str | None = Field(None, min_length=1, max_length=200, description=_WHEN + " (default: the call's)")
    source_id: str | None = Field(
        None, min_length=1, max_length=512, description="its turn id (default M<n>)"
    )


class MessagesRequest(Strict):
    """Messages for a conversation, stored together or not at all (`Conversation.add_messages`)."""

    messages: list[MessageIn] = Field(min_length=1, max_length=1000, description="oldest first")
    user: str | None = ContextRequest.model_fields["user"]
    agent: str | None = ContextRequest.model_fields["agent"]
    conversation: str | None = ContextRequest.model_fields["conversation"]
    time: str | None = Field(None, min_length=1, max_length=200, description=_WHEN)


class StoredMessage(BaseModel):
    memory_id: str
    role: str
    text: str
    time: str
    source_ids: list[str]
    position: int
    fact_ids: list[str] = Field(description="the typed facts formed from it")
    unformed: list[Diagnostic] = Field(description="why a fact it states was not formed (another's, locked)")


class MessagesResponse(BaseModel):
    success: bool
    conversation: str
    messages: list[StoredMessage]


class ValidationResponse(BaseModel):
    valid: bool
    kind: Literal["ir", "workflow"] | None = None
    diagnostics: list[Diagnostic]
    canonical: dict[str, Any] | None = None


class PlanResponse(BaseModel):
    program: dict[str, Any] | None = None
    confidence: float
    diagnostics: list[Diagnostic]
    destructive: bool
    lang: str
    planner: str
    stats: dict[str, Any] | None = None
    executed: bool | None = None
    needs_confirmation: bool | None = None
    result: ExecutionResult | None = None


class FactOut(BaseModel):
    id: str
    subject: str
    attribute: str
    value: Any = None
    valid_from: str
    valid_to: str | None = None
    source: str | None = None
    recorded_at: str
    evidence: list[dict[str, Any]] = Field(default_factory=list)


class FactsResponse(BaseModel):
    success: bool
    facts: list[FactOut]
    warnings: list[Diagnostic] = Field(default_factory=list)
    diagnostics: list[Diagnostic] = Field(default_factory=list)


class HistoryEntry(BaseModel):
    seq: int | None = None
    time: str
    actor: str | None = None
    op: str
    change: str
    before: dict[str, Any]
    after: dict[str, Any]
    proposal: str | None = None
    workflow_id: str | None = None
    trace_id: str | None = None
    note: str | None = None


class HistoryResponse(BaseModel):
    id: str
    events: list[HistoryEntry]


class MemoryResponse(BaseModel):
    memory: dict[str, Any]
    warnings: list[Diagnostic] = Field(default_factory=list)


class ExportResponse(BaseModel):
    success: bool
    count: int
    profile: dict[str, Any] | None = None
    diagnostics: list[Diagnostic]
    warnings: list[Diagnostic]


class ImportResponse(BaseModel):
    success: bool
    dry_run: bool
    imported: list[dict[str, Any]]
    diagnostics: list[Diagnostic]
    warnings: list[Diagnostic]


class Health(BaseModel):
    status: Literal["ok"]
    version: str
