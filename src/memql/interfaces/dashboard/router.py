"""dashboard_router: the web dashboard as a FastAPI router the server mounts at `/`."""

from __future__ import annotations

from collections.abc import Callable
from importlib import resources
from typing import Any

from fastapi import APIRouter
from fastapi.responses import Response

from memql.interfaces.dashboard import actions, auth, pages
from memql.interfaces.dashboard.views import Refusals

STATIC_PREFIX = "/_dashboard"  # out of the way of the REST API's paths
_STATIC = {"dashboard.css": "text/css; charset=utf-8", "dashboard.js": "text/javascript; charset=utf-8"}


def dashboard_router(memory_dependency: Callable[..., Any]) -> APIRouter:
    """The dashboard's routes. `memory_dependency` is a FastAPI dependency that yields the caller's
    `memql.Memory` and raises HTTPException(401) when the request carries no valid key (the server's
    `caller_memory`); pages and actions get their Memory from it, and a 401 sends the browser to /login."""
    router = APIRouter(route_class=auth.LoginRedirectRoute, include_in_schema=False)
    auth.add_routes(router)
    refusals = Refusals()  # an action's refusal, kept for the page it redirects back to
    pages.add_routes(router, memory_dependency, refusals)
    actions.add_routes(router, memory_dependency, refusals)

    @router.get(STATIC_PREFIX + "/{name}")
    def static(name: str) -> Response:
        if name not in _STATIC:  # a fixed list: no path ever reaches the file system from the URL
            return Response("not found", status_code=404, media_type="text/plain")
        body = resources.files("memql.interfaces.dashboard").joinpath("static", name).read_bytes()
        return Response(body, media_type=_STATIC[name], headers={"Cache-Control": "max-age=3600"})

    return router
