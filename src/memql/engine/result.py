"""ExecutionResult: what every op and workflow returns (DESIGN §5)."""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel, Field

from memql.lang.diagnostics import Diagnostic
from memql.lang.encoding import compact_json, json_default

_text = compact_json(allow_nan=False)  # what to_json_text writes: compact, UTF-8, JSON's numbers only


class Change(BaseModel):
    """One record's change: the fields that changed, before and after (the dry-run preview)."""

    record_id: str
    kind: str  # insert | update | delete | link
    before: dict[str, Any] = Field(default_factory=dict)
    after: dict[str, Any] = Field(default_factory=dict)


class Stats(BaseModel):
    elapsed_ms: float = 0.0
    llm_calls: int = 0
    llm_tokens: int = 0


class ExecutionResult(BaseModel):
    success: bool
    op: str  # a verb, or "Workflow"
    affected_ids: list[str] = Field(default_factory=list)
    data: dict[str, Any] = Field(default_factory=dict)
    warnings: list[Diagnostic] = Field(default_factory=list)
    diagnostics: list[Diagnostic] = Field(default_factory=list)  # the errors that refused it
    dry_run: bool = False
    preview: list[Change] | None = None  # with dry_run: every change that would have been made
    steps: list[ExecutionResult] | None = None  # workflows: one result per step run
    failed_step: int | None = None
    stats: Stats = Field(default_factory=Stats)

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form (instants as ISO-8601 UTC)."""
        return json.loads(
            json.dumps(self.model_dump(exclude_none=True), default=json_default, ensure_ascii=False)
        )

    def to_json_text(self) -> str:
        """`to_json()` written as compact JSON text, in one pass (to_json's dict, sent as JSON, would be
        encoded twice and decoded once): the body a server sends. Raises ValueError on a non-finite number."""
        return _text(self.model_dump(exclude_none=True))

    @property
    def id(self) -> str | None:
        """The inserted or primary id, when the op produced one (Encode, Merge, Summarize)."""
        value = self.data.get("id")
        return value if isinstance(value, str) else None
