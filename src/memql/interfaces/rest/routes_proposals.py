"""/v1/proposals: what agents proposed; approve, approve with edits, reject (Memory.proposals)."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, Body, Depends, Path, Query
from fastapi.responses import JSONResponse

from memql.engine.result import ExecutionResult
from memql.interfaces.rest.auth import caller_memory
from memql.interfaces.rest.routes_program import REFUSALS
from memql.interfaces.rest.responses import result_response
from memql.memory import Memory

router = APIRouter(prefix="/v1/proposals", tags=["proposals"])
ProposalId = Path(min_length=1, max_length=64)


@router.get("", response_model=ExecutionResult, responses=REFUSALS, summary="Proposals in a status")
def list_proposals(
    status: Literal["pending", "rejected", "expired", "any"] = "pending",
    limit: int = Query(100, ge=1, le=100_000),
    memory: Memory = Depends(caller_memory),
) -> JSONResponse:
    return result_response(memory.proposals.list(status, limit=limit))


@router.post("/{record_id}/approve", response_model=ExecutionResult, responses=REFUSALS, summary="Approve")
def approve(record_id: str = ProposalId, memory: Memory = Depends(caller_memory)) -> JSONResponse:
    return result_response(memory.proposals.approve(record_id))


@router.post("/{record_id}/reject", response_model=ExecutionResult, responses=REFUSALS, summary="Reject")
def reject(record_id: str = ProposalId, memory: Memory = Depends(caller_memory)) -> JSONResponse:
    return result_response(memory.proposals.reject(record_id))


@router.post(
    "/{record_id}/edit",
    response_model=ExecutionResult,
    responses=REFUSALS,
    summary="Approve with edits (the edits and the approval in one audited Update)",
)
def edit(
    record_id: str = ProposalId,
    fields: dict[str, Any] = Body(
        ..., description="Update fields, e.g. {\"text\": ..., \"category\": ...}", examples=[{"text": "x"}]
    ),
    memory: Memory = Depends(caller_memory),
) -> JSONResponse:
    return result_response(memory.proposals.edit(record_id, **fields))
