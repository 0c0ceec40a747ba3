"""A write that lost a race with an erase, answered as the 409 it is, inside the middleware.

The store refuses such a write with its driver's foreign-key error (the persona, session or
memory it refers to was deleted between the write's lookup and its insert; the transaction
rolled back: :func:`omoide.api.errors.raced_erase`). Answered by the app's last-resort
handler, it was a 409 to the client, but Starlette re-raises after that handler: uvicorn
logged a full traceback ("Exception in ASGI application") for a refusal, closed the
connection (a client reusing it got "connection reset by peer" on its next request), and the
metrics never counted it. Caught here, below the metrics and the access log, it is an answer
like any other refusal.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from starlette.responses import Response

from omoide.api.errors import raced_erase
from omoide.errors import OmoideError

__all__ = ["RacedErase"]

logger = logging.getLogger(__name__)

Refused = Callable[[str, OmoideError], Response]


class RacedErase:
    """Pure ASGI: a foreign-key refusal raised by a route, before its answer started, becomes
    ``refused(path, conflict)``; any other exception goes on to the app's last resort."""

    def __init__(self, app: Any, refused: Refused) -> None:
        self.app = app
        self.refused = refused

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def sending(message: Any) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, receive, sending)
        except Exception as exc:
            raced = raced_erase(exc)
            if raced is None or started:
                raise
            logger.info("write lost a race with an erase: %s", type(exc).__name__)
            await self.refused(scope.get("path", ""), raced)(scope, receive, send)
