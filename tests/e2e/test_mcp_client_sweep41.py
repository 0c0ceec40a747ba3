"""Session 41's sweep as a demanding MCP client (the SDK's client against a live server): what
the listed schemas allow is what the tools take, an empty search or history filter is refused
as HTTP refuses it, and a lone surrogate is refused in the API's words on both transports."""

from __future__ import annotations

import json
from pathlib import Path

import anyio
import httpx
import pytest
from mcp_checks import OPENING_LINES, http_client, ok, raw_initialized, stdio_answers, tool_error
from omoide_testing import LiveServer

from omoide.service.state import MAX_KEYS_PER_UPDATE
from omoide.service.validate import (
    MAX_FILTER_TAGS,
    MAX_TAG_CHARS,
    MAX_TAGS,
    STATE_KEY_PATTERN,
    TAG_PATTERN,
)

SURROGATE = "Parse error: holds a lone surrogate (\\ud800-\\udfff) in a string; send valid Unicode"


def test_the_tag_bounds_the_schemas_list_are_the_ones_the_tools_take(server: LiveServer) -> None:
    """memory_create and memory_update listed ``maxItems: 32`` for tags while the service takes
    20: a call with 21-32 tags passed the schema and was refused. memory_search listed tags of
    any length and count, and refused a blank or 65-character one."""
    key = server.create_persona("rin")

    async def scenario() -> None:
        async with http_client(server.url, key) as client:
            tools = {tool.name: tool.input_schema for tool in (await client.list_tools()).tools}
            for name in ("memory_create", "memory_update"):
                listed = tools[name]["properties"]["tags"]["anyOf"][0]
                assert listed["maxItems"] == MAX_TAGS, name
                assert listed["items"]["pattern"] == TAG_PATTERN, name  # 1-64 once trimmed
            filter_tags = tools["memory_search"]["properties"]["tags"]["anyOf"][0]
            assert filter_tags["maxItems"] == MAX_FILTER_TAGS
            assert filter_tags["items"] == {
                "type": "string",
                "minLength": 1,
                "pattern": TAG_PATTERN,
            }
            most = [f"t{i}" for i in range(MAX_TAGS)]
            created = await ok(client, "memory_create", content="tea with many labels", tags=most)
            memory = created.structured_content["memory"]
            assert memory["tags"] == most
            over = [*most, "one more"]
            message = await tool_error(client, "memory_create", content="tea", tags=over)
            assert f"'tags' must have at most {MAX_TAGS} items (got {MAX_TAGS + 1})" in message
            message = await tool_error(client, "memory_update", key=memory["key"], tags=over)
            assert f"'tags' must have at most {MAX_TAGS} items" in message
            message = await tool_error(client, "memory_search", query="tea", tags=["x" * 65])
            said = f"must be at most {MAX_TAG_CHARS} characters, got {MAX_TAG_CHARS + 1}"
            assert (
                message.startswith("Error executing tool memory_search: tag ") and said in message
            )
            message = await tool_error(client, "memory_search", query="tea", tags=[""])
            assert "'tags[0]' must not be empty" in message
            found = await ok(client, "memory_search", query="tea", tags=most)
            assert [hit["key"] for hit in found.structured_content["results"]] == [memory["key"]]

    anyio.run(scenario)


@pytest.mark.parametrize(
    ("tool", "arguments", "name"),
    [
        ("memory_search", {"query": "tea", "date_range": ""}, "date_range"),
        ("memory_search", {"query": "tea", "valid_at": ""}, "valid_at"),
        ("episode_search", {"query": "tea", "date_range": ""}, "date_range"),
        ("user_state_history", {"key": "name", "at": ""}, "at"),
    ],
)
def test_an_empty_filter_is_refused_as_over_http(
    server: LiveServer, tool: str, arguments: dict[str, str], name: str
) -> None:
    """``date_range=""`` answered every memory as if the filter had applied (HTTP refuses it
    since session 33); a filter left out is still no filter."""
    key = server.create_persona("rin")

    async def scenario() -> None:
        async with http_client(server.url, key) as client:
            message = await tool_error(client, tool, **arguments)
            assert f"invalid argument '{name}' must not be empty (got \"\")" in message
            await ok(client, tool, **{k: v for k, v in arguments.items() if k != name})

    anyio.run(scenario)


