"""The dashboard's plumbing: templates, the signed-in viewer, CSRF, forms and safe headers.

Dashboard routes use :class:`DashboardRoute`, which turns the errors a person can cause into an
HTML page with the same status the API would give (401 → the sign-in page), and puts the
security headers on every response: a Content-Security-Policy that allows no inline script or
style, so escaped content stays inert even if escaping were ever missed.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Coroutine, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Annotated, Any, TypeVar
from urllib.parse import parse_qsl, quote

from fastapi import Depends, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.routing import APIRoute
from jinja2 import Environment, PackageLoader, StrictUndefined

from omoide.api.http.dashboard import shown
from omoide.api.http.dashboard.session import SessionSigner
from omoide.api.http.deps import App
from omoide.api.http.query_numbers import refused_number
from omoide.api.http.validation_errors import validation_message
from omoide.engine.counts import how_many
from omoide.engine.errors import escape_controls, named
from omoide.errors import Forbidden, InvalidInput, OmoideError, Unauthorized
from omoide.model import NAME_PATTERN, check_persona_name
from omoide.service.auth import Principal
from omoide.service.validate import CONTROLS, check_controls, replace_controls

__all__ = [
    "COOKIE",
    "CSP",
    "Dashboard",
    "DashboardRoute",
    "PersonaPage",
    "SignedIn",
    "Viewer",
    "controls_refused",
    "error_page",
    "form_data",
    "form_page",
    "is_page",
    "path_controls",
    "render",
    "security_headers",
    "shows_back",
]

COOKIE = "omoide_session"
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'; "
    "object-src 'none'"
)


class SignInRequired(Exception):
    """No valid session: the route class answers with a redirect to /login."""


@dataclass
class Dashboard:
    """What the dashboard keeps on ``app.state``: its templates and its session signer."""

    env: Environment
    signer: SessionSigner


def make_environment() -> Environment:
    env = Environment(
        loader=PackageLoader("omoide.api.http.dashboard", "templates"),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        finalize=shown.finalize,  # control characters marked, never raw (shown.py)
    )
    env.filters["as_stored"] = shown.as_stored
    env.tests["with_controls"] = shown.has_controls
    env.filters["when"] = _when
    env.filters["num"] = _num
    env.filters["how_many"] = how_many  # "1 turn", "2 turns": the one way a count is said
    # a form's name field checks what the API checks (an HTML pattern is matched whole, in
    # the ECMAScript "v" mode, where a '-' in a class is escaped)
    env.globals["name_pattern"] = (
        NAME_PATTERN.removeprefix("^").removesuffix("$").replace("-]", "\\-]")
    )
    return env


def _when(value: datetime | None) -> str:
    return "—" if value is None else value.strftime("%Y-%m-%d %H:%M UTC")


def _num(value: float | None, digits: int = 3) -> str:
    return "—" if value is None else f"{value:.{digits}f}"


@dataclass(frozen=True)
class Viewer:
    """Who is signed in, and the CSRF token their forms carry."""

    principal: Principal
    csrf: str

    @property
    def label(self) -> str:
        return "admin" if self.principal.is_admin else f"persona {self.principal.persona}"


def dashboard_of(request: Request) -> Dashboard:
    return request.app.state.dashboard


async def form_data(request: Request) -> dict[str, str]:
    """An urlencoded form body as a dict (the last value wins); {} for any other body."""
    if not request.headers.get("content-type", "").startswith("application/x-www-form-urlencoded"):
        return {}
    body = (await request.body()).decode("utf-8", errors="replace")
    return dict(parse_qsl(body, keep_blank_values=True))


async def signed_in(request: Request, app: App) -> Viewer:
    """The viewer of a valid session (else a redirect to sign in); every request that is not
    a GET must carry the session's CSRF token (form field ``csrf`` or ``X-CSRF-Token``)."""
    dashboard = dashboard_of(request)
    session = dashboard.signer.read(request.cookies.get(COOKIE), now=app.clock.now())
    if session is None:
        raise SignInRequired
    try:
        principal = app.auth.principal_for_key_id(session.key_id)
    except Unauthorized:
        raise SignInRequired from None
    if request.method not in ("GET", "HEAD"):
        token = request.headers.get("x-csrf-token") or (await form_data(request)).get("csrf")
        if not dashboard.signer.csrf_ok(session.nonce, token):
            raise Forbidden("missing or invalid CSRF token; reload the page and try again")
    return Viewer(principal=principal, csrf=dashboard.signer.csrf_token(session.nonce))


SignedIn = Annotated[Viewer, Depends(signed_in)]


def persona_page(request: Request, persona: str, viewer: SignedIn, app: App) -> str:
    """The API's persona check for a dashboard page: 403 (another persona) → 422 → 404; then
    a numeric query value that is no number as JSON writes it (``page=1_0``, which ``int()``
    read as 10: ``query_numbers``) is a 422, as on the API."""
    viewer.principal.require_persona(persona)
    check_persona_name(persona)
    app.maintenance.require_persona(persona)
    refused = refused_number(request.scope.get("state", {}))
    if refused is not None:
        raise refused
    return persona


PersonaPage = Annotated[str, Depends(persona_page)]


def controls_refused(form: dict[str, Any], labels: Mapping[str, str]) -> str | None:
    """Why a form a page shows back is refused when one of the fields ``labels`` names (name →
    the field's label on the page) holds a control character, else None; the form is then
    cleaned in place (each one a space) so that the page shows it back without them and sending
    it again works. The one rule of every dashboard page for what a person typed or a URL
    carries (NUL is refused before any route): a value holding ESC, DEL, a C1 control or a
    bidirectional override was written back raw into the page, in its form and in the error's
    own words."""
    try:
        for name, label in labels.items():
            check_controls(str(form.get(name, "")), label)
    except InvalidInput as exc:
        for name in labels:
            if isinstance(form.get(name), str):
                form[name] = replace_controls(form[name])[0]
        return exc.message
    return None


