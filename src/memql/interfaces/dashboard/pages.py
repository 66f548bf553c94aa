"""The dashboard's pages (GET): memories (browse and search), one record (fields, history, lineage,
actions), facts, proposals. Each is one or a few Memory calls; what the engine says about the input —
diagnostics and warnings — is shown on the page."""

# no `from __future__ import annotations`: FastAPI reads the routes' annotations, which name the local
# `Caller` type, at runtime
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request

from memql.engine.targets import canonical_id
from memql.interfaces.dashboard.views import (
    NOTICES,
    PAGE_SIZE,
    RECORD_FIELDS,
    STATUSES,
    Browse,
    Refusals,
    lineage,
    render,
    timeline,
)
from memql.memory import Memory

PROPOSAL_STATUSES = ("pending", "rejected", "expired", "any")
FACT_FIELDS = ["id", "subject", "attribute", "value", "valid_from", "valid_to", "status", "created_at"]
FACT_BROWSE_LIMIT = 200


def record_page(memory: Memory, record_id: str, *, status: int = 200, **extra: Any):
    """The record page: the record as a default read returns it (a deleted, pending or expired record is
    not returned — the engine's warning says why — and its history still tells its whole story), its
    history timeline and its lineage."""
    record_id = canonical_id(record_id)
    read = memory.retrieve(ids=[record_id], include=RECORD_FIELDS)
    rows = read.data.get("rows", []) if read.success else []
    history = memory.history(record_id)
    if not rows and not history and status == 200:
        status = 404
    return render(
        "record.html",
        status=status,
        memory=memory,
        record_id=record_id,
        record=rows[0] if rows else None,
        warnings=list(dict.fromkeys([*extra.pop("warnings", []), *read.warnings])),  # once each
        timeline=timeline(history),
        links=lineage(memory, record_id, history),
        **extra,
    )


def proposals_page(memory: Memory, chosen: str, *, status: int = 200, **extra: Any):
    result = memory.proposals.list(chosen)
    return render(
        "proposals.html",
        status=status if result.success else 422,
        memory=memory,
        chosen=chosen,
        statuses=PROPOSAL_STATUSES,
        rows=result.data.get("rows", []) if result.success else [],
        diagnostics=[*extra.pop("diagnostics", []), *result.diagnostics],
        warnings=[*extra.pop("warnings", []), *result.warnings],
        **extra,
    )


def add_routes(router: APIRouter, memory_dependency: Any, refusals: Refusals) -> None:
    Caller = Annotated[Memory, Depends(memory_dependency)]

    @router.get("/")
    def memories(request: Request, memory: Caller):
        browse = Browse.parse(dict(request.query_params))
        if browse.problems:
            result, rows, more = None, [], False
        else:
            result, rows, more = browse.run(memory)
        return render(
            "memories.html",
            status=200 if result is not None and result.success else 422,
            memory=memory,
            form=browse.form,
            statuses=STATUSES,
            rows=rows,
            page=browse.page,
            page_size=PAGE_SIZE,
            previous=browse.link(browse.page - 1) if browse.page > 1 else None,
            next=browse.link(browse.page + 1) if more else None,
            diagnostics=browse.problems if result is None else result.diagnostics,
            warnings=[] if result is None else result.warnings,
        )

    @router.get("/memories/{record_id}")
    def record(record_id: str, memory: Caller, done: str = "", refused: str = ""):
        diagnostics, warnings = refusals.take(memory, refused)  # an action's refusal, redirected here
        return record_page(
            memory, record_id, notice=NOTICES.get(done), diagnostics=diagnostics, warnings=warnings
        )

    @router.get("/facts")
    def facts(
        memory: Caller,
        subject: str = "",
        attribute: str = "",
        as_of: str = "",
    ):
        subject, attribute, as_of = subject.strip(), attribute.strip(), as_of.strip()
        form = {"subject": subject, "attribute": attribute, "as_of": as_of}
        if subject and attribute and not as_of:  # one fact: every value it has held
            found = memory.facts.history(subject, attribute)
            mode, rows = "history", [f.to_json() for f in found.facts]
        elif subject:  # a subject: each attribute's value now (or at as_of)
            found = memory.facts.get(subject, attribute or None, as_of=as_of or None)
            mode, rows = "current", [f.to_json() for f in found.facts]
        else:  # browse: every fact (of an attribute), newest first
            fact = {k: v for k, v in (("attribute", attribute), ("valid_at", as_of)) if v}
            found = memory.retrieve(filter={"fact": fact, "limit": FACT_BROWSE_LIMIT}, include=FACT_FIELDS)
            mode, rows = "browse", found.data.get("rows", []) if found.success else []
        return render(
            "facts.html",
            status=200 if found.success else 422,
            memory=memory,
            form=form,
            mode=mode,
            rows=rows,
            diagnostics=found.diagnostics,
            warnings=found.warnings,
        )

    @router.get("/proposals")
    def proposals(memory: Caller, status: str = "pending", done: str = "", refused: str = ""):
        diagnostics, warnings = refusals.take(memory, refused)  # an action's refusal, redirected here
        return proposals_page(
            memory, status or "pending", notice=NOTICES.get(done), diagnostics=diagnostics, warnings=warnings
        )
