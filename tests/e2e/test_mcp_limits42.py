"""Session 42, as a demanding MCP client (the SDK's client against a live server): the listed
input schemas say the content and metadata limits the service enforces. memory_create and
memory_update listed content of any length, a session_record turn's content too, and metadata
without a word of its limits: a client's validator passed a call the service then refused.
The limits are the service's own constants; the service's refusal stays the source of truth,
in the words it had (what a call past a limit is told did not change)."""

from __future__ import annotations

import json
from typing import Any

import anyio
import pytest
from jsonschema import Draft202012Validator
from mcp_checks import http_client, ok, tool_error
from omoide_testing import LiveServer

from omoide.engine.attachments import MAX_CAPTION_CHARS
from omoide.service.event_input import MAX_EVENT_CHARS, MAX_EVENTS_PER_BATCH, MAX_SPEAKER_CHARS
from omoide.service.memories import MAX_CONTENT_CHARS
from omoide.service.search_request import MAX_TOP_K
from omoide.service.state import MAX_VALUE_CHARS
from omoide.service.validate import MAX_EMOTION_CHARS, MAX_METADATA_CHARS, MAX_METADATA_DEPTH

METADATA_WORDS = (
    f"at most {MAX_METADATA_CHARS:,} characters as JSON, nested at most {MAX_METADATA_DEPTH} levels"
)


def _text(branch: dict[str, Any]) -> dict[str, Any]:
    """A nullable argument's string branch (the property itself when it is not nullable)."""
    return next((b for b in branch.get("anyOf", ()) if b.get("type") == "string"), branch)


def test_the_listed_schemas_say_the_services_limits(server: LiveServer) -> None:
    key = server.create_persona("rin")

    async def scenario() -> dict[str, dict[str, Any]]:
        async with http_client(server.url, key) as client:
            return {tool.name: tool.input_schema for tool in (await client.list_tools()).tools}

    tools = anyio.run(scenario)
    for name in ("memory_create", "memory_update"):
        listed = tools[name]["properties"]
        assert _text(listed["content"])["maxLength"] == MAX_CONTENT_CHARS, name
        assert _text(listed["emotion_type"])["maxLength"] == MAX_EMOTION_CHARS, name
        assert METADATA_WORDS in listed["metadata"]["description"], name
    record = tools["session_record"]
    turn = record["$defs"]["Turn"]["properties"]
    assert turn["content"]["maxLength"] == MAX_EVENT_CHARS
    assert turn["speaker"]["maxLength"] == MAX_SPEAKER_CHARS
    assert _text(turn["image_caption"])["maxLength"] == MAX_CAPTION_CHARS
    assert record["properties"]["turns"]["maxItems"] == MAX_EVENTS_PER_BATCH
    assert tools["memory_search"]["properties"]["top_k"]["maximum"] == MAX_TOP_K
    user_info = tools["update_context"]["$defs"]["UserInfo"]["properties"]
    assert _text(user_info["name"])["maxLength"] == MAX_VALUE_CHARS
    # a client's validator now refuses what the service refuses, and passes what it takes
    create = Draft202012Validator(tools["memory_create"])
    assert create.is_valid({"content": "x" * MAX_CONTENT_CHARS})
    assert not create.is_valid({"content": "x" * (MAX_CONTENT_CHARS + 1)})
    turns = Draft202012Validator(record)
    said = {"speaker": "Ken", "content": "x" * MAX_EVENT_CHARS}
    assert turns.is_valid({"session_id": "s1", "turns": [said]})
    too_long = {**said, "content": said["content"] + "x"}
    assert not turns.is_valid({"session_id": "s1", "turns": [too_long]})


def _deep(levels: int) -> dict[str, Any]:
    value: dict[str, Any] = {}
    for _ in range(levels):
        value = {"a": value}
    return value


OVER = MAX_CONTENT_CHARS + 1
WIDE = {"note": "x" * MAX_METADATA_CHARS}  # its JSON is longer than the limit


@pytest.mark.parametrize(
    ("tool", "arguments", "said"),
    [
        (
            "memory_create",
            {"content": "x" * OVER},
            f"content must be at most {MAX_CONTENT_CHARS:,} characters, got {OVER:,}",
        ),
        (
            "memory_update",
            {"content": "x" * OVER},
            f"content must be at most {MAX_CONTENT_CHARS:,} characters, got {OVER:,}",
        ),
        (
            "memory_create",
            {"content": "tea", "metadata": WIDE},
            f"metadata must be at most {MAX_METADATA_CHARS:,} characters as JSON, got "
            f"{len(json.dumps(WIDE)):,}",
        ),
        (
            "memory_update",
            {"metadata": _deep(MAX_METADATA_DEPTH + 1)},
            f"metadata is nested deeper than {MAX_METADATA_DEPTH} levels",
        ),
        (
            "session_record",
            {"turns": [{"speaker": "Ken", "content": "x" * (MAX_EVENT_CHARS + 1)}]},
            f"turns[0].content must be at most {MAX_EVENT_CHARS:,} characters, got "
            f"{MAX_EVENT_CHARS + 1:,}",
        ),
    ],
)
def test_a_call_past_a_listed_limit_is_the_services_refusal(
    server: LiveServer, tool: str, arguments: dict[str, Any], said: str
) -> None:
    """The schema only says the limit: the call is refused by the service, in its words (the
    tool error it was before the schema said it), and nothing is written."""
    key = server.create_persona("rin")

    async def scenario() -> tuple[str, int]:
        async with http_client(server.url, key) as client:
            begun = await ok(client, "session_begin")
            memory = await ok(client, "memory_create", content="Ken drinks green tea.")
            given = dict(arguments)
            if tool == "memory_update":
                given["key"] = memory.structured_content["memory"]["key"]
            if tool == "session_record":
                given["session_id"] = begun.structured_content["session_id"]
            message = await tool_error(client, tool, **given)
            stats = await ok(client, "memory_stats")
            return message, stats.structured_content["active"]

    message, active = anyio.run(scenario)
    assert message == f"Error executing tool {tool}: {said}; fix the argument and call again"
    assert active == 1
