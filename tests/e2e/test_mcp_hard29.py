"""What a hostile client found at MCP (session 29), each kept as a regression: over stdio a
line naming one key twice was read with its last value (HTTP refuses such a body, and /mcp
such a message); an unknown ``MCP-Protocol-Version`` got the SDK's "params._meta must be an
object carrying the required … envelope keys"; /mcp's refusals named a session
(``mcp-session-id``) that was opened for the refused request and dropped at once; an integer
argument sent as 1e308 was told pydantic's "Unable to parse input string as an integer"."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from mcp_checks import (
    INITIALIZE,
    OPENING_LINES,
    http_client,
    raw_initialized,
    stdio_answers,
    tool_error,
)
from omoide_testing import LiveServer

from omoide.service.validate import NON_BLANK_RULE

HEADERS = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
SUPPORTED = "2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25, 2026-07-28"


@pytest.mark.sqlite_only
def test_over_stdio_a_key_named_twice_is_refused_as_over_http(
    data_dir: Path, persona: str, store_environ: dict[str, str], app: Any
) -> None:
    twice = (
        '{"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": '
        '"memory_create", "arguments": {"content": "Ken drinks tea.", "content": '
        '"Ken drinks coffee."}}}'
    )
    answers = stdio_answers(
        data_dir,
        persona,
        store_environ,
        [
            *OPENING_LINES,
            twice,
            '{"jsonrpc": "2.0", "id": 4, "id": 5, "method": "tools/list"}',
            "[" * 70 + "]" * 70,
            '{"jsonrpc": "2.0", "id": 6, "method": "tools/list"}',
        ],
        expected=5,
    )
    errors = [a["error"] for a in answers if "error" in a]
    assert [e["code"] for e in errors] == [-32700, -32700, -32700]
    assert errors[0]["message"] == (
        "Parse error: names the key 'content' twice in one object; send it once"
    )
    assert "names the key 'id' twice" in errors[1]["message"]
    assert errors[2]["message"] == "Parse error: arrays or objects nested deeper than 64 levels"
    assert all(a.get("id") is None for a in answers if "error" in a)
    results = {a["id"]: a["result"] for a in answers if "result" in a}
    assert set(results) == {1, 6}  # the session served on after both
    assert app.memories.list_recent(persona, limit=5) == []  # nothing was written


def test_an_unknown_protocol_version_header_is_told_the_versions_this_server_speaks(
    server: LiveServer,
) -> None:
    key = server.create_persona("rin")
    with httpx.Client(
        base_url=server.url, timeout=30, headers={**HEADERS, "Authorization": f"Bearer {key}"}
    ) as http:
        for version in ("1999-01-01", "abc", "2025-6-18"):
            reply = http.post("/mcp", json=INITIALIZE, headers={"MCP-Protocol-Version": version})
            assert reply.status_code == 400, reply.text
            error = reply.json()["error"]
            assert error["code"] == -32600
            assert error["message"] == (
                f"unsupported MCP-Protocol-Version {json.dumps(version)}: this server speaks "
                f"{SUPPORTED}; send the version initialize agreed on (or no header before "
                "initialize)"
            )
            assert "mcp-session-id" not in reply.headers
        raw_initialized(http)
        listed = http.post(
            "/mcp",
            json={"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
            headers={"MCP-Protocol-Version": "2099-01-01"},
        )
        assert listed.status_code == 400 and "2099-01-01" in listed.json()["error"]["message"]
        listed = http.post(
            "/mcp",
            json={"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
            headers={"MCP-Protocol-Version": "2025-06-18"},
        )
        assert listed.status_code == 200, listed.text
    # no key: the key is asked for first, as everywhere
    with httpx.Client(base_url=server.url, timeout=30, headers=HEADERS) as anonymous:
        reply = anonymous.post("/mcp", json=INITIALIZE, headers={"MCP-Protocol-Version": "x"})
        assert reply.status_code == 401  # a JSON-RPC error, with the API's code in data
        assert reply.json()["error"]["data"]["code"] == "unauthorized"


def test_a_refusal_at_mcp_names_no_session(server: LiveServer) -> None:
    key = server.create_persona("rin")
    with httpx.Client(
        base_url=server.url, timeout=30, headers={**HEADERS, "Authorization": f"Bearer {key}"}
    ) as http:
        refusals = [
            http.post("/mcp", json=INITIALIZE, headers={"Accept": "text/html"}),
            http.get("/mcp", headers={"Accept": "text/event-stream"}),
            http.post("/mcp", json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"}),
        ]
        raw_initialized(http)
        session = http.headers["mcp-session-id"]
        refusals += [
            http.post(
                "/mcp",
                json={"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
                headers={"Accept": "text/html"},
            ),
            http.put("/mcp", json={}),
        ]
        for reply in refusals:
            assert reply.status_code >= 400, reply.text
            assert "mcp-session-id" not in reply.headers, (reply.status_code, reply.headers)
            assert reply.json()["error"]["message"]
        # the session opened before them still serves
        listed = http.post("/mcp", json={"jsonrpc": "2.0", "id": 3, "method": "tools/list"})
        assert listed.status_code == 200 and listed.headers["mcp-session-id"] == session


@pytest.mark.parametrize(
    ("tool", "arguments", "said"),
    [
        (
            "memory_search",
            {"query": "tea", "top_k": 1e308},
            "invalid argument 'top_k' must be an integer (a whole number, e.g. 5) (got 1e+308)",
        ),
        (
            "episode_search",
            {"query": "tea", "top_k": 1e308},
            "invalid argument 'top_k' must be an integer (a whole number, e.g. 5) (got 1e+308)",
        ),
        ("memory_read", {"key": "k\nk"}, "no memory 'k\\nk' for persona 'rin'"),
        ("memory_search", {"query": "tea", "date_range": "x\u202e"}, 'cannot read "x\\u202e"'),
        (  # invisible only: blank, refused in HTTP's words (it was no filter over MCP)
            "memory_search",
            {"query": "tea", "date_range": "\u202e"},
            f"date_range {NON_BLANK_RULE}; leave it out for no date filter",
        ),
        (
            "memory_create",
            {"content": "tea", "valid_from": "soon"},
            'valid_from is not a valid ISO-8601 date or timestamp: "soon"',
        ),
    ],
)
def test_a_tool_argument_is_refused_in_the_apis_words_and_bounded(
    server: LiveServer, tool: str, arguments: dict[str, Any], said: str
) -> None:
    key = server.create_persona("rin")

    async def scenario() -> str:
        async with http_client(server.url, key) as client:
            return await tool_error(client, tool, **arguments)

    message = anyio.run(scenario)
    assert said in message, message
    assert "Unable to parse" not in message and "'\\u202e'" not in message
    if "accepted forms" not in message:
        assert len(message) < 400, message


def test_a_message_nested_too_deep_is_a_parse_error_not_a_500(server: LiveServer) -> None:
    """10,000 ``[`` was a 500 (the envelope check overflowed the stack) and the connection of
    the next such message was reset; stdio reads each line with the same check."""
    key = server.create_persona("rin")
    with httpx.Client(
        base_url=server.url, timeout=30, headers={**HEADERS, "Authorization": f"Bearer {key}"}
    ) as http:
        deep_params = (
            b'{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": '
            + b"[" * 5000
            + b"]" * 5000
            + b"}"
        )
        for body in (b"[" * 10000, b"[" * 65 + b"]" * 65, deep_params):
            reply = http.post("/mcp", content=body)
            assert reply.status_code == 400, reply.text
            error = reply.json()["error"]
            assert error["code"] == -32700 and "nested" in error["message"], error
        raw_initialized(http)  # the server serves on
