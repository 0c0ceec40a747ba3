"""Helpers for the MCP end-to-end tests: connecting the SDK's own client over stdio or
streamable HTTP, calling tools, and the checks that both transports must pass.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio
import httpx
import httpx2
from mcp.client import Client
from mcp.client.stdio import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.types import CallToolResult

from omoide.api.mcp import build_mcp_server, fixed_persona
from omoide.wiring import Omoide

OMOIDE_BIN = Path(sys.executable).with_name("omoide")

# The first message a client sends (JSON-RPC ``initialize``), for tests that speak the protocol
# without the SDK's client: raw HTTP (:func:`raw_initialized`) or raw stdio lines.
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "probe", "version": "1"},
    },
}
# The notification that follows its answer, and the two as the lines that open a stdio session.
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}
OPENING_LINES = (json.dumps(INITIALIZE), json.dumps(INITIALIZED))

ALL_TOOLS = {
    "session_begin",
    "session_record",
    "session_end",
    "get_context",
    "update_context",
    "memory_create",
    "memory_read",
    "memory_update",
    "memory_delete",
    "memory_search",
    "memory_stats",
    "memory_history",
    "user_state_history",
    "episode_search",
}


def stdio_params(
    data_dir: Path, persona: str, environ: dict[str, str] | None = None
) -> StdioServerParameters:
    """How a desktop client starts Omoide (docs/mcp.md), with the fast hash embedder
    (``environ``: the store's variables, e.g. ``OMOIDE_DATABASE_URL``)."""
    return StdioServerParameters(
        command=str(OMOIDE_BIN),
        args=["mcp", "--persona", persona, "--data", str(data_dir)],
        env={"OMOIDE_EMBEDDER": "hash", **(environ or {})},
    )


@contextlib.asynccontextmanager
async def http_client(url: str, key: str | None, *, mode: str = "auto") -> AsyncIterator[Client]:
    """The SDK's client at ``url``/mcp; ``mode="legacy"`` opens a session with the
    ``initialize`` handshake (as desktop clients of the 2025 protocol do), ``"auto"`` (the
    SDK's default) may speak the sessionless 2026 protocol."""
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    async with (
        httpx2.AsyncClient(headers=headers, timeout=30) as http,
        Client(streamable_http_client(f"{url}/mcp", http_client=http), mode=mode) as client,
    ):
        yield client


async def call(client: Client, name: str, **arguments: Any) -> CallToolResult:
    return await client.call_tool(name, arguments)


async def ok(client: Client, name: str, **arguments: Any) -> CallToolResult:
    """Call a tool that must succeed; returns the result (structured + text)."""
    result = await call(client, name, **arguments)
    assert not result.is_error, text_of(result)
    assert result.structured_content is not None
    assert text_of(result).strip()
    return result


async def tool_error(client: Client, name: str, **arguments: Any) -> str:
    """Call a tool that must fail cleanly; returns the error text the model sees."""
    result = await call(client, name, **arguments)
    assert result.is_error, result
    message = text_of(result)
    assert "Traceback" not in message
    assert "pydantic" not in message
    return message


def in_process_tool_error(app: Omoide, persona: str, name: str, **arguments: Any) -> str:
    """:func:`tool_error` through the SDK's client on ``app``'s own MCP server, bound to
    ``persona`` (no transport: for a test that holds the app)."""

    async def scenario() -> str:
        async with Client(build_mcp_server(app, fixed_persona(persona))) as client:
            return await tool_error(client, name, **arguments)

    return anyio.run(scenario)


def text_of(result: CallToolResult) -> str:
    return "\n".join(getattr(block, "text", "") for block in result.content)


# -- the checks both transports run -------------------------------------------------------


async def check_tool_list(client: Client) -> None:
    tools = {tool.name: tool for tool in (await client.list_tools()).tools}
    assert set(tools) == ALL_TOOLS
    for tool in tools.values():
        assert tool.description and "Example" in tool.description, tool.name
        assert tool.input_schema["type"] == "object"
    assert tools["memory_delete"].annotations.destructive_hint is True
    search_text = tools["memory_search"].description or ""  # both past marks text.py prints
    assert "[past: valid until …, superseded by …]" in search_text
    assert (
        "[past: never held: cancelled before its planned start …, superseded by …]" in search_text
    )
    for name in (
        "memory_read",
        "memory_search",
        "memory_stats",
        "memory_history",
        "get_context",
        "user_state_history",
    ):
        assert tools[name].annotations.read_only_hint is True, name
    assert tools["memory_search"].input_schema["properties"]["mode"]["enum"] == [
        "hybrid",
        "semantic",
        "keyword",
    ]
    assert set(tools["memory_search"].input_schema["properties"]) == {
        "query",
        "top_k",
        "mode",
        "tags",
        "date_range",
        "valid_at",
        "min_importance",
        "kind",
        "importance_weight",
        "include_episodes",
    }


async def check_memory_tools(client: Client) -> str:
    """Every memory tool's normal and error path; returns the key of a live memory."""
    created = await ok(
        client,
        "memory_create",
        content="The user's sister Mei lives in Osaka",
        kind="fact",
        importance=0.7,
        tags=["family"],
    )
    assert created.structured_content["status"] == "created"
    key = created.structured_content["memory"]["key"]
    assert key in text_of(created)
    again = await ok(client, "memory_create", content="The user's sister Mei lives in Osaka")
    assert again.structured_content["status"] == "duplicate"
    assert again.structured_content["duplicate_of"]["key"] == key
    assert "empty" in await tool_error(client, "memory_create", content="   ")
    assert "content" in await tool_error(client, "memory_create", content="")
    assert "importance" in await tool_error(client, "memory_create", content="x", importance=2)

    read = await ok(client, "memory_read", key=key)
    assert read.structured_content["content"] == "The user's sister Mei lives in Osaka"
    assert "mem_doesnotexist" in await tool_error(client, "memory_read", key="mem_doesnotexist")

    found = await ok(client, "memory_search", query="sister Osaka", top_k=3, tags=["family"])
    assert [hit["key"] for hit in found.structured_content["results"]] == [key]
    assert "mode" in await tool_error(client, "memory_search", query="Osaka", mode="fuzzy")
    assert "top_k" in await tool_error(client, "memory_search", query="Osaka", top_k=0)
    assert "date range" in await tool_error(
        client, "memory_search", query="Osaka", date_range="whenever"
    )

    updated = await ok(client, "memory_update", key=key, tags=["family", "osaka"])
    assert updated.structured_content["tags"] == ["family", "osaka"]
    assert "mem_nope" in await tool_error(client, "memory_update", key="mem_nope", tags=["x"])

    history = await ok(client, "memory_history", key=key)
    assert [v["change"] for v in history.structured_content["versions"]] == ["create", "update"]
    assert "mem_nope" in await tool_error(client, "memory_history", key="mem_nope")

    stats = await ok(client, "memory_stats")
    assert stats.structured_content["active"] == 1

    doomed = await ok(client, "memory_create", content="The user is allergic to cats")
    doomed_key = doomed.structured_content["memory"]["key"]
    deleted = await ok(client, "memory_delete", key=doomed_key)
    assert deleted.structured_content["status"] == "tombstoned"
    assert "already deleted" in await tool_error(client, "memory_delete", key=doomed_key)
    return key


async def check_context_tools(client: Client) -> None:
    """session_begin / get_context / update_context / user_state_history, normal and error."""
    begun = await ok(client, "session_begin")
    assert begun.structured_content["session_id"]
    context = await ok(client, "get_context")
    assert context.structured_content["persona"] == begun.structured_content["persona"]

    changed = await ok(
        client, "update_context", user_info={"nickname": "Rau"}, persona_state={"mood": "cheerful"}
    )
    assert changed.structured_content["changed"] == {
        "user_info": ["nickname"],
        "persona_state": ["mood"],
    }
    assert "user_info" in await tool_error(client, "update_context")
    assert "nickname" in await tool_error(client, "update_context", user_info={"nickname": ""})

    history = await ok(client, "user_state_history", key="nickname")
    assert [(r["value"], r["is_current"]) for r in history.structured_content["history"]] == [
        ("Rau", True)
    ]
    assert "key" in await tool_error(client, "user_state_history", key="bad key!")
    assert "at" in await tool_error(client, "user_state_history", key="nickname", at="not a time")


async def check_episode_tools(client: Client, drain: Callable[[], Awaitable[None]]) -> None:
    """session_record / session_end / episode_search: normal path and error path."""
    session_id = (await ok(client, "session_begin")).structured_content["session_id"]
    turns = [
        {
            "speaker": "Rau",
            "role": "user",
            "external_id": "t1",
            "content": "I adopted a grey cat named Miso from the shelter yesterday.",
        },
        {
            "speaker": "Haru",
            "role": "assistant",
            "external_id": "t2",
            "content": "Congratulations! How is Miso settling in?",
        },
        {
            "speaker": "Rau",
            "role": "user",
            "external_id": "t3",
            "content": "Miso hides under the sofa but loves tuna treats.",
        },
    ]
    recorded = await ok(client, "session_record", session_id=session_id, turns=turns)
    assert recorded.structured_content == {"session_id": session_id, "accepted": 3, "duplicates": 0}
    again = await ok(client, "session_record", session_id=session_id, turns=turns[:1])
    assert again.structured_content["duplicates"] == 1
    ended = await ok(client, "session_end", session_id=session_id)
    assert ended.structured_content["ended_at"]
    await drain()
    found = await ok(client, "episode_search", query="grey cat Miso shelter")
    first = found.structured_content["results"][0]
    assert first["type"] == "episode"
    assert "t1" in [s["external_id"] for s in first["sources"]]
    notes = await ok(client, "memory_search", query="Miso the cat", include_episodes=False)
    assert notes.structured_content["results"][0]["sources"]
    assert "role" in await tool_error(
        client,
        "session_record",
        session_id=session_id,
        turns=[{"speaker": "x", "content": "y", "role": "bot"}],
    )
    assert "no session 'nope'" in await tool_error(client, "session_end", session_id="nope")
    assert "query" in await tool_error(client, "episode_search", query="")


async def check_done_when(
    client: Client,
    omoide: Omoide,
    persona: str,
    after_create: Callable[[], Awaitable[None]] | None = None,
) -> None:
    """Issue 3's "done when": begin a session, store and search memories, update the user's
    name twice and read its history, and see blocks in the context once they are enabled."""
    begun = await ok(client, "session_begin")
    assert begun.structured_content["session_id"]

    created = await ok(client, "memory_create", content="The user plays the cello on Sundays")
    key = created.structured_content["memory"]["key"]
    if after_create is not None:
        await after_create()
    found = await ok(client, "memory_search", query="cello")
    assert found.structured_content["results"][0]["key"] == key

    await ok(client, "update_context", user_info={"name": "Rau"})
    await ok(client, "update_context", user_info={"name": "Raura"})
    history = (await ok(client, "user_state_history", key="name")).structured_content["history"]
    assert [(row["value"], row["is_current"]) for row in history] == [
        ("Rau", False),
        ("Raura", True),
    ]
    assert history[0]["valid_until"] == history[1]["valid_from"]

    block = "The user is preparing for a cello recital in March."
    omoide.blocks.write_block(persona, block_name="active_context", content=block, priority=5)
    without = await ok(client, "get_context")
    assert block not in text_of(without)  # spec: blocks are not injected by default
    omoide.settings_service.update(persona, {"context_include_blocks": True})
    shown = await ok(client, "get_context")
    assert block in text_of(shown)
    blocks = shown.structured_content["sections"]["blocks"]
    assert [b["block_name"] for b in blocks] == ["active_context"]
    assert "Raura" in text_of(shown)


def raw_initialized(http: httpx.Client) -> httpx.Client:
    """A raw HTTP client (its auth and JSON/SSE Accept headers set) with an MCP session
    opened: ``initialize`` answered, its session id kept, ``initialized`` notified. For tests
    that send messages the SDK's client cannot."""
    opened = http.post("/mcp", json=INITIALIZE)
    assert opened.status_code == 200, opened.text
    if session := opened.headers.get("mcp-session-id"):
        http.headers["mcp-session-id"] = session
    http.post("/mcp", json=INITIALIZED)
    return http


def stdio_answers(
    data_dir: Path, persona: str, environ: dict[str, str], lines: list[str | bytes], expected: int
) -> list[dict[str, Any]]:
    """``omoide mcp`` as a desktop client starts it, sent raw ``lines`` (text as UTF-8, bytes
    as they are): the first ``expected`` messages it writes on stdout (then its input is
    closed and it exits)."""
    params = stdio_params(data_dir, persona, environ)
    with subprocess.Popen(
        [params.command, *params.args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env={**os.environ, **(params.env or {})},
    ) as child:
        assert child.stdin is not None and child.stdout is not None
        child.stdin.write(
            b"".join((line if isinstance(line, bytes) else line.encode()) + b"\n" for line in lines)
        )
        child.stdin.flush()
        out = []
        deadline = time.monotonic() + 60
        while len(out) < expected:
            ready, _, _ = select.select([child.stdout], [], [], deadline - time.monotonic())
            assert ready, f"no answer in 60 s after {out}"
            out.append(json.loads(child.stdout.readline()))
        child.stdin.close()
        assert child.wait(timeout=60) == 0
    return out