def test_a_lone_surrogate_at_mcp_is_refused_in_the_apis_words(server: LiveServer) -> None:
    """The SDK's reader said "unexpected end of hex escape at line 1 column 115" of a complete
    escape; HTTP says what is wrong."""
    key = server.create_persona("rin")
    headers = {
        "Content-Type": "application/json",
        "Accept": "application/json, text/event-stream",
        "Authorization": f"Bearer {key}",
    }
    body = (
        b'{"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": '
        b'"memory_create", "arguments": {"content": "tea \\ud800 x"}}}'
    )
    with httpx.Client(base_url=server.url, timeout=30, headers=headers) as http:
        raw_initialized(http)
        reply = http.post("/mcp", content=body)
        assert reply.status_code == 400, reply.text
        assert reply.json()["error"] == {"code": -32700, "message": SURROGATE}
        paired = body.replace(b"\\ud800", b"\\ud83c\\udf75")  # an escaped pair is one character
        stored = http.post("/mcp", content=paired)
        assert stored.status_code == 200, stored.text
        data = next(line[5:] for line in stored.text.splitlines() if line.startswith("data:"))
        result = json.loads(data)["result"]
        assert not result["isError"], result
        assert result["structuredContent"]["memory"]["content"] == "tea \U0001f375 x"


@pytest.mark.sqlite_only
def test_a_lone_surrogate_on_a_stdio_line_is_refused_in_the_apis_words(
    data_dir: Path, persona: str, store_environ: dict[str, str]
) -> None:
    answers = stdio_answers(
        data_dir,
        persona,
        store_environ,
        [
            '{"jsonrpc": "2.0", "id": 9, "method": "tools/list", "params": {"q": "\\udfff"}}',
            *OPENING_LINES,
            '{"jsonrpc": "2.0", "id": 2, "method": "tools/list"}',
        ],
        expected=3,
    )
    errors = [a["error"] for a in answers if "error" in a]
    assert len(errors) == 1 and errors[0]["code"] == -32700
    assert errors[0]["message"].startswith(SURROGATE)
    results = {a["id"]: a["result"] for a in answers if "result" in a}
    assert "memory_search" in {tool["name"] for tool in results[2]["tools"]}


def test_update_contexts_schema_lists_the_keys_and_values_it_takes(server: LiveServer) -> None:
    """user_info and persona_state listed ``additionalProperties: true``: a key with a space,
    a boolean or an object as a value and a 51st key passed the schema and were refused. They
    list the HTTP API's rules now (``StateMap``), which the service applies."""
    key = server.create_persona("rin")

    async def scenario() -> None:
        async with http_client(server.url, key) as client:
            tools = {tool.name: tool.input_schema for tool in (await client.list_tools()).tools}
            schema = tools["update_context"]
            for model in ("UserInfo", "PersonaState"):
                listed = schema["$defs"][model]
                assert listed["maxProperties"] == MAX_KEYS_PER_UPDATE, model
                assert listed["propertyNames"] == {"pattern": STATE_KEY_PATTERN}, model
                values = listed["additionalProperties"]["anyOf"]
                assert [value["type"] for value in values] == ["string", "number", "null"]
            message = await tool_error(client, "update_context", user_info={"city": True})
            assert "user_info.city must be a string or a number, got true" in message
            too_many = {f"k{i}": "v" for i in range(MAX_KEYS_PER_UPDATE + 1)}
            message = await tool_error(client, "update_context", user_info=too_many)
            assert f"at most {MAX_KEYS_PER_UPDATE} keys per update" in message
            await ok(client, "update_context", user_info={"city": 5, "名前": "ケン"})

    anyio.run(scenario)
