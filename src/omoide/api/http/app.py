"""The FastAPI application: routers, the single error shape, metrics, the body guard
(``guard.py``: size limit and strict JSON), lifespan."""

from __future__ import annotations

import contextlib
import enum
import logging
import threading
from collections.abc import AsyncIterator, Callable
from typing import Any

from fastapi import Depends, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match, Mount

from omoide import __version__
from omoide.api.errors import INTERNAL_MESSAGE, error_body, error_response
from omoide.api.http.access_log import AccessLog, record_route
from omoide.api.http.dashboard import ROUTERS as DASHBOARD_ROUTERS
from omoide.api.http.dashboard import install_dashboard
from omoide.api.http.dashboard.web import error_page, is_page, path_controls
from omoide.api.http.guard import BodyGuard
from omoide.api.http.head import HeadAsGet
from omoide.api.http.metrics import Metrics
from omoide.api.http.query_check import (
    refuse_refused_body,
    refuse_refused_header,
    refuse_unexpected_body,
    refuse_unknown_query,
)
from omoide.api.http.query_numbers import QueryNumbers
from omoide.api.http.raced import RacedErase
from omoide.api.http.routes import chat, context, keys, memories, search, sessions, system
from omoide.api.http.routes import transfer as transfer_routes
from omoide.api.http.schemas import errors
from omoide.api.http.schemas.common import STORAGE_MEANING
from omoide.api.http.uploads import clear_stale_uploads
from omoide.api.http.validation_errors import validation_message
from omoide.api.mcp import McpEndpoint
from omoide.api.mcp.http import error_refusal, internal_error_response, refusal_response
from omoide.engine.errors import named
from omoide.errors import OmoideError
from omoide.wiring import Omoide

__all__ = ["create_app"]

logger = logging.getLogger(__name__)


def create_app(
    omoide: Omoide,
    *,
    start_workers: bool = True,
    extra_routers: tuple[Any, ...] = (),
    on_shutdown: Callable[[], None] | None = None,
    give_up: threading.Event | None = None,
) -> FastAPI:
    """The app serving ``omoide``; ``on_shutdown`` runs (in a worker thread: it may wait for
    an erase's owed scrub) as its lifespan ends, after the workers stopped (in a worker thread
    too, off the event loop): their jobs mid-run waited for (``JobRunner.stop``) until
    ``give_up`` is set (``omoide serve``: a second Ctrl+C)."""
    mcp = McpEndpoint(omoide, host=omoide.settings.host)

    @contextlib.asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        with contextlib.suppress(OSError):  # a read-only folder holds none it could remove
            clear_stale_uploads(omoide.settings.data_dir)
        if start_workers:
            omoide.runner.start()
            omoide.warm_up()
        # run as the app ends, last first, each whatever failed before it (a chat client that
        # fails to close leaves no worker running, no store open)
        async with contextlib.AsyncExitStack() as ending:
            if on_shutdown is not None:
                ending.push_async_callback(run_in_threadpool, on_shutdown)
            if start_workers:  # off the event loop: it waits up to 10 s for the jobs mid-run,
                # and on the loop it held up everything else the loop had to do meanwhile
                ending.push_async_callback(run_in_threadpool, omoide.runner.stop, give_up=give_up)
            if omoide.chat_upstream is not None:
                ending.push_async_callback(omoide.chat_upstream.aclose)
            async with mcp.running():  # the MCP SDK's session manager lives as long as the app
                yield

    app = FastAPI(
        title="Omoide",
        version=__version__,
        lifespan=lifespan,
        dependencies=[
            Depends(record_route),
            Depends(refuse_refused_header),
            Depends(refuse_refused_body),
            Depends(refuse_unknown_query),
            Depends(refuse_unexpected_body),
        ],
        docs_url=None,
        redoc_url=None,  # /docs is served offline by the dashboard
        description="Long-term memory for AI personas: FSRS forgetting, bi-temporal "
        "facts, hybrid search. Authenticate with `Authorization: Bearer`.",
    )
    app.state.omoide = omoide
    app.state.metrics = Metrics()
    app.state.mcp = mcp
    routers = (
        system.router,
        memories.router,
        search.router,
        sessions.router,
        context.router,
        chat.router,
        keys.router,
        transfer_routes.router,
        *extra_routers,
    )
    for router in routers:
        app.include_router(router)
    app.add_route("/mcp", mcp, include_in_schema=False)  # streamable HTTP MCP, Bearer = persona
    install_dashboard(app, omoide)  # /, /login, /p/{persona}/…, /docs, /static
    # a request the connection refuses before the app runs (protocol.py): a page's URL gets
    # the dashboard's error page, as every refusal of it does
    app.state.refusal_page = lambda path, status, message: _page_answer(app, path, status, message)
    _declare_app_wide_errors(app)
    _install_error_handlers(app)
    # Inner to outer: the guard sees every body before a route does; the access log
    # (and its metrics) sees every reply.
    app.add_middleware(RacedErase, refused=_refused)  # a route's lost race: its 409, there
    # the API's routes and the dashboard's pages (``page=``, ``after=``) alike
    app.add_middleware(
        QueryNumbers, routes=[r for router in (*routers, *DASHBOARD_ROUTERS) for r in router.routes]
    )
    app.add_middleware(
        BodyGuard,
        max_body_bytes=omoide.settings.max_body_bytes,
        streamed={"/api/import/": (omoide.settings.max_import_bytes, "OMOIDE_MAX_IMPORT_BYTES")},
        door=lambda path, status, code, message: _door(app, path, status, code, message),
    )
    app.add_middleware(HeadAsGet)
    # outermost: one log line and one count per request, 413s included
    app.add_middleware(AccessLog, metrics=app.state.metrics)
    return app


