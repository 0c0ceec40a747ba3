"""Request dependencies: the wired app, the authenticated principal, the persona check.

Who may ask is a dependency of the route, never a check inside its body, so it is answered
before the route's inputs are judged: route (404, 405), then the key (401), then the persona
(403 for another persona's key or a route for the admin, 422 for a bad name, 404 for an unknown
persona), and only then the query and the body (422). The app-wide checks that run before the
route's own dependencies (``query_check``) ask :func:`check_access` first, which replays the
access dependencies of the matched route, so they keep the same order.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

from fastapi import Depends, Path, Request
from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute

from omoide.api.http.validation_errors import PATTERN_RULES
from omoide.engine.errors import quoted
from omoide.errors import InvalidInput
from omoide.model import PERSONA_NAME
from omoide.service.auth import Principal
from omoide.service.validate import NAME_PATTERN, NAME_RULE
from omoide.wiring import Omoide

__all__ = [
    "Admin",
    "App",
    "Caller",
    "PersonaPath",
    "access_replay",
    "admin",
    "check_access",
    "get_app",
    "named_persona_access",
    "persona_access",
    "principal",
]

PersonaPath = Annotated[
    str,
    Path(pattern=NAME_PATTERN, description=f"Persona name: {NAME_RULE}."),
]


def get_app(request: Request) -> Omoide:
    return request.app.state.omoide


App = Annotated[Omoide, Depends(get_app)]


def principal(request: Request, app: App) -> Principal:
    """401 without a valid Bearer key."""
    return app.auth.authenticate(request.headers.get("authorization"))


Caller = Annotated[Principal, Depends(principal)]


Replay = Callable[[Request, Principal], object]
_REPLAYS: dict[Callable[..., Any], Replay] = {}


def access_replay(replay: Replay) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register an access dependency with how :func:`check_access` runs it from a request."""

    def register(dependency: Callable[..., Any]) -> Callable[..., Any]:
        _REPLAYS[dependency] = replay
        return dependency

    return register


def check_access(request: Request) -> Principal:
    """The caller, once the matched route's own access dependencies let it in (401, 403, 404 as
    the route itself would answer), for the app-wide checks that run before them."""
    caller = principal(request, get_app(request))
    route = request.scope.get("route")
    if isinstance(route, APIRoute):
        for call in _calls(route.dependant):
            replay = _REPLAYS.get(call)
            if replay is not None:
                replay(request, caller)
    return caller


def _calls(dependant: Dependant) -> list[Callable[..., Any]]:
    found: list[Callable[..., Any]] = []
    for sub in dependant.dependencies:
        if sub.call is not None:
            found.append(sub.call)
        found.extend(_calls(sub))
    return found


@access_replay(lambda _, caller: caller.require_admin())
def admin(caller: Caller) -> Principal:
    """403 unless the key is the admin key."""
    caller.require_admin()
    return caller


Admin = Annotated[Principal, Depends(admin)]


@access_replay(
    lambda request, caller: persona_access(
        str(request.path_params.get("persona", "")), caller, get_app(request)
    )
)
def persona_access(persona: PersonaPath, caller: Caller, app: App) -> str:
    """401 → 422 (bad name) → 403 (key of another persona) → 404 (unknown persona): the order
    FastAPI gives, since it checks the path's pattern before calling this.

    A read never creates a persona: the lookup raises NotFound.
    """
    return _open(persona, "persona", caller, app)


NamedPersona = Annotated[str, Path(pattern=NAME_PATTERN, description="Persona name.")]


@access_replay(
    lambda request, caller: named_persona_access(
        str(request.path_params.get("name", "")), caller, get_app(request)
    )
)
def named_persona_access(name: NamedPersona, caller: Caller, app: App) -> str:
    """:func:`persona_access` for the routes that call the persona ``{name}`` (its keys)."""
    return _open(name, "name", caller, app)


def _open(persona: str, field: str, caller: Principal, app: Omoide) -> str:
    if not PERSONA_NAME.fullmatch(persona):  # said as the path's pattern is said
        raise InvalidInput(
            f"{field} {PATTERN_RULES[NAME_PATTERN]}, got {quoted(persona)}", field=field
        )
    caller.require_persona(persona)
    app.maintenance.require_persona(persona)
    return persona
