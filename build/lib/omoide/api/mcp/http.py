"""Streamable HTTP MCP at ``/mcp``, in the same process as the REST API.

The persona comes from the ``Authorization: Bearer`` key: a request without a valid persona key
is refused here with the API's single JSON error body (401 without a key or with an unknown
one, 403 for the admin key, which has no persona to act as) before it reaches the SDK. Tools
authenticate again per call (``server.bearer_persona``), so the session id never decides who
the caller is.

The SDK's session manager can run only once, so a fresh one is made each time the FastAPI
lifespan starts (:meth:`McpEndpoint.running`).
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator

import anyio.to_thread
from mcp.server.mcpserver import MCPServer
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from starlette.responses import JSONResponse
from starlette.types import Receive, Scope, Send

from omoide.api.errors import error_body
from omoide.api.mcp.server import bearer_persona, build_mcp_server, persona_for_key
from omoide.errors import OmoideError
from omoide.wiring import Omoide

__all__ = ["McpEndpoint"]

logger = logging.getLogger(__name__)


class McpEndpoint:
    """The ASGI app behind ``/mcp``: Bearer check, then the SDK's streamable HTTP transport."""

    def __init__(self, omoide: Omoide, *, host: str = "127.0.0.1") -> None:
        self.omoide = omoide
        self.host = host
        self.server: MCPServer = build_mcp_server(omoide, bearer_persona(omoide.auth))
        self._manager: StreamableHTTPSessionManager | None = None

    @contextlib.asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        """Run the SDK session manager for as long as the enclosing app lifespan."""
        # streamable_http_app() makes a new session manager; we serve it through our own
        # route (for the auth check), so only the manager is kept.
        self.server.streamable_http_app(streamable_http_path="/mcp", host=self.host)
        manager = self.server.session_manager
        async with manager.run():
            self._manager = manager
            logger.info("MCP streamable HTTP ready at /mcp")
            try:
                yield
            finally:
                self._manager = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        refusal = await self._refusal(scope)
        if refusal is not None:
            await refusal(scope, receive, send)
            return
        if self._manager is None:
            body = error_body("unavailable", "MCP is not running (the server is starting or "
                                             "stopping); retry in a moment")
            await JSONResponse(body, status_code=503)(scope, receive, send)
            return
        await self._manager.handle_request(scope, receive, send)

    async def _refusal(self, scope: Scope) -> JSONResponse | None:
        header = _header(scope, b"authorization")
        try:
            await anyio.to_thread.run_sync(persona_for_key, self.omoide.auth, header)
        except OmoideError as exc:
            headers = {"WWW-Authenticate": "Bearer"} if exc.status == 401 else None
            return JSONResponse(exc.to_dict(), status_code=exc.status, headers=headers)
        return None


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key.lower() == name:
            return bytes(value).decode("latin-1")
    return None
