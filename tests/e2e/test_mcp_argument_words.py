"""Every kind of schema violation a tool's arguments can hold is told in the HTTP API's words
(``validation_errors.value_rule``), through the SDK's own client: pydantic's "Input should be
'a' or 'b'", "String should have at most 64 characters", "List should have at least 1 item
after validation", "Field required", "Extra inputs are not permitted" never reach the model.
NaN and Infinity, which the SDK's parser reads (its client cannot send them: raw HTTP), are
refused naming the argument, as HTTP refuses them in a body."""

from __future__ import annotations

import json
from typing import Any

import anyio
import httpx
import pytest
from mcp.client import Client
from mcp_checks import raw_initialized, text_of
from omoide_testing import LiveServer

from omoide.api.mcp import build_mcp_server, fixed_persona
from omoide.service.search_request import MAX_TOP_K
from omoide.wiring import Omoide

_TURN = {"speaker": "Rau", "content": "hi"}
_PYDANTIC = (
    "Input should",
    "should have",
    "Field required",
    "Extra inputs",
    "Value error",
    "after validation",
    "pydantic",
)

CASES: list[Any] = [
    pytest.param(
        "memory_search",
        {"query": "tea", "mode": "fuzzy"},
        "'mode' must be one of 'hybrid', 'semantic' or 'keyword' (got \"fuzzy\")",
        id="literal",
    ),
    pytest.param(
        "memory_create",
        {"content": "tea", "kind": "bogus"},
        "'kind' must be one of 'note', 'fact', 'preference', 'profile', 'event' or "
        "'instruction' (got \"bogus\")",
        id="literal-kind",
    ),
    pytest.param(
        "session_record",
        {"session_id": "s1", "turns": [{**_TURN, "role": "bot"}]},
        "'turns[0].role' must be one of 'user', 'assistant' or 'other' (got \"bot\")",
        id="literal-nested",
    ),
    pytest.param(
        "memory_read", {"key": ""}, "'key' must not be empty (got \"\")", id="string-too-short"
    ),
    pytest.param(
        "memory_create",
        {"content": "tea", "emotion_type": "a" * 65},
        "'emotion_type' must be at most 64 characters (got 65)",
        id="string-too-long",
    ),
    pytest.param(
        "session_record",
        {"session_id": "s1", "turns": []},
        "'turns' must have at least 1 item (got 0)",
        id="list-too-short",
    ),
    pytest.param(
        "session_record",
        {"session_id": "s1", "turns": [_TURN] * 1001},
        "'turns' must have at most 1,000 items (got 1,001)",
        id="list-too-long",
    ),
    pytest.param("memory_search", {}, "'query' is required", id="missing"),
    pytest.param(
        "session_record",
        {"session_id": "s1", "turns": [{"content": "hi"}]},
        "'turns[0].speaker' is required",
        id="missing-nested",
    ),
    pytest.param(
        "session_record",
        {"session_id": "s1", "turns": [{**_TURN, "mood": "ok"}]},
        "'turns[0].mood' is not a field this takes (unknown fields are refused, not ignored)",
        id="extra-nested",
    ),
    pytest.param(
        "session_record",
        {"session_id": "s1", "turns": [{**_TURN, "content": 5}]},
        "'turns[0].content' must be a string (got 5)",
        id="string-type-nested",
    ),
    pytest.param(
        "update_context",
        {"persona_state": {"emotion_intensity": True}},
        "'persona_state.emotion_intensity' must be a number (e.g. 0.5) (got true)",
        id="strict-nested-bool",
    ),
    pytest.param(
        "update_context",
        {"persona_state": {"emotion_intensity": "0.5"}},
        "'persona_state.emotion_intensity' must be a number (e.g. 0.5) (got \"0.5\")",
        id="strict-nested-text",
    ),
    pytest.param(
        "update_context",
        {"user_info": "name: Rau"},
        "'user_info' must be an object ({…}) (got a string)",
        id="object-type",
    ),
    pytest.param(
        "memory_search",
        {"query": "tea", "tags": "a"},
        "'tags' must be an array ([…]) (got a string)",
        id="array-type",
    ),
    pytest.param(
        "memory_search",
        {"query": "tea", "top_k": 1.5},
        "'top_k' must be an integer (a whole number, e.g. 5) (got 1.5)",
        id="int-type",
    ),
    pytest.param(
        "memory_delete",
        {"key": "mem_1", "purge": "yes"},
        "'purge' must be true or false (got \"yes\")",
        id="bool-type",
    ),
    pytest.param(
        "episode_search",
        {"query": "tea", "top_k": MAX_TOP_K + 1},
        f"'top_k' must be at most {MAX_TOP_K} (got {MAX_TOP_K + 1})",
        id="bound",
    ),
    pytest.param(
        "memory_create",
        {"content": "tea", "importance": 2},
        "'importance' must be at most 1 (got 2)",  # a float's bound, not "1.0" (session 44)
        id="float-bound",
    ),
    pytest.param(
        "session_end",
        {"session_id": "a b"},
        "'session_id' must be 1-128 ASCII letters, digits or _ . : @ - (no '/' or "
        'spaces) (got "a b")',
        id="pattern",
    ),
]


@pytest.mark.sqlite_only
@pytest.mark.parametrize(("tool", "arguments", "words"), CASES)
def test_each_kind_of_bad_argument_is_told_in_the_apis_words(
    app: Omoide, persona: str, tool: str, arguments: dict[str, Any], words: str
) -> None:
    server = build_mcp_server(app, fixed_persona(persona))

    async def scenario() -> str:
        async with Client(server) as client:
            result = await client.call_tool(tool, arguments)
            assert result.is_error
            return text_of(result)

    message = anyio.run(scenario)
    assert message.startswith(f"Error executing tool {tool}: "), message
    assert words in message, message
    assert not any(said in message for said in _PYDANTIC), message
    assert app.memories.list_recent(persona) == []


@pytest.mark.sqlite_only
@pytest.mark.parametrize(
    ("arguments", "where"),
    [
        ('{"query": "tea", "min_importance": NaN}', "min_importance"),
        ('{"query": "tea", "top_k": Infinity}', "top_k"),
        ('{"query": "tea", "min_importance": -1e999}', "min_importance"),
    ],
)
def test_nan_and_infinity_are_refused_naming_the_argument(
    server: LiveServer, arguments: str, where: str
) -> None:
    """``min_importance=NaN`` was told "must be at most 1.0 (got NaN)"; -1e999 (which the
    SDK's reader makes -Infinity) was told of NaN and Infinity only, which it never sent."""
    key = server.create_persona("rin")
    with httpx.Client(
        base_url=server.url,
        timeout=30,
        headers={
            "Authorization": f"Bearer {key}",
            "Content-Type": "application/json",
            "Accept": "application/json, text/event-stream",
        },
    ) as http:
        reply = raw_initialized(http).post(
            "/mcp",
            content=(
                '{"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": '
                f'"memory_search", "arguments": {arguments}}}}}'
            ),
        )
    data = next(line[5:] for line in reply.text.splitlines() if line.startswith("data:"))
    result = json.loads(data)["result"]
    assert result["isError"] is True
    assert result["content"][0]["text"] == (
        f"Error executing tool memory_search: argument '{where}': NaN, Infinity and numbers past "
        "a double's range (1e400) are not numbers this reader accepts (numbers must be finite); "
        "fix the argument and call again"
    )
