"""MCP over streamable HTTP at ``/mcp``, in the same process as the REST API: the persona comes
from the Bearer key. Driven by the SDK's own client against a live uvicorn server."""

from __future__ import annotations

import anyio
import httpx
import pytest
from mcp_checks import (
    INITIALIZE,
    check_context_tools,
    check_done_when,
    check_episode_tools,
    check_memory_tools,
    check_tool_list,
    http_client,
    ok,
    tool_error,
)
from omoide_testing import Holding, LiveServer, wait_for_jobs

ACCEPT = {"Accept": "application/json, text/event-stream"}


@pytest.mark.parametrize(
    ("authorization", "status", "code"),
    [
        pytest.param(None, 401, "unauthorized", id="no-key"),
        pytest.param("Bearer omo_p_not-a-real-key", 401, "unauthorized", id="unknown-key"),
        pytest.param("Basic dXNlcjpwYXNz", 401, "unauthorized", id="not-bearer"),
    ],
)
def test_mcp_http_refuses_a_request_without_a_valid_key(
    server: LiveServer, authorization: str | None, status: int, code: str
) -> None:
    headers = {**ACCEPT, **({"Authorization": authorization} if authorization else {})}
    reply = httpx.post(f"{server.url}/mcp", json=INITIALIZE, headers=headers)
    assert reply.status_code == status
    assert reply.json()["error"]["data"]["code"] == code  # a JSON-RPC error, the API's code
    assert reply.json()["error"]["code"] == -32600 and reply.json()["id"] is None
    assert reply.headers["www-authenticate"] == "Bearer"


def test_mcp_http_refuses_the_admin_key_and_says_to_use_a_persona_key(server: LiveServer) -> None:
    reply = httpx.post(
        f"{server.url}/mcp",
        json=INITIALIZE,
        headers={**ACCEPT, "Authorization": f"Bearer {server.admin_key}"},
    )
    assert reply.status_code == 403
    assert reply.json()["error"]["data"]["code"] == "forbidden"
    assert "persona's API key" in reply.json()["error"]["message"]


def test_mcp_http_lists_exactly_the_eleven_tools(server: LiveServer) -> None:
    key = server.create_persona("rin")

    async def scenario() -> None:
        async with http_client(server.url, key) as client:
            await check_tool_list(client)

    anyio.run(scenario)


def test_mcp_http_memory_tools_work_and_fail_cleanly(server: LiveServer) -> None:
    key = server.create_persona("rin")

    async def scenario() -> None:
        async with http_client(server.url, key) as client:
            await check_memory_tools(client)

    anyio.run(scenario)


def test_mcp_http_episode_tools_work_and_fail_cleanly(server: LiveServer) -> None:
    key = server.create_persona("rin")

    async def drain() -> None:
        wait_for_jobs(server.omoide, "rin")

    async def scenario() -> None:
        async with http_client(server.url, key) as client:
            await check_episode_tools(client, drain)

    anyio.run(scenario)


def test_mcp_http_context_tools_work_and_fail_cleanly(server: LiveServer) -> None:
    key = server.create_persona("rin")

    async def scenario() -> None:
        async with http_client(server.url, key) as client:
            await check_context_tools(client)

    anyio.run(scenario)


def test_mcp_http_client_begins_stores_searches_renames_and_sees_blocks(server: LiveServer) -> None:
    key = server.create_persona("rin")

    async def scenario() -> None:
        async with http_client(server.url, key) as client:
            await check_done_when(client, server.omoide, "rin")

    anyio.run(scenario)


def test_mcp_http_key_scopes_every_tool_to_its_own_persona(server: LiveServer) -> None:
    rin, aoi = server.create_persona("rin"), server.create_persona("aoi")

    async def scenario() -> None:
        async with http_client(server.url, rin) as client:
            created = await ok(client, "memory_create", content="Rin's secret: the cake recipe")
        key = created.structured_content["memory"]["key"]
        async with http_client(server.url, aoi) as client:
            found = await ok(client, "memory_search", query="secret cake recipe")
            assert found.structured_content["results"] == []
            assert found.structured_content["persona"] == "aoi"
            result = await client.call_tool("memory_read", {"key": key})
            assert result.is_error
            assert "persona 'aoi'" in result.content[0].text

    anyio.run(scenario)


def test_mcp_http_memory_delete_with_purge_erases_the_text(
    server: LiveServer, holding: Holding
) -> None:
    key = server.create_persona("rin")
    marker = "ZQXJV-4827"

    async def scenario() -> None:
        async with http_client(server.url, key) as client:
            tools = {t.name: t for t in (await client.list_tools()).tools}
            schema = tools["memory_delete"].input_schema["properties"]["purge"]
            assert schema["type"] == "boolean" and "forget" in schema["description"]
            assert "forget" in (tools["memory_delete"].description or "")
            created = await ok(client, "memory_create", content=f"The user's PIN is {marker}")
            mem = created.structured_content["memory"]["key"]
            wait_for_jobs(server.omoide, "rin")
            assert holding(marker)
            purged = await ok(client, "memory_delete", key=mem, purge=True)
            assert purged.structured_content == {
                "persona": "rin",
                "key": mem,
                "status": "purged",
                "also_purged": [],
                "said_in": [],
                "scrub_pending": False,
            }
            assert holding(marker) == []
            assert mem in await tool_error(client, "memory_read", key=mem)
            assert mem in await tool_error(client, "memory_delete", key=mem, purge=True)

    anyio.run(scenario)
