"""Sign-in, sign-out and the personas list (``/``)."""

from __future__ import annotations

import secrets
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response

from omoide.api.http.dashboard.session import SESSION_SECONDS
from omoide.api.http.dashboard.web import (
    COOKIE,
    DashboardRoute,
    SignedIn,
    dashboard_of,
    form_data,
    form_page,
    render,
)
from omoide.api.http.deps import App
from omoide.errors import Unauthorized

router = APIRouter(route_class=DashboardRoute, include_in_schema=False)

LOGIN_COOKIE = "omoide_login"  # binds the sign-in form's CSRF token to this browser
LOGIN_SECONDS = 3600


def _cookie(response: Response, request: Request, name: str, value: str, max_age: int) -> None:
    response.set_cookie(
        name,
        value,
        max_age=max_age,
        httponly=True,
        samesite="strict",
        secure=request.url.scheme == "https",
        path="/",
    )


def _login_form(request: Request, *, status: int = 200, error: str | None = None) -> Response:
    nonce = secrets.token_urlsafe(18)
    response = render(
        request,
        "login.html",
        status=status,
        error=error,
        viewer=None,
        persona=None,
        csrf=dashboard_of(request).signer.csrf_token("login" + nonce),
    )
    _cookie(response, request, LOGIN_COOKIE, nonce, LOGIN_SECONDS)
    return response


@router.get("/login")
def login_page(request: Request) -> Response:
    return _login_form(request)


@router.post("/login")
async def login(request: Request, app: App) -> Response:
    form = await form_data(request)
    signer = dashboard_of(request).signer
    nonce = request.cookies.get(LOGIN_COOKIE, "")
    if not nonce or not signer.csrf_ok("login" + nonce, form.get("csrf")):
        return _login_form(
            request, status=403, error="The sign-in form expired (missing CSRF token); try again."
        )
    try:
        _, key_id = app.auth.sign_in(form.get("key", ""))
    except Unauthorized:
        return _login_form(request, status=401, error="Unknown or revoked key.")
    value, _ = signer.issue(key_id, now=app.clock.now())
    response = RedirectResponse("/", status_code=303)
    _cookie(response, request, COOKIE, value, SESSION_SECONDS)
    response.delete_cookie(LOGIN_COOKIE, path="/")
    return response


@router.get("/logout")
def logout_form() -> Response:
    return form_page("")


@router.post("/logout")
def logout(viewer: SignedIn) -> Response:
    response = RedirectResponse("/login", status_code=303)
    response.delete_cookie(COOKIE, path="/")
    return response


@router.get("/")
def personas(request: Request, viewer: SignedIn, app: App) -> Response:
    principal = viewer.principal
    summaries = [
        s
        for s in app.overview.persona_summaries()
        if principal.is_admin or s.name == principal.persona
    ]
    context: dict[str, Any] = {"viewer": viewer, "persona": None, "summaries": summaries}
    return render(request, "personas.html", **context)
