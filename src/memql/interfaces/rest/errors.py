"""How refusals become HTTP: a status chosen from the engine's rule ids, and one JSON error body.
Routes raise memql.errors.Refusal (the one refusal type); install_handlers maps it to its status.

Every refusal is a 4xx whose body carries diagnostics (path, rule, severity, message), the same objects
the engine and the language return. The server's own rules (auth, size, routing) are listed in RULES.
An unexpected error is a logged 500 whose body names no internals.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from memql.errors import Refusal
from memql.interfaces.rest.encoding import JSONResponse
from memql.lang.diagnostics import Diagnostic

log = logging.getLogger("memql.rest")

# the server's own rule ids (the engine's and the language's are in memql.lang.diagnostics.RULES)
RULES: dict[str, str] = {
    "auth.missing": "no API key: send Authorization: Bearer <key>, X-API-Key: <key> or the cookie memql_key",
    "auth.invalid": "the API key is unknown, malformed or revoked",
    "http.not_found": "no such endpoint, or no such record in the caller's tenant",
    "http.method": "the endpoint does not take this HTTP method",
    "http.too_large": "the request body is larger than the server's limit",
    "http.bad_request": "the request is malformed (headers, encoding, length)",
    "http.internal": "an unexpected error; it was logged, and nothing about it is in the response",
    "embedding.unavailable": "the server runs without an embedder, so it has no vectors to give",
}

# the status of a refusal, by the rule id of its first error (exact id first, then the id's family)
_BY_RULE = {
    "target.not_found": 404,
    "target.hidden": 404,
    "http.not_found": 404,
    "governance.locked": 409,
    "governance.target_state": 409,
    "proposal.transition": 409,
    "restore.window": 409,
    "split.already": 409,
    "a2p.id_exists": 409,
    "proposal.approver": 403,
    "governance.lock_owner": 403,
    "conversation.participant": 403,  # not the caller's conversation: a permission, not bad input
    "conversation.moved": 409,  # another process wrote to it meanwhile (after a server's own retries)
    "category.unregistered": 422,
    "plan.llm_error": 502,  # the model server failed: not the caller's input
    "embedding.unavailable": 404,  # no model on this server (not a 5xx: nothing failed)
    "store.busy": 503,  # another writer held the store past the wait: the caller may try again
    "store.unavailable": 503,  # the server or the file failed: the caller may try again later
    "store.full": 507,  # Insufficient Storage
    "exec.internal": 500,
    "http.internal": 500,
    "http.method": 405,
    "http.too_large": 413,
    "http.bad_request": 400,
}
_BY_FAMILY = {"auth": 401, "consent": 403, "permission": 403}


def status_for(diagnostics: Sequence[Diagnostic]) -> int:
    """The HTTP status of a refusal: 401 auth, 403 consent/permissions, 404 unknown ids, 409 the record's
    state (locked, already decided), 5xx only for the server's own failures, else 422 (invalid input)."""
    errors = [d for d in diagnostics if d.severity == "error"] or list(diagnostics)
    if not errors:
        return 422
    rule = errors[0].rule
    return _BY_RULE.get(rule) or _BY_FAMILY.get(rule.split(".", 1)[0], 422)


class ErrorBody(BaseModel):
    """The body of every refusal that is not an engine result (those carry the same two fields)."""

    success: bool = False
    diagnostics: list[Diagnostic] = Field(default_factory=list)


def documented_refusals(described: dict[int, str | tuple[type[BaseModel], str]]) -> dict[int, dict[str, Any]]:
    """A route's refusals as OpenAPI publishes them (`responses=`): the key's and the body limit's, which
    every route with a body has, and `described` (status -> what it means, or (its body's model, that))."""
    out: dict[int, dict[str, Any]] = {
        401: {"model": ErrorBody, "description": "no valid API key"},
        413: {"model": ErrorBody, "description": "the body is larger than the limit"},
    }
    for status, what in described.items():
        model, description = what if isinstance(what, tuple) else (ErrorBody, what)
        out[status] = {"model": model, "description": description}
    return dict(sorted(out.items()))


