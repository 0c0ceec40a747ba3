"""The MCP server object in memory (no transport): the error path every tool shares."""

from __future__ import annotations

from typing import Any

import anyio
import pytest
from mcp.client import Client
from mcp_checks import ALL_TOOLS, text_of

from omoide.api.mcp import build_mcp_server, fixed_persona
from omoide.wiring import Omoide

MINIMAL_ARGUMENTS: dict[str, dict[str, Any]] = {
    "session_begin": {},
    "get_context": {},
    "update_context": {"user_info": {"name": "Rau"}},
    "memory_create": {"content": "The user likes tea"},
    "memory_read": {"key": "mem_1"},
    "memory_update": {"key": "mem_1", "content": "x"},
    "memory_delete": {"key": "mem_1"},
    "memory_search": {"query": "tea"},
    "memory_stats": {},
    "memory_history": {"key": "mem_1"},
    "user_state_history": {"key": "name"},
    "session_record": {"session_id": "s1", "turns": [{"speaker": "Rau", "content": "hi"}]},
    "session_end": {"session_id": "s1"},
    "episode_search": {"query": "tea"},
}


def test_minimal_arguments_cover_every_tool() -> None:
    assert set(MINIMAL_ARGUMENTS) == ALL_TOOLS


@pytest.mark.parametrize("tool", sorted(ALL_TOOLS))
def test_tool_reports_an_unknown_persona_as_a_clear_tool_error(app: Omoide, tool: str) -> None:
    server = build_mcp_server(app, fixed_persona("ghost"))

    async def scenario() -> str:
        async with Client(server) as client:
            result = await client.call_tool(tool, MINIMAL_ARGUMENTS[tool])
            assert result.is_error
            return text_of(result)

    assert anyio.run(scenario).startswith(f"Error executing tool {tool}: unknown persona 'ghost'")


def test_schema_violations_read_as_one_line_naming_each_argument(app: Omoide, persona: str) -> None:
    server = build_mcp_server(app, fixed_persona(persona))

    async def scenario() -> str:
        async with Client(server) as client:
            result = await client.call_tool(
                "memory_search", {"query": "tea", "mode": "fuzzy", "top_k": 0}
            )
            assert result.is_error
            return text_of(result)

    assert anyio.run(scenario) == (
        "Error executing tool memory_search: invalid arguments 'top_k' must be at least 1 "
        "(got 0); 'mode' must be one of 'hybrid', 'semantic' or 'keyword' (got \"fuzzy\"); "
        "fix the argument and call again"
    )


# (read_only, destructive, idempotent) per tool, as the official client lists them. Idempotent
# means any repeat of the same call changes nothing more: session_record without external_id
# appends the turn again; memory_update and update_context write nothing for unchanged values.
EXPECTED_HINTS: dict[str, tuple[bool, bool, bool | None]] = {
    "get_context": (True, False, None),
    "user_state_history": (True, False, None),
    "episode_search": (True, False, None),
    "memory_read": (True, False, None),
    "memory_search": (True, False, None),
    "memory_stats": (True, False, None),
    "memory_history": (True, False, None),
    "session_begin": (False, False, False),
    "session_record": (False, False, False),
    "memory_create": (False, False, False),
    "update_context": (False, False, True),
    "memory_update": (False, False, True),
    "session_end": (False, False, True),
    "memory_delete": (False, True, True),
}


def test_tool_annotations_state_each_tools_effect(app: Omoide, persona: str) -> None:
    server = build_mcp_server(app, fixed_persona(persona))

    async def scenario() -> dict[str, Any]:
        async with Client(server) as client:
            return {t.name: t.annotations for t in (await client.list_tools()).tools}

    annotations = anyio.run(scenario)
    assert set(EXPECTED_HINTS) == set(annotations) == ALL_TOOLS
    for name, hints in annotations.items():
        assert hints is not None, name
        assert hints.open_world_hint is False, name
        seen = (hints.read_only_hint, hints.destructive_hint, hints.idempotent_hint)
        assert seen == EXPECTED_HINTS[name], name


def test_repeating_an_idempotent_write_changes_nothing_more(app: Omoide, persona: str) -> None:
    """What SET promises, on the tools carrying it: the second identical call adds nothing."""
    server = build_mcp_server(app, fixed_persona(persona))

    async def scenario() -> None:
        async with Client(server) as client:
            created = await client.call_tool("memory_create", {"content": "The user likes tea"})
            key = created.structured_content["memory"]["key"]
            for _ in range(2):
                await client.call_tool("memory_update", {"key": key, "tags": ["drink"]})
                await client.call_tool("update_context", {"user_info": {"name": "Rau"}})
            history = await client.call_tool("memory_history", {"key": key})
            assert [v["change"] for v in history.structured_content["versions"]] == [
                "create",
                "update",
            ]
            again = await client.call_tool("update_context", {"user_info": {"name": "Rau"}})
            assert again.structured_content["changed"]["user_info"] == []
            # a key given null is said to be closed, not recorded
            both = await client.call_tool(
                "update_context", {"user_info": {"name": None, "nickname": "Rau-chan"}}
            )
            assert sorted(both.structured_content["changed"]["user_info"]) == ["name", "nickname"]
            assert both.content[0].text.startswith(
                "Recorded user_info nickname; closed user_info name ("
            )

    anyio.run(scenario)


def test_memory_history_says_what_a_version_changed_besides_the_text(
    app: Omoide, persona: str
) -> None:
    """A version that closed a fact showed its unchanged text alone ('v2 supersede by
    evolution at …: The user lives in Tokyo'): the model could not tell it was closed."""
    server = build_mcp_server(app, fixed_persona(persona))

    async def scenario() -> None:
        async with Client(server) as client:
            created = await client.call_tool(
                "memory_create", {"content": "The user lives in Tokyo"}
            )
            key = created.structured_content["memory"]["key"]
            await client.call_tool(
                "memory_update",
                {"key": key, "valid_until": "2026-03-01T00:00:00Z", "tags": ["home"]},
            )
            history = await client.call_tool("memory_history", {"key": key})
            lines = history.content[0].text.splitlines()
            assert lines[1].endswith(": The user lives in Tokyo"), lines  # a creation: text
            assert lines[2].endswith(
                ": The user lives in Tokyo (tags: [] → [home]; valid_until: — → 2026-03-01 00:00)"
            ), lines

    anyio.run(scenario)
