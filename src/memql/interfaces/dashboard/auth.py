"""Signing in and out. The dashboard never checks a key itself: /login only stores what the user pasted in
the `memql_key` cookie, and the server's memory dependency judges it on the next page. A 401 from that
dependency, on any page, sends the browser back to /login."""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Annotated, Any
from urllib.parse import quote

from fastapi import APIRouter, Form, HTTPException, Request, Response
from fastapi.responses import RedirectResponse
from fastapi.routing import APIRoute

from memql.interfaces.dashboard.views import render

COOKIE = "memql_key"


class LoginRedirectRoute(APIRoute):
    """A dashboard route: when resolving the caller's Memory fails with 401, redirect to /login (with the
    page asked for, to come back to) instead of answering JSON."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def handle(request: Request) -> Response:
            try:
                return await handler(request)
            except HTTPException as error:
                if error.status_code != 401:
                    raise
                wanted = request.url.path + (f"?{request.url.query}" if request.url.query else "")
                back = "" if request.method != "GET" or wanted == "/" else f"?next={quote(wanted, safe='')}"
                return RedirectResponse(f"/login{back}", status_code=303)

        return handle


def local_path(value: str | None) -> str:
    """Where to go after signing in: only a path on this server (never //host or a URL: an open redirect
    would let a link send a freshly signed-in user elsewhere)."""
    if not value or not value.startswith("/") or value.startswith("//") or "\\" in value:
        return "/"
    return value


def add_routes(router: APIRouter) -> None:
    @router.get("/login")
    def login_form(request: Request, next: str = "/"):
        return render("login.html", next=local_path(next), signed_in=COOKIE in request.cookies)

    @router.post("/login")
    def login(request: Request, key: Annotated[str, Form()] = "", next: Annotated[str, Form()] = "/"):
        key = key.strip()
        if not key:
            return render(
                "login.html",
                status=422,
                next=local_path(next),
                signed_in=False,
                diagnostics=[
                    {"path": "/key", "rule": "field.empty", "message": "paste an API key to sign in"}
                ],
            )
        response = RedirectResponse(local_path(next), status_code=303)
        # httponly: page scripts never see the key; Strict: no other site's form or link carries it here
        secure = request.url.scheme == "https"  # plain http only for a local server (127.0.0.1)
        response.set_cookie(COOKIE, key, httponly=True, samesite="strict", secure=secure, path="/")
        return response

    @router.api_route("/logout", methods=["GET", "POST"])
    def logout():
        response = RedirectResponse("/login", status_code=303)
        response.delete_cookie(COOKIE, path="/", httponly=True, samesite="strict")
        return response
