"""The app factory: routes, auth, errors, the size limit and the access log around one shared store."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi

from memql import __version__
from memql.interfaces.dashboard import dashboard_router
from memql.interfaces.rest import (
    routes_context,
    routes_embeddings,
    routes_formation,
    routes_profile,
    routes_program,
    routes_proposals,
    routes_records,
)
from memql.interfaces.rest.auth import Services, caller_memory
from memql.interfaces.rest.encoding import JSONResponse
from memql.interfaces.rest.errors import install_handlers
from memql.interfaces.rest.hot_routes import THREADS, HotRoutes
from memql.interfaces.rest.middleware import DEFAULT_MAX_BODY, AccessLog, BodyLimit
from memql.interfaces.rest.models import Health, RetrieveRequest
from memql.interfaces.rest.retrieve_body import retrieve_workflow_schema
from memql.lang.schema import json_schema
from memql.ports.clock import Clock, SystemClock
from memql.ports.models import LLM, Embedder
from memql.ports.store import Store

ACCESS_LOGGER = "memql.rest.access"
COMPONENT_REF = "#/components/schemas/{model}"


def create_app(
    store: Store,
    *,
    embedder: Embedder | None = None,
    llm: LLM | None = None,
    clock: Clock | None = None,
    max_body: int = DEFAULT_MAX_BODY,
    access_log: logging.Logger | None = None,
) -> FastAPI:
    """The REST app over `store` (shared by every request; the caller closes it). `access_log`: where the
    one-line JSON access records go (default: the logger "memql.rest.access")."""
    app = FastAPI(
        title="memql",
        version=__version__,
        description="memql's REST API: the memory language, planning, facts, conversation context, "
        "proposals and a2p profiles. Every request acts as its API key's tenant and identity.",
        default_response_class=JSONResponse,
    )
    app.state.memql = Services(store=store, embedder=embedder, llm=llm, clock=clock or SystemClock())
    install_handlers(app)

    @app.get("/healthz", response_model=Health, tags=["health"], summary="Liveness (no key needed)")
    def healthz() -> dict[str, str]:
        return {"status": "ok", "version": __version__}

    for module in (
        routes_program,
        routes_records,
        routes_proposals,
        routes_profile,
        routes_context,
        routes_formation,
        routes_embeddings,
    ):
        app.include_router(module.router)

    # the web dashboard at "/": the same callers (its login sets the cookie `memql_key`), the same API
    app.include_router(dashboard_router(caller_memory), include_in_schema=False)

    # outermost last: the access log sees every response, including the size limit's 413; the busiest
    # routes are answered inside both (HotRoutes: the same answers without the framework's machinery)
    threads = getattr(store, "reads_at_once", THREADS)  # (a Store of another kind may not say)
    app.add_middleware(HotRoutes, services=lambda: app.state.memql, threads=threads)
    app.add_middleware(BodyLimit, max_bytes=max_body)
    app.add_middleware(AccessLog, logger=access_log or logging.getLogger(ACCESS_LOGGER))
    app.openapi = lambda: _openapi(app)  # type: ignore[method-assign]
    return app


def on_shutdown(app: FastAPI, stop: Callable[[], None]) -> None:
    """Run `stop` when the server shuts the app down (the end of its lifespan). What a server process must
    do before it ends -- close its store, so that the visits and read audit entries its reads buffered are
    written -- cannot wait for code after the server returns: uvicorn, stopped by SIGTERM, raises the
    signal again once it has shut down, and the process ends there."""
    inner = app.router.lifespan_context

    @asynccontextmanager
    async def lifespan(application: Any) -> AsyncIterator[Any]:
        try:
            async with inner(application) as state:
                yield state
        finally:
            stop()

    app.router.lifespan_context = lifespan


def _openapi(app: FastAPI) -> dict[str, Any]:
    """FastAPI's document plus the language's own JSON Schema as the `Program` body of execute and
    validate (its $defs become components, so every $ref resolves inside the document) and the bodies
    /v1/retrieve takes."""
    if app.openapi_schema:
        return app.openapi_schema
    doc = get_openapi(title=app.title, version=app.version, description=app.description, routes=app.routes)
    program = _rebase(json_schema("program"))
    components = doc.setdefault("components", {}).setdefault("schemas", {})
    for name, schema in program.pop("$defs", {}).items():
        components[f"IR_{name}"] = schema
    components["Program"] = {k: v for k, v in program.items() if k not in ("$schema", "$id")}
    # /v1/retrieve reads its raw body (its shorthand or a Retrieve program): its schemas are added here
    shorthand = RetrieveRequest.model_json_schema(ref_template=COMPONENT_REF)
    components.update(shorthand.pop("$defs", {}))  # the models it nests, were it to nest any
    components["RetrieveRequest"] = shorthand
    components["RetrieveWorkflow"] = retrieve_workflow_schema(components["IR_Workflow"])
    app.openapi_schema = doc
    return doc


def _rebase(schema: Any) -> Any:
    """Point the language schema's local refs (#/$defs/X) at the components (#/components/schemas/IR_X):
    every `$ref`, and every target of a `discriminator.mapping` (pydantic writes those as refs too; left
    as #/$defs/X they dangle in the OpenAPI document and generators fail on them)."""
    if isinstance(schema, dict):
        out = {k: _rebase(v) for k, v in schema.items()}
        if isinstance(out.get("$ref"), str):
            out["$ref"] = _component_ref(out["$ref"])
        discriminator = out.get("discriminator")
        if isinstance(discriminator, dict) and isinstance(discriminator.get("mapping"), dict):
            mapping = {key: _component_ref(ref) for key, ref in discriminator["mapping"].items()}
            out["discriminator"] = {**discriminator, "mapping": mapping}
        return out
    if isinstance(schema, list):
        return [_rebase(v) for v in schema]
    return schema


def _component_ref(ref: Any) -> Any:
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        return "#/components/schemas/IR_" + ref.removeprefix("#/$defs/")
    return ref
