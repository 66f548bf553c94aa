"""/v1/memories/{id}, /v1/memories/{id}/history, /v1/facts/...: one record, its audit trail, typed facts."""

from __future__ import annotations

import json
from typing import Annotated, Any, get_args

from fastapi import APIRouter, Path, Query

from memql.errors import Refusal
from memql.interfaces.rest.auth import CallerMemory
from memql.interfaces.rest.encoding import JSONResponse
from memql.interfaces.rest.errors import ErrorBody, diagnostic, refusal, status_for
from memql.interfaces.rest.models import FactsResponse, HistoryResponse, MemoryResponse
from memql.interfaces.rest.routes_program import REFUSALS
from memql.lang import build
from memql.lang.encoding import json_default
from memql.lang.ops.read import IncludeField

router = APIRouter(prefix="/v1", tags=["records"])

# every field a Retrieve can return about a record, but its search score and explanation
RECORD_FIELDS = [f for f in get_args(IncludeField) if f not in ("score", "explain")]


RecordId = Annotated[str, Path(min_length=1, max_length=64, description="a record id of the caller's tenant")]
Name = Annotated[str, Path(min_length=1, max_length=1000)]
NOT_FOUND = {401: REFUSALS[401], 404: {"model": ErrorBody, "description": "no such record in the tenant"}}


def _json(value: Any) -> Any:
    """Plain JSON (instants as canonical UTC text), as the other results' to_json() give it."""
    return json.loads(json.dumps(value, default=json_default, ensure_ascii=False))


@router.get("/memories/{record_id}", response_model=MemoryResponse, responses=NOT_FOUND, summary="One memory")
def get_memory(record_id: RecordId, memory: CallerMemory) -> JSONResponse:
    """The record with every field the caller may read (a Retrieve by id). Deleted, archived and expired
    records, unknown ids and other tenants' ids are 404, with the engine's diagnostic."""
    result = memory.execute(build.retrieve(ids=[record_id], include=RECORD_FIELDS))
    if not result.success:
        raise refusal(result.diagnostics)
    rows = result.data.get("rows") or []
    if not rows:
        missing = [d.model_copy(update={"severity": "error"}) for d in result.warnings] or [
            diagnostic("target.not_found", f"no record {record_id} in this tenant", "/record_id")
        ]
        raise refusal(missing)  # target.not_found or target.hidden: 404
    return JSONResponse(_json({"memory": rows[0], "warnings": [w.model_dump() for w in result.warnings]}))


@router.get(
    "/memories/{record_id}/history",
    response_model=HistoryResponse,
    responses=NOT_FOUND,
    summary="Every change to a memory, oldest first",
)
def history(record_id: RecordId, memory: CallerMemory) -> JSONResponse:
    events = memory.history(record_id)
    if not events:  # never existed here, or the caller may not read it: the same answer
        raise Refusal("target.not_found", f"no record {record_id} in this tenant", "/record_id")
    return JSONResponse(_json({"id": record_id, "events": events}))


def _facts(result) -> JSONResponse:
    status = 200 if result.success else status_for(result.diagnostics)
    return JSONResponse(result.to_json(), status_code=status)


@router.get(
    "/facts/{subject}",
    response_model=FactsResponse,
    responses={401: REFUSALS[401], 422: {"model": FactsResponse, "description": "invalid time"}},
    summary="A subject's facts at a world time, as known at a record time",
)
def facts_get(
    subject: Name,
    memory: CallerMemory,
    attribute: Annotated[str | None, Query(min_length=1, max_length=1000)] = None,
    as_of: Annotated[str | None, Query(max_length=200, description="world time (default: now)")] = None,
    recorded_at: Annotated[
        str | None, Query(max_length=200, description="record time (default: now)")
    ] = None,
) -> JSONResponse:
    return _facts(memory.facts.get(subject, attribute, as_of=as_of, recorded_at=recorded_at))


@router.get(
    "/facts/{subject}/{attribute}/history",
    response_model=FactsResponse,
    responses={401: REFUSALS[401], 422: {"model": FactsResponse, "description": "invalid time"}},
    summary="Every value a fact has held, in world-time order",
)
def facts_history(
    subject: Name,
    attribute: Name,
    memory: CallerMemory,
    recorded_at: Annotated[str | None, Query(max_length=200)] = None,
) -> JSONResponse:
    return _facts(memory.facts.history(subject, attribute, recorded_at=recorded_at))
