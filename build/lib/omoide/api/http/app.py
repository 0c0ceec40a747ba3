"""The FastAPI application: routers, the single error shape, metrics, body limit, lifespan."""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import AsyncIterator
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from omoide import __version__
from omoide.api.errors import error_body
from omoide.api.http.dashboard import install_dashboard
from omoide.api.http.metrics import Metrics
from omoide.api.http.routes import chat, context, memories, search, sessions, system
from omoide.api.http.routes import transfer as transfer_routes
from omoide.api.mcp import McpEndpoint
from omoide.errors import OmoideError
from omoide.wiring import Omoide

__all__ = ["MAX_BODY_BYTES", "create_app"]

logger = logging.getLogger(__name__)

MAX_BODY_BYTES = 1_000_000


def create_app(omoide: Omoide, *, start_workers: bool = True,
               extra_routers: tuple[Any, ...] = ()) -> FastAPI:
    mcp = McpEndpoint(omoide, host=omoide.settings.host)

    @contextlib.asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        if start_workers:
            omoide.runner.start()
        try:
            async with mcp.running():  # the MCP SDK's session manager lives as long as the app
                yield
        finally:
            if omoide.chat_upstream is not None:
                await omoide.chat_upstream.aclose()
            if start_workers:
                omoide.runner.stop()

    app = FastAPI(title="Omoide", version=__version__, lifespan=lifespan,
                  docs_url=None, redoc_url=None,  # /docs is served offline by the dashboard
                  description="Long-term memory for AI personas: FSRS forgetting, bi-temporal "
                              "facts, hybrid search. Authenticate with `Authorization: Bearer`.")
    app.state.omoide = omoide
    app.state.metrics = Metrics()
    for router in (system.router, memories.router, search.router, sessions.router,
                   context.router, chat.router, transfer_routes.router,
                   *extra_routers):
        app.include_router(router)
    app.add_route("/mcp", mcp, include_in_schema=False)  # streamable HTTP MCP, Bearer = persona
    install_dashboard(app, omoide)  # /, /login, /p/{persona}/…, /docs, /static
    _install_error_handlers(app)
    _install_middleware(app)
    return app


def _install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(OmoideError)
    async def omoide_error(_: Request, exc: OmoideError) -> JSONResponse:
        headers = {"WWW-Authenticate": "Bearer"} if exc.status == 401 else None
        return JSONResponse(exc.to_dict(), status_code=exc.status, headers=headers)

    @app.exception_handler(RequestValidationError)
    async def validation_error(_: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {}
        where = ".".join(str(p) for p in first.get("loc", ()) if p not in ("query", "body"))
        message = f"{where}: {first.get('msg', 'invalid value')}" if where else "invalid request"
        return JSONResponse(error_body("invalid_input", message, field=where or None),
                            status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
        return JSONResponse(error_body(code, str(exc.detail)), status_code=exc.status_code)

    @app.exception_handler(Exception)
    async def unexpected(_: Request, exc: Exception) -> JSONResponse:
        logger.exception("unhandled error: %s", type(exc).__name__)
        return JSONResponse(error_body("internal", "internal error; see the server log"),
                            status_code=500)


def _install_middleware(app: FastAPI) -> None:
    @app.middleware("http")
    async def limits_and_metrics(request: Request, call_next: Any) -> Any:
        started = time.perf_counter()
        length = request.headers.get("content-length")
        if length is not None and length.isdigit() and int(length) > MAX_BODY_BYTES:
            response: Any = JSONResponse(error_body(
                "payload_too_large", f"request body is larger than {MAX_BODY_BYTES:,} bytes"),
                status_code=413)
        else:
            response = await call_next(request)
        route = request.scope.get("route")
        template = getattr(route, "path", "unmatched")
        request.app.state.metrics.observe(request.method, template, response.status_code,
                                          time.perf_counter() - started)
        return response