_Endpoint = TypeVar("_Endpoint", bound=Callable[..., Any])


def shows_back(labels: Mapping[str, str]) -> Callable[[_Endpoint], _Endpoint]:
    """Mark a page that shows these query fields back in its own form (name → the form's label
    for it): it refuses a control character in them itself (:func:`controls_refused`), on its
    own page with the form cleaned. The route class refuses one in every other query parameter
    and path segment, on the error page, before the page runs."""

    def mark(endpoint: _Endpoint) -> _Endpoint:
        endpoint.shown_back = dict(labels)  # type: ignore[attr-defined]
        return endpoint

    return mark


def _url_controls(request: Request, shown_back: Mapping[str, str]) -> str | None:
    """Why the URL is refused when a path segment or a query parameter (but those the page
    shows back itself) holds a control character, else None."""
    checked = [
        (str(value), f"the URL's {name.replace('_', ' ')}")
        for name, value in request.path_params.items()
    ]
    for name, value in request.query_params.multi_items():
        if name not in shown_back:
            checked += [
                (name, "a query parameter's name"),
                (value, f"query parameter {named(name)}"),
            ]
    try:
        for value, label in checked:
            check_controls(value, label)
    except InvalidInput as exc:
        return exc.message
    return None


def render(request: Request, template: str, *, status: int = 200, **context: Any) -> HTMLResponse:
    env = dashboard_of(request).env
    if isinstance(context.get("error"), str):
        context["error"] = escape_controls(context["error"])
    html = env.get_template(template).render(**context)
    return HTMLResponse(html, status_code=status)


def security_headers(response: Response) -> Response:
    response.headers["Content-Security-Policy"] = CSP
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "same-origin"
    response.headers["X-Frame-Options"] = "DENY"
    response.headers.setdefault("Cache-Control", "no-store")
    return response


def form_page(*segments: str) -> RedirectResponse:
    """The answer to a GET of a URL that only takes its form's POST (``…/memories/k/edit``,
    ``…/delete``, ``/logout``: bookmarked, reloaded or typed): a 303 to the page the form lives
    on, ``segments`` percent-encoded one by one (a key is one segment whatever it holds). It
    was the API's JSON 405, which a browser shows as raw text."""
    return RedirectResponse("/" + "/".join(quote(s, safe="") for s in segments), status_code=303)


# The first path segments of the dashboard's URLs (its pages, sign-in and out, /docs); ``/`` is
# its overview. Every other path is the API's (``/api``, ``/v1``, ``/mcp``, ``/health`` …) or
# no route at all, and is answered in JSON.
_PATH_CONTROL = re.compile(f"[{CONTROLS}]")
PAGE_ROOTS = frozenset({"p", "login", "logout", "docs"})


def is_page(path: str) -> bool:
    """Whether ``path`` (decoded, as ASGI gives it) is the dashboard's, so that a refusal of it
    is an HTML page a browser shows (the API's JSON showed as raw text). Its control characters
    are ignored here (``/login%00`` and ``/login%1b`` are the sign-in page's URL, refused as
    such: :func:`path_controls`)."""
    path = _PATH_CONTROL.sub("", path)
    first = path.split("/", 2)[1] if path.startswith("/") else None  # "*" has no segment
    return path == "/" or first in PAGE_ROOTS


def path_controls(path: str) -> str | None:
    """Why a page's path that no route serves is refused when it holds a control character
    (``/login%1b``, ``/p/rin/memories%e2%80%ae``: a mistyped or doctored link), else None: a
    422 that names the character, as a path segment a route reads is refused
    (:func:`_url_controls`), where it was a 404 naming no page, or the API's JSON."""
    try:
        check_controls(path, "the URL's path")
    except InvalidInput as exc:
        return exc.message
    return None


def error_page(dashboard: Dashboard, status: int, message: str) -> Response:
    """The dashboard's error page (``status``, ``message``) with its security headers: for a
    dashboard route's error, and for a refusal before any route (the guard's NUL in the path,
    a query string that is not UTF-8; the app's 404 and 405 under a page's URL)."""
    html = dashboard.env.get_template("error.html").render(
        status_code=status, message=escape_controls(message), viewer=None, persona=None
    )
    return security_headers(HTMLResponse(html, status_code=status))


def _error_page(request: Request, status: int, message: str) -> Response:
    return error_page(dashboard_of(request), status, message)


class DashboardRoute(APIRoute):
    """HTML errors, sign-in redirects and security headers for every dashboard route."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        original = super().get_route_handler()

        shown_back: Mapping[str, str] = getattr(self.endpoint, "shown_back", {})

        async def handler(request: Request) -> Response:
            try:
                refused = _url_controls(request, shown_back)
                if refused is not None:
                    raise InvalidInput(refused)
                response = await original(request)
            except SignInRequired:
                response = RedirectResponse("/login", status_code=303)
            except OmoideError as exc:
                response = _error_page(request, exc.status, exc.message)
            except RequestValidationError as exc:  # in the API's words ("page must be at
                message, _ = validation_message(list(exc.errors()))  # least 1, got 0"), not
                response = _error_page(request, 422, message)  # pydantic's ("Input should …")
            return security_headers(response)

        return handler
