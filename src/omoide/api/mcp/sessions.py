"""The streamable HTTP MCP sessions open now (the ``omoide_mcp_sessions`` gauge), counted from
the requests ``/mcp`` hands the SDK and its replies: the SDK keeps its session table private
and offers no count (and no hook at a session's start or end that a server can reach).

A session is open from the reply that names it (``Mcp-Session-Id``, status under 400) to a
request that named none (its ``initialize``), until the SDK ends it: a DELETE of it answered
under 400; a 404 to a request that names it (the SDK no longer knows it); or ``idle_seconds``
without a request of it in flight, the rule the SDK closes an idle session by (both are given
``OMOIDE_MCP_SESSION_IDLE_MINUTES``; a request in flight, an open event stream included, holds
a session, and its countdown starts when the last one ends). Bookkeeping on the event loop
only: no lock, no I/O.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from starlette.types import Message, Scope, Send

from omoide.api.http.request_head import scope_header

__all__ = ["SessionCount"]

_SESSION_HEADER = b"mcp-session-id"


@dataclass
class _Session:
    in_flight: int = 0
    idle_since: float = 0.0  # when its last request in flight ended


class SessionCount:
    """The sessions open now (module docstring); ``now`` is a monotonic clock in seconds."""

    def __init__(self, idle_seconds: float, now: Callable[[], float] = time.monotonic) -> None:
        self.idle_seconds = idle_seconds
        self._now = now
        self._sessions: dict[str, _Session] = {}

    def open(self) -> int:
        self._expire()
        return len(self._sessions)

    def clear(self) -> None:
        """Every session ended (the SDK's session manager stopped)."""
        self._sessions.clear()

    async def watch(
        self, scope: Scope, send: Send, handle: Callable[[Send], Awaitable[None]]
    ) -> None:
        """Run ``handle`` (the SDK answering the request of ``scope`` through the ``send`` it is
        given) and count what its reply says of the request's session."""
        self._expire()
        named = scope_header(scope, _SESSION_HEADER)
        session = self._sessions.get(named) if named is not None else None
        if session is not None:
            session.in_flight += 1
        status: int | None = None

        async def replying(message: Message) -> None:
            nonlocal session, status
            if message["type"] == "http.response.start":
                status = message["status"]
                opened = _header(message, _SESSION_HEADER) if named is None else None
                if opened is not None and status < 400:
                    session = self._sessions[opened] = _Session(in_flight=1)
            await send(message)

        try:
            await handle(replying)
        finally:
            if session is not None:
                session.in_flight -= 1
                session.idle_since = self._now()
            ended = status == 404 or (
                scope.get("method") == "DELETE" and status is not None and status < 400
            )
            if named is not None and ended:
                self._sessions.pop(named, None)

    def _expire(self) -> None:
        deadline = self._now() - self.idle_seconds
        for key in [
            key for key, s in self._sessions.items() if not s.in_flight and s.idle_since <= deadline
        ]:
            del self._sessions[key]


def _header(message: Message, wanted: bytes) -> str | None:
    for name, value in message.get("headers", ()):
        if name.lower() == wanted:
            return bytes(value).decode("latin-1")
    return None
