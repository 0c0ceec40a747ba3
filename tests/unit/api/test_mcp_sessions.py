"""The MCP session count (``api/mcp/sessions.py``) read from requests and replies, on a fake
clock: a session opens with the reply naming it, holds while a request of it is in flight, and
ends with its DELETE, a 404 for it, or the idle time without a request (the SDK's rule)."""

from __future__ import annotations

import anyio
from starlette.types import Message, Scope, Send

from omoide.api.mcp.sessions import SessionCount


class Clock:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


def _scope(method: str = "POST", session: str | None = None) -> Scope:
    headers = [] if session is None else [(b"mcp-session-id", session.encode())]
    return {"type": "http", "method": method, "path": "/mcp", "headers": headers}


def _reply(status: int, session: str | None = None) -> list[Message]:
    headers = [] if session is None else [(b"mcp-session-id", session.encode())]
    start = {"type": "http.response.start", "status": status, "headers": headers}
    return [start, {"type": "http.response.body", "body": b"{}"}]


async def _sent(_: Message) -> None:
    return None


def _request(count: SessionCount, scope: Scope, reply: list[Message]) -> None:
    async def handle(send: Send) -> None:
        for message in reply:
            await send(message)

    anyio.run(count.watch, scope, _sent, handle)


def test_a_session_opens_with_its_initialize_reply_and_ends_after_the_idle_time() -> None:
    clock = Clock()
    count = SessionCount(60.0, now=clock)
    _request(count, _scope(), _reply(200, "s1"))
    _request(count, _scope(), _reply(503))  # refused: no session
    _request(count, _scope(), _reply(400, "s2"))  # a refused opening request holds none
    assert count.open() == 1
    clock.t += 59
    _request(count, _scope(session="s1"), _reply(200))  # a request restarts the countdown
    clock.t += 59
    assert count.open() == 1
    clock.t += 1
    assert count.open() == 0


def test_a_session_in_flight_holds_and_a_delete_or_a_404_ends_it() -> None:
    clock = Clock()
    count = SessionCount(60.0, now=clock)
    for session in ("s1", "s2", "s3"):
        _request(count, _scope(), _reply(200, session))

    async def long_stream(send: Send) -> None:  # an open event stream (GET) of s1
        clock.t += 600
        assert count.open() == 1  # s2 and s3 idled out, s1 is held by its stream
        for message in _reply(200):
            await send(message)

    anyio.run(count.watch, _scope("GET", "s1"), _sent, long_stream)
    assert count.open() == 1
    _request(count, _scope(), _reply(200, "s4"))
    _request(count, _scope("DELETE", "s1"), _reply(200))
    _request(count, _scope(session="s4"), _reply(404))  # the SDK no longer knows it
    assert count.open() == 0
    _request(count, _scope(), _reply(200, "s5"))
    count.clear()  # the SDK's session manager stopped
    assert count.open() == 0