def diagnostic(rule: str, message: str, path: str = "") -> Diagnostic:
    return Diagnostic(path=path, rule=rule, severity="error", message=message)


def error_response(
    status: int, *diagnostics: Diagnostic, headers: dict[str, str] | None = None
) -> JSONResponse:
    body = ErrorBody(diagnostics=list(diagnostics)).model_dump()
    return JSONResponse(body, status_code=status, headers=headers)


def refused(body: dict[str, Any], diagnostics: Sequence[Diagnostic]) -> JSONResponse:
    """An engine result that refused: its own JSON, with the status its first error calls for."""
    return JSONResponse(body, status_code=status_for(diagnostics))


def refusal(diagnostics: Sequence[Diagnostic]) -> Refusal:
    """A route's refusal carrying these diagnostics (the first one decides the status)."""
    first, *rest = diagnostics
    also = tuple(Refusal(d.rule, d.message, d.path) for d in rest)
    return Refusal(first.rule, first.message, first.path, also=also)


def refusal_diagnostics(exc: Refusal) -> list[Diagnostic]:
    return [diagnostic(r.rule, r.message, r.path) for r in (exc, *exc.also)]


def refused_response(exc: Refusal) -> JSONResponse:
    """The response to a refusal raised (rather than returned in a result): its diagnostics, its status."""
    diagnostics = refusal_diagnostics(exc)
    return error_response(status_for(diagnostics), *diagnostics)


# pydantic's error types -> the language's rule ids, so request models report like IRs do
_PYDANTIC_RULES = {
    "missing": "field.required",
    "extra_forbidden": "field.unknown",
    "json_invalid": "json.malformed",
    "json_type": "json.malformed",
    "literal_error": "field.enum",
    "enum": "field.enum",
    "too_long": "field.size",
    "too_short": "field.size",
    "string_too_long": "field.size",
    "string_too_short": "field.size",
    "greater_than": "field.range",
    "greater_than_equal": "field.range",
    "less_than": "field.range",
    "less_than_equal": "field.range",
}


def _pointer(loc: Sequence[Any]) -> str:
    parts = list(loc[1:]) if loc and loc[0] in ("body", "query", "path", "header", "cookie") else list(loc)
    prefix = f"/{loc[0]}" if loc and loc[0] in ("query", "path", "header", "cookie") else ""
    return prefix + "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


def validation_diagnostics(errors: Sequence[dict[str, Any]]) -> list[Diagnostic]:
    out = []
    for error in errors:
        kind = str(error.get("type", ""))
        rule = _PYDANTIC_RULES.get(kind, "field.type" if kind.endswith("_type") else "field.invalid")
        loc, message = error.get("loc", ()), str(error.get("msg", "invalid"))
        if rule == "json.malformed":  # the location is a character position, not a field
            where = f" at character {loc[-1]}" if loc else ""
            out.append(diagnostic(rule, f"the body is not well-formed JSON{where}"))
            continue
        out.append(diagnostic(rule, message, _pointer(loc)))
    return out


def install_handlers(app: FastAPI) -> None:
    """Every error the framework or a route raises becomes a JSON error body; nothing leaks a traceback."""

    @app.exception_handler(Refusal)
    async def _refused(_request: Request, exc: Refusal) -> JSONResponse:
        return refused_response(exc)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
        return error_response(422, *validation_diagnostics(exc.errors()))

    @app.exception_handler(StarletteHTTPException)
    async def _http(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
        rule = getattr(exc, "rule", None) or {  # AuthError names its rule
            404: "http.not_found",
            405: "http.method",
            413: "http.too_large",
            401: "auth.missing",
        }.get(exc.status_code, "http.bad_request")
        message = exc.detail if isinstance(exc.detail, str) else RULES[rule]
        return error_response(exc.status_code, diagnostic(rule, message), headers=exc.headers)

    @app.exception_handler(Exception)
    async def _internal(request: Request, exc: Exception) -> JSONResponse:
        log.error("unhandled error on %s %s", request.method, request.url.path, exc_info=exc)
        return error_response(500, diagnostic("http.internal", RULES["http.internal"]))
