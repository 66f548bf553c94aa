"""The dashboard's actions (POST forms): lock, unlock, expire, delete and restore a record; approve, edit
then approve, and reject a proposal. Each is one Memory call — the same IR path as the API — and ends
with a redirect to the page it came from (redirect-after-post). A refusal changes nothing and redirects
there too, where the page shows the engine's diagnostics (field, rule, message), kept for it in
`Refusals`."""

# no `from __future__ import annotations`: FastAPI reads the routes' annotations, which name the local
# `Caller` type, at runtime
from typing import Annotated, Any
from urllib.parse import urlencode

from fastapi import APIRouter, Depends, Form
from fastapi.responses import RedirectResponse

from memql.engine.result import ExecutionResult
from memql.engine.targets import canonical_id
from memql.interfaces.dashboard.pages import proposals_page, record_page
from memql.interfaces.dashboard.views import Refusals, problem
from memql.memory import Memory

Text = Annotated[str, Form()]


def add_routes(router: APIRouter, memory_dependency: Any, refusals: Refusals) -> None:
    Caller = Annotated[Memory, Depends(memory_dependency)]

    def refused_to(page: str, query: dict[str, str], memory: Memory, diagnostics: list, warnings: list):
        token = refusals.keep(memory, diagnostics, warnings)
        return RedirectResponse(f"{page}?{urlencode({**query, 'refused': token})}", status_code=303)

    def _record_outcome(memory: Memory, record_id: str, action: str, result: ExecutionResult):
        page = f"/memories/{canonical_id(record_id)}"
        if result.success and result.affected_ids:
            return RedirectResponse(f"{page}?done={action}", status_code=303)
        if result.success:  # it touched nothing (an id not in this tenant): say so, announce no success
            return record_page(memory, record_id, warnings=result.warnings)
        return refused_to(page, {}, memory, result.diagnostics, result.warnings)

    def _proposal_outcome(memory: Memory, action: str, result: ExecutionResult, status: str):
        if result.success and result.affected_ids:
            return RedirectResponse(f"/proposals?done={action}", status_code=303)
        if result.success:
            return proposals_page(memory, status, status=404, warnings=result.warnings)
        return refused_to("/proposals", {"status": status}, memory, result.diagnostics, result.warnings)

    @router.post("/memories/{record_id}/lock")
    def lock(record_id: str, memory: Caller, mode: Text = "read_only", reason: Text = ""):
        result = memory.lock(record_id, mode=mode, reason=reason.strip() or None)
        return _record_outcome(memory, record_id, "lock", result)

    @router.post("/memories/{record_id}/unlock")
    def unlock(record_id: str, memory: Caller):
        return _record_outcome(memory, record_id, "unlock", memory.unlock(record_id))

    @router.post("/memories/{record_id}/expire")
    def expire(record_id: str, memory: Caller, when: Text = "", on_expire: Text = "soft_delete"):
        """`when`: an ISO-8601 duration from now (P7D, PT2H) or a time (2026-04-01T09:00Z, "tomorrow")."""
        when = when.strip()
        if not when:  # the form's own field: the language would only say the Expire has no horizon
            problems = [problem("/when", "field.required", "give a time or a duration (e.g. P7D)")]
            return refused_to(f"/memories/{canonical_id(record_id)}", {}, memory, problems, [])
        duration = when[:1] in ("P", "p")
        result = memory.expire(
            record_id,
            ttl=when.upper() if duration else None,
            until=None if duration else when,
            on_expire=on_expire,
        )
        return _record_outcome(memory, record_id, "expire", result)

    @router.post("/memories/{record_id}/delete")
    def delete(record_id: str, memory: Caller, reason: Text = ""):
        result = memory.delete(record_id, reason=reason.strip() or None)  # soft: restorable
        return _record_outcome(memory, record_id, "delete", result)

    @router.post("/memories/{record_id}/restore")
    def restore(record_id: str, memory: Caller):
        return _record_outcome(memory, record_id, "restore", memory.restore(record_id))

    @router.post("/proposals/{record_id}/approve")
    def approve(record_id: str, memory: Caller, status: Text = "pending"):
        return _proposal_outcome(memory, "approve", memory.proposals.approve(record_id), status)

    @router.post("/proposals/{record_id}/reject")
    def reject(record_id: str, memory: Caller, status: Text = "pending"):
        return _proposal_outcome(memory, "reject", memory.proposals.reject(record_id), status)

    @router.post("/proposals/{record_id}/edit")
    def edit(
        record_id: str,
        memory: Caller,
        text: Text = "",
        tags: Text = "",
        category: Text = "",
        status: Text = "pending",
    ):
        """Approve with edits: the fields the form filled in, and the approval, in one Update."""
        changes: dict[str, Any] = {}
        if text.strip():
            changes["text"] = text.strip()
        if tags.strip():
            changes["tags"] = [t.strip() for t in tags.split(",") if t.strip()]
        if category.strip():
            changes["category"] = category.strip()
        result = memory.proposals.edit(record_id, **changes)
        return _proposal_outcome(memory, "edit", result, status)
