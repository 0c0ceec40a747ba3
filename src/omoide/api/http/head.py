"""HEAD on every GET route: answered as the GET would be, headers only (RFC 9110 §9.3.2;
uptime checkers probe ``HEAD /health``). FastAPI routes declare GET alone, so without this a
HEAD was a 405. ``/mcp`` keeps its own methods (a GET there opens an event stream).
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["HeadAsGet"]


class HeadAsGet:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] != "http"
            or scope.get("method") != "HEAD"
            or scope.get("path", "").startswith("/mcp")
        ):
            await self.app(scope, receive, send)
            return

        async def headers_only(message: Message) -> None:
            if message["type"] == "http.response.body":
                if not message.get("more_body", False):
                    await send({"type": "http.response.body", "body": b""})
                return
            await send(message)

        await self.app({**scope, "method": "GET"}, receive, headers_only)
