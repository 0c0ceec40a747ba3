"""The request log: one structured line per HTTP request, and the route template of a request.

Logged on ``omoide.access`` at INFO: method, route template (``/api/memories/{persona}``, never
the raw path or query string, which can carry content), status, duration in ms and the persona
(a path parameter, or the persona of an ``/mcp`` key or of a chat proxy request). Never
headers, keys or bodies.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from starlette.requests import Request
from starlette.routing import Match
from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = [
    "PERSONA_SCOPE_KEY",
    "ROUTED_SCOPE_KEY",
    "AccessLog",
    "record_persona",
    "record_route",
    "route_template",
]

logger = logging.getLogger("omoide.access")

PERSONA_SCOPE_KEY = "omoide.persona"
"""Where a handler that learns the persona from the key (``/mcp``, the chat proxy) leaves it
for the log (:func:`record_persona`)."""

UNMATCHED = "unmatched"

ROUTED_SCOPE_KEY = "omoide.routed"
"""A dict :class:`AccessLog` puts in the scope and :func:`record_route` fills with the matched
route and path parameters: a middleware inside (the guard, the full-width number reading) hands
the app a changed copy of the scope, and the router records the route in that copy only; the
dict is shared by every copy, so the layers outside (this log, the metrics) still see it."""


def record_route(request: Request) -> None:
    """An app-wide dependency, the first: what the router matched, for the layers outside."""
    routed = request.scope.get(ROUTED_SCOPE_KEY)
    if isinstance(routed, dict):
        routed["route"] = request.scope.get("route")
        routed["path_params"] = request.scope.get("path_params")


def record_persona(scope: Scope, persona: str) -> None:
    """The persona a request acts for, when it is not in the path (the key's, or a header's),
    for the log: in the scope, and in the dict shared by the scope's copies (the app may hold a
    copy a middleware inside made, :data:`ROUTED_SCOPE_KEY`)."""
    scope[PERSONA_SCOPE_KEY] = persona
    routed = scope.get(ROUTED_SCOPE_KEY)
    if isinstance(routed, dict):
        routed[PERSONA_SCOPE_KEY] = persona


def _routed(scope: Scope) -> Scope:
    routed = scope.get(ROUTED_SCOPE_KEY)
    return {**scope, **routed} if routed else scope


def route_template(scope: Scope) -> str:
    """The template of the route that served ``scope`` (e.g. ``/mcp``), else "unmatched".

    FastAPI routes record themselves in the scope; a plain Starlette route (the MCP endpoint,
    static files) does not, so it is looked up among the app's routes.
    """
    scope = _routed(scope)
    route = scope.get("route")
    if route is not None:
        return _template(route)
    app = scope.get("app")
    router = getattr(app, "router", None)
    for candidate in getattr(router, "routes", ()):
        match, _ = candidate.matches(scope)
        if match is Match.FULL:
            return _template(candidate)
    return UNMATCHED


def _template(route: Any) -> str:
    """A route's path as OpenAPI writes it (``/v1/models/{model}``, not ``{model:path}``)."""
    return str(getattr(route, "path_format", None) or getattr(route, "path", UNMATCHED))


def _persona(scope: Scope) -> str | None:
    scope = _routed(scope)
    params: dict[str, Any] = scope.get("path_params") or {}
    found = scope.get(PERSONA_SCOPE_KEY) or params.get("persona") or params.get("name")
    return found if isinstance(found, str) else None


class AccessLog:
    """Pure ASGI middleware (streams such as MCP's event stream pass through untouched)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = [500]
        scope[ROUTED_SCOPE_KEY] = {}

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                status[0] = int(message["status"])
            await send(message)

        try:
            await self.app(scope, receive, sending)
        finally:
            logger.info(
                "%s %s %d",
                scope["method"],
                route_template(scope),
                status[0],
                extra={
                    "method": scope["method"],
                    "route": route_template(scope),
                    "status": status[0],
                    "duration_ms": round((time.perf_counter() - started) * 1000, 1),
                    "persona": _persona(scope),
                },
            )
