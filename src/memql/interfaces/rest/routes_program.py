"""/v1/execute, /v1/validate, /v1/plan, /v1/retrieve: the language, planning and reading."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query
from fastapi.responses import Response

from memql.engine.result import ExecutionResult
from memql.interfaces.rest.auth import CallerKey, CallerMemory
from memql.interfaces.rest.encoding import JSONResponse
from memql.interfaces.rest.errors import documented_refusals, status_for
from memql.interfaces.rest.models import PlanRequest, PlanResponse, ValidationResponse
from memql.interfaces.rest.responses import RawBody, result_response
from memql.interfaces.rest.retrieve_body import RETRIEVE_BODY, retrieve_result

router = APIRouter(prefix="/v1", tags=["language"])

PROGRAM_BODY = {
    "requestBody": {
        "required": True,
        "description": 'one IR or a workflow (a JSON list of IRs, or {"workflow": [...]})',
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Program"}}},
    }
}
REFUSALS = documented_refusals(
    {
        403: (ExecutionResult, "refused by consent or permissions"),
        404: (ExecutionResult, "the ids named are not in the caller's tenant"),
        409: (ExecutionResult, "the record's state refuses it (locked, decided)"),
        422: (ExecutionResult, "invalid input"),
    }
)


@router.post(
    "/execute",
    response_model=ExecutionResult,
    responses=REFUSALS,
    openapi_extra=PROGRAM_BODY,
    summary="Run an IR or a workflow in one transaction",
)
def execute(
    caller: CallerKey,
    body: RawBody,
    dry_run: Annotated[bool, Query(description="show every change; commit nothing")] = False,
) -> Response:
    return result_response(caller.memory().execute(body, dry_run=dry_run))


@router.post(
    "/validate",
    response_model=ValidationResponse,
    responses={401: REFUSALS[401], 413: REFUSALS[413]},
    openapi_extra=PROGRAM_BODY,
    summary="Validate an IR or a workflow (200 with valid true or false)",
)
def validate(memory: CallerMemory, body: RawBody) -> JSONResponse:
    return JSONResponse(memory.validate(body).to_json())


@router.post(
    "/plan",
    response_model=PlanResponse,
    responses={**REFUSALS, 422: {"model": PlanResponse, "description": "no safe plan"}},
    summary="Plan a natural-language instruction as an IR or workflow; optionally run it",
)
def plan(request: PlanRequest, memory: CallerMemory) -> JSONResponse:
    outcome = memory.plan(
        request.text,
        lang=request.lang,
        planner=request.planner,
        execute=request.execute,
        confirm=request.confirm,
    )
    status = 200
    if not outcome.plan.ok:
        status = status_for(outcome.diagnostics)
    elif outcome.result is not None and not outcome.result.success:
        status = status_for(outcome.result.diagnostics)
    return JSONResponse(outcome.to_json(), status_code=status)


@router.post(
    "/retrieve",
    response_model=ExecutionResult,
    responses=REFUSALS,
    openapi_extra=RETRIEVE_BODY,
    summary="Retrieve by a search query, ids or a filter, or run a program of Retrieve IRs",
)
def retrieve(caller: CallerKey, body: RawBody) -> Response:
    return result_response(retrieve_result(caller.memory(), body))
