"""The request log: one structured line per HTTP request, its count and latency in the metrics,
and the route template of a request.

Logged on ``omoide.access`` at INFO: method, route template (``/api/memories/{persona}``, never
the raw path or query string, which can carry content), status, duration in ms and the persona
(a path parameter, or the persona of an ``/mcp`` key or of a chat proxy request). Never
headers, keys or bodies. A reply that fails after its status was sent (a streamed export) is
that one line at ERROR with the cause in ``cut`` (:class:`StreamCut`), not a traceback.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from starlette.requests import Request
from starlette.routing import Match
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from omoide.api.http.metrics import Metrics

__all__ = [
    "PERSONA_SCOPE_KEY",
    "ROUTED_SCOPE_KEY",
    "AccessLog",
    "StreamCut",
    "record_persona",
    "record_route",
    "route_template",
]

logger = logging.getLogger("omoide.access")

_CAUSE_MAX = 300  # the cause of a cut reply, as logged: its exception's type and message

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


class StreamCut(Exception):
    """A reply that failed after its status was sent (an export's database read failing
    between two records), raised on to uvicorn, which then closes the connection without the
    closing chunk: the client sees the cut. :class:`AccessLog` has logged it in its one line,
    at ERROR, with the cause (``cut``); uvicorn's own report of it, a traceback, is dropped
    (``api.http.protocol``)."""


class AccessLog:
    """Pure ASGI middleware, the outermost: one pass over each request gives its log line and
    its metrics. The reply is counted and timed in :class:`Metrics` when its status is sent
    (for a streamed reply, the time to its first byte); an unexpected error before any status
    as the 500 it is answered with. The log line is written when the reply has ended; a reply
    cut after its status is logged at ERROR, naming the cause (:class:`StreamCut`).

    Not ``@app.middleware("http")``: Starlette's ``BaseHTTPMiddleware`` relays a streamed body
    through a queue and ends it cleanly when the route's stream raises, so an export cut by a
    database error mid-stream reached the client as a complete 200. Passed straight through
    (streams such as MCP's event stream untouched), the error reaches uvicorn, which closes the
    connection without the closing chunk: the client sees the cut (curl's exit 18, httpx's
    ``RemoteProtocolError``)."""

    def __init__(self, app: ASGIApp, metrics: Metrics) -> None:
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status: int | None = None
        scope[ROUTED_SCOPE_KEY] = {}
        cut: str | None = None

        def count(sent: int) -> None:
            seconds = time.perf_counter() - started
            self.metrics.observe(scope["method"], route_template(scope), sent, seconds)

        async def sending(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
                count(status)
            await send(message)

        try:
            await self.app(scope, receive, sending)
        except Exception as exc:
            if status is None:
                # the 500 is sent by Starlette's outermost layer, outside this one: counted
                # here (a cancelled request, a BaseException, answered nothing and is not
                # counted, though it is logged)
                count(500)
                raise
            cause: BaseException = exc
            while cause.__cause__ is not None:  # Starlette's "response already started" wraps it
                cause = cause.__cause__
            cut = f"{type(cause).__name__}: {cause}"[:_CAUSE_MAX]
            raise StreamCut from exc
        finally:
            fields = {
                "method": scope["method"],
                "route": route_template(scope),
                "status": 500 if status is None else status,
                "duration_ms": round((time.perf_counter() - started) * 1000, 1),
                "persona": _persona(scope),
            }
            if cut:
                logger.error(
                    "%s %s %d cut off after its status: %s",
                    *(fields["method"], fields["route"], fields["status"], cut),
                    extra={**fields, "cut": cut},
                )
            else:
                logger.info(
                    "%s %s %d", fields["method"], fields["route"], fields["status"], extra=fields
                )