_BODILESS_413 = (
    "A body was sent and is larger than the server's limit (OMOIDE_MAX_BODY_BYTES), "
    "answered before the route is found; this route takes no body, and refuses a "
    "smaller one with 422."
)
_APP_WIDE_422 = (
    "An unknown or repeated query parameter, a numeric query parameter that is not a "
    "number as JSON writes it, a body sent to a route that takes "
    "none, or an X-Omoide-Persona / X-Omoide-Session header sent twice or not in "
    "ASCII; error.field names it."
)
_ERROR_BODY = {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorBody"}}}


def _declare_app_wide_errors(app: FastAPI) -> None:
    """Declare on every operation the statuses the layers around the routes give (the guard's
    413 for any body over the limit; under /api and /v1 the app-wide 422s of
    ``query_check``) and the storage's (:data:`STORAGE_MEANING`: 503 everywhere, 507 on every
    operation but /health, which only pings), so the OpenAPI document lists what can happen
    and only that."""
    build = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            document = build()
            for path, operations in document.get("paths", {}).items():
                for operation in operations.values():
                    _declare(operation, api=path.startswith(("/api/", "/v1/")))
                    _declare_storage(operation["responses"], writes=path != "/health")
                    operation["responses"] = dict(sorted(operation["responses"].items()))
            app.openapi_schema = document
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]


def _declare(operation: dict[str, Any], *, api: bool) -> None:
    responses = operation.setdefault("responses", {})
    if "413" not in responses:
        text = _BODILESS_413 if "requestBody" not in operation else errors(413)[413]["description"]
        responses["413"] = {"description": text, "content": _ERROR_BODY}
    if api and "422" not in responses:
        responses["422"] = {"description": _APP_WIDE_422, "content": _ERROR_BODY}


def _declare_storage(responses: dict[str, Any], *, writes: bool) -> None:
    """The storage's 503 (joined to a 503 the route declares, the chat proxy's upstream) and,
    where the operation may write, its 507."""
    for status in (503, 507) if writes else (503,):
        text = STORAGE_MEANING[status]
        if (held := responses.get(str(status))) is not None:
            text = f"{held['description']} Or: {text}"
        responses[str(status)] = {"description": text, "content": _ERROR_BODY}


