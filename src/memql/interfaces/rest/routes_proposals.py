"""/v1/proposals: what agents proposed; approve, approve with edits, reject (Memory.proposals)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Body, Path, Query
from fastapi.responses import Response

from memql.engine.result import ExecutionResult
from memql.interfaces.rest.auth import CallerMemory
from memql.interfaces.rest.responses import result_response
from memql.interfaces.rest.routes_program import REFUSALS

router = APIRouter(prefix="/v1/proposals", tags=["proposals"])


ProposalId = Annotated[str, Path(min_length=1, max_length=64)]


@router.get("", response_model=ExecutionResult, responses=REFUSALS, summary="Proposals in a status")
def list_proposals(
    memory: CallerMemory,
    status: Literal["pending", "rejected", "expired", "any"] = "pending",
    limit: Annotated[int, Query(ge=1, le=100_000)] = 100,
) -> Response:
    return result_response(memory.proposals.list(status, limit=limit))


@router.post("/{record_id}/approve", response_model=ExecutionResult, responses=REFUSALS, summary="Approve")
def approve(record_id: ProposalId, memory: CallerMemory) -> Response:
    return result_response(memory.proposals.approve(record_id))


@router.post("/{record_id}/reject", response_model=ExecutionResult, responses=REFUSALS, summary="Reject")
def reject(record_id: ProposalId, memory: CallerMemory) -> Response:
    return result_response(memory.proposals.reject(record_id))


@router.post(
    "/{record_id}/edit",
    response_model=ExecutionResult,
    responses=REFUSALS,
    summary="Approve with edits (the edits and the approval in one audited Update)",
)
def edit(
    record_id: ProposalId,
    fields: Annotated[dict[str, Any], Body(description='the Update fields to change, e.g. {"text": ...}')],
    memory: CallerMemory,
) -> Response:
    return result_response(memory.proposals.edit(record_id, **fields))
