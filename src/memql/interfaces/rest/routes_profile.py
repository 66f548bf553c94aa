"""/v1/export and /v1/import: the tenant's memories as an a2p profile document, and back."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from memql.interfaces.rest.auth import CallerMemory
from memql.interfaces.rest.encoding import JSONResponse
from memql.interfaces.rest.errors import status_for
from memql.interfaces.rest.models import ExportResponse, ImportResponse
from memql.interfaces.rest.responses import RawBody
from memql.interfaces.rest.routes_program import REFUSALS

router = APIRouter(prefix="/v1", tags=["profile"])
_REFUSALS = {**REFUSALS, 422: {"model": ImportResponse, "description": "invalid profile"}}


@router.get("/export", response_model=ExportResponse, responses=_REFUSALS, summary="Export an a2p profile")
def export(
    memory: CallerMemory,
    user: Annotated[
        str | None, Query(min_length=1, max_length=1000, description="only this user's memories")
    ] = None,
    did: Annotated[str | None, Query(min_length=1, max_length=1000, description="the profile's DID")] = None,
) -> JSONResponse:
    result = memory.export_a2p(user=user, did=did)
    return JSONResponse(
        result.to_json(), status_code=200 if result.success else status_for(result.diagnostics)
    )


@router.post(
    "/import",
    response_model=ImportResponse,
    responses=_REFUSALS,
    openapi_extra={
        "requestBody": {
            "required": True,
            "description": "an a2p profile document (docs/profile.md)",
            "content": {"application/json": {"schema": {"type": "object"}}},
        }
    },
    summary="Import an a2p profile, all or nothing",
)
def import_profile(
    memory: CallerMemory,
    body: RawBody,
    dry_run: Annotated[bool, Query(description="check and show it; import nothing")] = False,
) -> JSONResponse:
    result = memory.import_a2p(body, dry_run=dry_run)
    return JSONResponse(
        result.to_json(), status_code=200 if result.success else status_for(result.diagnostics)
    )