def _install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(OmoideError)
    async def omoide_error(request: Request, exc: OmoideError) -> Response:
        return _refused(request.scope.get("path", ""), exc)

    @app.exception_handler(RequestValidationError)
    async def validation_error(_: Request, exc: RequestValidationError) -> JSONResponse:
        message, where = validation_message(list(exc.errors()))
        return JSONResponse(
            error_body("invalid_input", message, field=where or None), status_code=422
        )

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
        headers = dict(exc.headers or {})
        message = str(exc.detail)
        path = request.scope.get("path", "")  # as routed (request.url's is percent-encoded)
        page = reader_of(path) is Reader.PAGE  # /mcp answers its own errors (JSON-RPC)
        status = exc.status_code
        if exc.status_code == 405:  # every method of the path, not only the first route's
            headers["Allow"] = _allowed_methods(app, path)
            if message == "Method Not Allowed":  # the router's own words: which, and what is
                message = (
                    f"{request.method} is not allowed on {_shown(path)}; it takes "
                    f"{headers['Allow']}"
                )
        elif exc.status_code == 404 and page and (refused := path_controls(path)):
            status, message = 422, refused
        elif exc.status_code == 404 and message == "Not Found":  # no route has this path
            message = (
                f"no page {_shown(path)}: the dashboard starts at /"
                if page
                else f"no route {_shown(path)}: the API's routes are listed at /docs "
                "(OpenAPI: /openapi.json)"
            )
        if page:
            response = error_page(app.state.dashboard, status, message)
            response.headers.update(headers)
            return response
        return JSONResponse(
            error_body(code, message), status_code=exc.status_code, headers=headers or None
        )

    @app.exception_handler(Exception)
    async def unexpected(request: Request, exc: Exception) -> Response:
        logger.exception("unhandled error: %s", type(exc).__name__)
        message = INTERNAL_MESSAGE
        reader = reader_of(request.scope.get("path", ""))
        if reader is Reader.PAGE:
            return error_page(app.state.dashboard, 500, message)
        if reader is Reader.MCP:
            return internal_error_response(message)
        return JSONResponse(error_body("internal", message), status_code=500)


def _refused(path: str, exc: OmoideError) -> Response:
    """An :class:`OmoideError` that reached the app's handlers (or :class:`RacedErase`: a
    write that lost a race with an erase): under /mcp as its JSON-RPC refusal (the API's error
    code in ``data.code``), which an MCP client reads, where the API's JSON error body was
    shown as "Server returned an error response"; elsewhere the API's error body."""
    return error_refusal(exc) if reader_of(path) is Reader.MCP else error_response(exc)


def _shown(path: str) -> str:
    """``path`` as a 404 or 405 names it: as sent, its control characters escaped as JSON
    escapes them and cut at 200 characters (a 5,000-character path made a 5 KB message, and
    ``/p/%0A`` a line break in it); DEL, the C1 controls and the bidirectional overrides too,
    which JSON's quoting leaves raw (``/api/x%E2%80%AE`` reversed what the message said after
    it), as every message quoting a caller's text shows them (``engine.errors.named``)."""
    return named(path, 200)[1:-1]


class Reader(enum.StrEnum):
    """Who reads an error answered for a path, which decides the error's shape."""

    PAGE = "page"  # a browser on the dashboard: its HTML error page
    MCP = "mcp"  # an MCP client at /mcp: a JSON-RPC error
    API = "api"  # everything else: the API's one JSON error body


def reader_of(path: str) -> Reader:
    """Who reads an error for ``path`` (decoded, as ASGI gives it): the one decision behind
    the guard's refusals at the door (:func:`_door`) and the app's error handlers."""
    if is_page(path):
        return Reader.PAGE
    return Reader.MCP if path == "/mcp" else Reader.API


def _page_answer(app: FastAPI, path: str, status: int, message: str) -> Response | None:
    """The dashboard's error page for a refusal of ``path`` when a browser reads it
    (:func:`reader_of`), else None (the refusal's own answer)."""
    return (
        error_page(app.state.dashboard, status, message) if reader_of(path) is Reader.PAGE else None
    )


def _door(app: FastAPI, path: str, status: int, code: str, message: str) -> Response | None:
    """The answer to the guard's refusal of ``path`` before any route: the dashboard's error
    page, /mcp's JSON-RPC error, or None (the API's JSON)."""
    page = _page_answer(app, path, status, message)
    if page is not None:
        return page
    return refusal_response(status, code, message) if reader_of(path) is Reader.MCP else None


def _allowed_methods(app: FastAPI, path: str) -> str:
    """The methods some route of ``path`` answers (asked of the router itself, so routes in
    included routers count too). A mount (the dashboard's static files) matches every method
    but answers only GET and HEAD: "POST is not allowed on /static/…; it takes GET, HEAD,
    POST, PUT …" contradicted itself."""
    allowed = []
    for method in ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"):
        scope = {
            "type": "http",
            "method": method,
            "path": path,
            "root_path": "",
            "headers": [],
            "query_string": b"",
        }
        if any(
            route.matches(scope)[0] == Match.FULL
            and (method in ("GET", "HEAD") or not isinstance(route, Mount))
            for route in app.router.routes
        ):
            allowed.append(method)
    if "GET" in allowed and "HEAD" not in allowed:  # HeadAsGet answers it
        allowed.insert(allowed.index("GET") + 1, "HEAD")
    return ", ".join(allowed)
