"""Who a request acts as: its API key (memql.interfaces.apikeys) -> the caller's Memory.

The key comes from ``Authorization: Bearer <key>``, ``X-API-Key: <key>`` or the cookie ``memql_key`` (the
dashboard's login sets it), in that order. The tenant and the identity come from the key only: nothing in
a body or an IR can name another tenant. Every request gets its own `Memory` over the server's ONE shared
store and ONE shared embedder (loading the model per request would take seconds).

FastAPI runs each sync dependency and the sync route in a worker thread, one trip each, and under load
those trips cost more than the search: the GIL passes between the event loop and the pool at every one
(docs/benchmarks.md, "Many agents over REST"). So the busiest routes take the presented key (`CallerKey`,
read from the headers on the loop, no I/O) and check it themselves, in the one trip their body takes;
the others take `CallerMemory`, one sync dependency. (Most requests to those two never reach FastAPI's
routes: memql.interfaces.rest.hot_routes answers them the same way, with `memory_for` and
`caller_state`.) Nothing that reads the store runs on the loop: a SQLite store serialises a process's
reads on one connection, and the loop would wait there.
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


class Caller:
    """The key a request presented, not yet checked: `memory()` checks it and builds the caller's Memory
    where the route runs (its worker thread), so a request reaches the store from one thread only."""

    def __init__(self, request: Request, presented: str) -> None:
        self.request, self.presented = request, presented

    def key(self) -> ApiKey:
        """The caller's live key; 401 (AuthError) when it is unknown, malformed or revoked."""
        key = authenticate(services(self.request).store, self.presented)
        if key is None:
            raise AuthError("auth.invalid", "the API key is unknown, malformed or revoked")
        setattr(self.request.state, STATE_KEY, caller_state(key))
        return key

    def memory(self) -> Memory:
        """The caller's Memory (tenant, actor, role, consent and clearance from the key), over the shared
        store and embedder; 401 (AuthError) without a valid key."""
        return memory_for(self.key(), services(self.request))


def caller_state(key: ApiKey) -> dict[str, str]:
    """What the access log says of a request's caller (scope["state"][STATE_KEY]): never the key."""
    return {"key_id": key.id, "tenant": key.tenant, "actor": key.actor}


def memory_for(key: ApiKey, shared: Services) -> Memory:
    """The Memory of a checked key's caller (tenant, actor, role, consent and clearance from the key) over
    the server's shared store, embedder, LLM and clock."""
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


async def caller(
    request: Request,
    bearer: Annotated[HTTPAuthorizationCredentials | None, Security(_bearer)],
    header: Annotated[str | None, Security(_header)],
    cookie: Annotated[str | None, Security(_cookie)],
) -> Caller:
    """FastAPI dependency: the key the request presents (401 at once without one), checked by `memory()`."""
    presented = (bearer.credentials if bearer else None) or header or cookie
    if not presented:
        raise AuthError("auth.missing", "no API key: send Authorization: Bearer <key> or X-API-Key: <key>")
    return Caller(request, presented.strip())


def caller_memory(presented: Annotated[Caller, Depends(caller)]) -> Memory:
    """FastAPI dependency: the caller's Memory; 401 (AuthError) without a valid key."""
    return presented.memory()


CallerMemory = Annotated[Memory, Depends(caller_memory)]  # a route parameter: the caller's Memory
# a route parameter: the caller, whose Memory a sync route builds itself (`caller.memory()`), in the one
# trip to a worker thread its own body takes — what the busiest routes (retrieve, execute) do
CallerKey = Annotated[Caller, Depends(caller)]
