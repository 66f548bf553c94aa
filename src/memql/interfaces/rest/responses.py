"""Engine results as HTTP responses: the result's own JSON, with the status its diagnostics call for."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request
from fastapi.responses import Response

from memql.engine.result import ExecutionResult
from memql.interfaces.rest.encoding import json_bytes
from memql.interfaces.rest.errors import status_for


def missed(result: ExecutionResult) -> bool:
    """A successful op that found none of the ids it named (unknown, or another tenant's): 404. The engine
    reports those as warnings (`target.not_found`) so a workflow can go on; for HTTP it is 'not found'.
    Not a Delete: the engine's answer to deleting what is not there is success (the record is absent, as
    asked) with that warning, and the CLI, MCP and REST all give that answer (200 here)."""
    if result.op == "Delete":
        return False
    rows = result.data.get("rows")
    return not result.affected_ids and not rows and any(w.rule == "target.not_found" for w in result.warnings)


def result_response(result: ExecutionResult) -> Response:
    """The result's JSON, the bytes `JSONResponse(result.to_json())` would send, encoded once."""
    status = (404 if missed(result) else 200) if result.success else status_for(result.diagnostics)
    return Response(json_bytes(result.to_json_text()), status_code=status, media_type="application/json")


async def raw_body(request: Request) -> bytes:
    """The request body as received (already within the size limit): the language parses it itself, so
    duplicate keys, non-finite numbers and nesting depth get its diagnostics."""
    return await request.body()


RawBody = Annotated[bytes, Depends(raw_body)]
