"""MCP sessions are capped and expire when idle: 1,000 ``initialize`` calls never hold more
than the cap, and idle sessions are closed (the SDK client then starts a new one)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import anyio
import httpx
import pytest
from mcp_checks import INITIALIZE, http_client, ok
from omoide_testing import LiveServer, serve_in_thread

from omoide.config import Settings
from omoide.embed.hashing import HashEmbedder
from omoide.wiring import build

ACCEPT = {"Accept": "application/json, text/event-stream"}
ADMIN = "omo_admin_session-limits"


@pytest.fixture
def small_server(data_dir: Path) -> Iterator[LiveServer]:
    from omoide.api.http.app import create_app

    settings = Settings.from_env(
        {"OMOIDE_MCP_MAX_SESSIONS": "20", "OMOIDE_MCP_SESSION_IDLE_MINUTES": "0.02"},  # 1.2 s
        data_dir=data_dir,
    )
    app = build(settings, embedder=HashEmbedder(), llm=None)
    app.auth.ensure_admin_key(data_dir, ADMIN)
    uv, thread, url = serve_in_thread(create_app(app))
    yield LiveServer(url=url, admin_key=ADMIN, omoide=app)
    uv.should_exit = True
    thread.join(10)
    app.close()


def sessions(server: LiveServer) -> int:
    with server.admin() as admin:
        text = admin.get("/metrics").text
    return int(
        next(
            line.split()[-1]
            for line in text.splitlines()
            if line.startswith("omoide_mcp_sessions ")
        )
    )


def test_a_thousand_initialize_calls_stay_under_the_cap(small_server: LiveServer) -> None:
    key = small_server.create_persona("rin")
    headers = {**ACCEPT, "Authorization": f"Bearer {key}"}
    statuses: dict[int, int] = {}
    most = 0
    with httpx.Client(base_url=small_server.url, headers=headers, timeout=30) as c:
        for i in range(1000):
            status = c.post("/mcp", json=INITIALIZE).status_code
            statuses[status] = statuses.get(status, 0) + 1
            if i % 50 == 0:
                most = max(most, sessions(small_server))
    assert set(statuses) <= {200, 503}
    assert statuses.get(503, 0) > 0  # the cap was reached and held
    assert most <= 20
    deadline = time.monotonic() + 20
    while sessions(small_server) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert sessions(small_server) == 0  # every idle session was closed


def test_clients_work_under_the_cap_and_after_sessions_expired(small_server: LiveServer) -> None:
    key = small_server.create_persona("rin")

    async def scenario() -> None:
        async with http_client(small_server.url, key) as client:
            await ok(client, "memory_create", content="Sessions expire when idle")
        assert sessions(small_server) <= 1
        deadline = time.monotonic() + 30  # idle for 1.2 s, then closed (later if loaded)
        while sessions(small_server):
            assert time.monotonic() < deadline, "an idle session was not closed"
            await anyio.sleep(0.1)
        async with http_client(small_server.url, key) as client:
            found = await ok(client, "memory_search", query="sessions expire")
            assert found.structured_content["results"]

    anyio.run(scenario)


def test_session_limits_are_checked_at_start() -> None:
    from omoide.errors import InvalidInput

    with pytest.raises(InvalidInput, match="MAX_SESSIONS"):
        Settings.from_env({"OMOIDE_MCP_MAX_SESSIONS": "0"})
    with pytest.raises(InvalidInput, match="IDLE_MINUTES"):
        Settings.from_env({"OMOIDE_MCP_SESSION_IDLE_MINUTES": "nan"})


def test_the_sessions_gauge_counts_sdk_clients_as_they_come_and_go(server: LiveServer) -> None:
    """``omoide_mcp_sessions`` is our own count (the SDK's table is private): each SDK client's
    session from its ``initialize`` until it ends the session (its DELETE on leaving). A
    client of the sessionless 2026 protocol holds none."""
    key = server.create_persona("rin")

    async def until(count: int) -> int:
        # a session's connection closes just after the DELETE's reply
        deadline = time.monotonic() + 30
        while sessions(server) != count and time.monotonic() < deadline:
            await anyio.sleep(0.05)
        return sessions(server)

    async def scenario() -> None:
        assert sessions(server) == 0
        async with http_client(server.url, key, mode="legacy") as first:
            await ok(first, "memory_create", content="Counted sessions come and go")
            assert sessions(server) == 1
            async with http_client(server.url, key) as sessionless:
                await ok(sessionless, "memory_stats")
                assert sessions(server) == 1
            async with http_client(server.url, key, mode="legacy") as second:
                await ok(second, "memory_stats")
                assert sessions(server) == 2
            assert await until(1) == 1
            await ok(first, "memory_stats")  # the first session is still open and answers
        assert await until(0) == 0

    anyio.run(scenario)
