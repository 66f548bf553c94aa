"""Proposals (a2p): an agent proposes a memory; a user approves it, approves it with edits, rejects it, or
lets it expire. Written in the language — proposing is an Encode with `proposal`, listing a Retrieve of
pending records, deciding an Update of `status` — so every transition is validated, governed (only users
and admins decide) and audited like any other op: `memql history ID` shows who did what.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from memql.engine.result import ExecutionResult
from memql.lang import build

if TYPE_CHECKING:
    from memql.engine.executor import Executor

# what a reviewer needs to decide on a proposal
FIELDS = [
    "id",
    "text",
    "structured",
    "type",
    "tags",
    "agent",
    "status",
    "memory_type",
    "category",
    "sensitivity",
    "confidence",
    "created_at",
    "expire_at",
]
STATUSES = ("pending", "rejected", "expired", "any")


class Proposals:
    """`m.proposals`: the proposal workflow of one session."""

    def __init__(self, executor: Executor) -> None:
        self._executor = executor

    def propose(self, text: str | None = None, **args: Any) -> ExecutionResult:
        """Encode `text` as a pending proposal (an agent below read_write consent always proposes).
        `expire_at` gives it a deadline: undecided by then, it expires."""
        return self._executor.execute(build.encode(text, proposal=True, **args))

    def list(self, status: str = "pending", *, limit: int = 100) -> ExecutionResult:
        """Proposals in a status (pending by default; rejected; expired — records that expired, proposals
        among them carry their proposing `agent`), newest first. An agent sees only its own."""
        return self._executor.execute(
            build.retrieve(filter={"status": status, "limit": limit}, include=FIELDS)
        )

    def approve(self, ids: str | list[str]) -> ExecutionResult:
        """Accept pending proposals as they are: active, owned by the approver."""
        return self._decide(ids, {"status": "active"})

    def edit(self, ids: str | list[str], **fields: Any) -> ExecutionResult:
        """Approve with edits: the edited fields and the approval in one Update (one audited change)."""
        return self._decide(ids, {**fields, "status": "active"})

    def reject(self, ids: str | list[str]) -> ExecutionResult:
        return self._decide(ids, {"status": "rejected"})

    def _decide(self, ids: str | list[str], changes: dict[str, Any]) -> ExecutionResult:
        return self._executor.execute(build.update(build.by_ids(ids), **changes))
