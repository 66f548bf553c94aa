"""Who a request acts as: its API key (memql.interfaces.apikeys) -> the caller's Memory.

The key comes from ``Authorization: Bearer <key>``, ``X-API-Key: <key>`` or the cookie ``memql_key`` (the
dashboard's login sets it), in that order. The tenant and the identity come from the key only: nothing in
a body or an IR can name another tenant. Every request gets its own `Memory` over the server's ONE shared
store and ONE shared embedder (loading the model per request would take seconds).

Both dependencies are coroutines, so they run on the event loop: the key check is one indexed read and
building a Memory allocates a few objects, while a sync dependency is a trip to a worker thread and back
each. Under load those trips, not the search, were most of what a served Retrieve cost beyond an
in-process one (the GIL passed between the loop and the pool at every hop; docs/benchmarks.md, "Many
agents over REST"). The route itself stays a sync function in the pool: a search, a write, an embedding
or a planner call never blocks the loop.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, HTTPException, Request, Security
from fastapi.security import APIKeyCookie, APIKeyHeader, HTTPAuthorizationCredentials, HTTPBearer

from memql.errors import MemqlError
from memql.interfaces.apikeys import authenticate
from memql.interfaces.rest.middleware import STATE_KEY
from memql.memory import Memory
from memql.ports.clock import Clock
from memql.ports.keys import ApiKey
from memql.ports.models import LLM, Embedder
from memql.ports.store import Store

COOKIE = "memql_key"

# declared as security schemes so /openapi.json tells clients (and fuzzers) how to authenticate
_bearer = HTTPBearer(auto_error=False, description="Authorization: Bearer <API key>")
_header = APIKeyHeader(name="X-API-Key", auto_error=False, description="the API key")
_cookie = APIKeyCookie(name=COOKIE, auto_error=False, description="the API key (the dashboard's login)")


@dataclass(frozen=True)
class Services:
    """What every request shares (app.state.memql): the store, the embedder (None: lexical search only),
    the LLM (None: the planner's default from the environment) and the clock."""

    store: Store
    embedder: Embedder | None
    llm: LLM | None
    clock: Clock


class AuthError(MemqlError, HTTPException):
    """401 with the rule that says why (auth.missing, auth.invalid); an HTTPException, so a router that
    handles 401 (the dashboard redirects to its login) sees the usual status."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(401, detail=message, headers={"WWW-Authenticate": "Bearer"})
        self.rule = rule


def services(request: Request) -> Services:
    return request.app.state.memql


async def caller_key(
    request: Request,
    bearer: Annotated[HTTPAuthorizationCredentials | None, Security(_bearer)],
    header: Annotated[str | None, Security(_header)],
    cookie: Annotated[str | None, Security(_cookie)],
) -> ApiKey:
    """The caller's live key; 401 without one."""
    presented = (bearer.credentials if bearer else None) or header or cookie
    if not presented:
        raise AuthError("auth.missing", "no API key: send Authorization: Bearer <key> or X-API-Key: <key>")
    key = authenticate(services(request).store, presented.strip())
    if key is None:
        raise AuthError("auth.invalid", "the API key is unknown, malformed or revoked")
    setattr(request.state, STATE_KEY, {"key_id": key.id, "tenant": key.tenant, "actor": key.actor})
    return key


async def caller_memory(request: Request, key: Annotated[ApiKey, Depends(caller_key)]) -> Memory:
    """FastAPI dependency: the caller's Memory (tenant, actor, role, consent and clearance from the key),
    over the shared store and embedder. Raises 401 (AuthError) without a valid key."""
    shared = services(request)
    return Memory(
        shared.store,
        tenant=key.tenant,
        actor=key.actor,
        role=key.role,
        consent=key.consent,
        clearance=key.clearance,
        embedder=shared.embedder,
        llm=shared.llm,
        clock=shared.clock,
    )


CallerMemory = Annotated[Memory, Depends(caller_memory)]  # a route parameter: the caller's Memory
