"""Session 43, as a demanding MCP client (the SDK's client against a live server): every limit a
tool's input schema lists is the one the service enforces, from its own constant. episode_search
capped ``top_k`` at 50 while memory_search and the service take 100; a memory key and the
timestamps were capped by a literal 64 and ``date_range`` by a literal 100 that no service
check stated. And a text at the content limit in another Unicode form than NFC is refused
naming the unit the service counts in (code points of the NFC form)."""

from __future__ import annotations

from typing import Any

import anyio
from mcp_checks import http_client, ok, tool_error
from omoide_testing import LiveServer

from omoide.service.memories import MAX_CONTENT_CHARS
from omoide.service.search_request import MAX_TOP_K
from omoide.service.validate import MAX_DATE_RANGE_CHARS, MAX_NAME_CHARS, MAX_TIMESTAMP_CHARS


def _text(branch: dict[str, Any]) -> dict[str, Any]:
    """A nullable argument's string branch (the property itself when it is not nullable)."""
    return next((b for b in branch.get("anyOf", ()) if b.get("type") == "string"), branch)


def test_every_listed_limit_is_the_services_constant(server: LiveServer) -> None:
    key = server.create_persona("rin")

    async def scenario() -> dict[str, dict[str, Any]]:
        async with http_client(server.url, key) as client:
            return {tool.name: tool.input_schema for tool in (await client.list_tools()).tools}

    tools = anyio.run(scenario)
    for name in ("memory_search", "episode_search"):
        assert tools[name]["properties"]["top_k"]["maximum"] == MAX_TOP_K, name
        date_range = _text(tools[name]["properties"]["date_range"])
        assert date_range["maxLength"] == MAX_DATE_RANGE_CHARS, name
    for name in ("memory_read", "memory_update", "memory_delete", "memory_history"):
        assert tools[name]["properties"]["key"]["maxLength"] == MAX_NAME_CHARS, name
    timestamps = [
        tools["memory_create"]["properties"]["valid_from"],
        tools["memory_create"]["properties"]["valid_until"],
        tools["memory_update"]["properties"]["valid_from"],
        tools["memory_update"]["properties"]["valid_until"],
        tools["memory_search"]["properties"]["valid_at"],
        tools["user_state_history"]["properties"]["at"],
        tools["session_record"]["$defs"]["Turn"]["properties"]["timestamp"],
    ]
    assert [_text(t)["maxLength"] for t in timestamps] == [MAX_TIMESTAMP_CHARS] * len(timestamps)


def test_episode_search_takes_the_services_largest_top_k(server: LiveServer) -> None:
    key = server.create_persona("rin")

    async def scenario() -> tuple[int, str]:
        async with http_client(server.url, key) as client:
            begun = await ok(client, "session_begin")
            turns = [{"speaker": "Ken", "content": f"green tea, cup {i}"} for i in range(3)]
            session_id = begun.structured_content["session_id"]
            await ok(client, "session_record", session_id=session_id, turns=turns)
            found = await ok(client, "episode_search", query="green tea", top_k=MAX_TOP_K)
            over = await tool_error(client, "episode_search", query="tea", top_k=MAX_TOP_K + 1)
            return len(found.structured_content["results"]), over

    found, over = anyio.run(scenario)
    assert found >= 1
    assert f"'top_k' must be at most {MAX_TOP_K} (got {MAX_TOP_K + 1})" in over, over


def test_a_timestamp_past_its_length_is_refused_as_over_http(server: LiveServer) -> None:
    """A date padded past the limit: refused naming it, in the words HTTP uses."""
    key = server.create_persona("rin")
    padded = "2026-03-01" + " " * MAX_TIMESTAMP_CHARS

    async def scenario() -> str:
        async with http_client(server.url, key) as client:
            return await tool_error(client, "memory_create", content="tea", valid_from=padded)

    said = anyio.run(scenario)
    assert (
        f"'valid_from' must be at most {MAX_TIMESTAMP_CHARS} characters (got {len(padded)})" in said
    ), said


def test_content_longer_once_in_nfc_is_refused_naming_the_unit(server: LiveServer) -> None:
    """U+0958 is two code points in NFC: content of MAX_CONTENT_CHARS // 2 + 1 of them passes
    the listed maxLength as sent and is over the limit as stored; the refusal says how it is
    counted (it said only "got 50,002" of a text of 25,001 characters), and nothing is written."""
    key = server.create_persona("rin")
    sent = "\u0958" * (MAX_CONTENT_CHARS // 2 + 1)

    async def scenario() -> tuple[str, int]:
        async with http_client(server.url, key) as client:
            message = await tool_error(client, "memory_create", content=sent)
            stats = await ok(client, "memory_stats")
            return message, stats.structured_content["active"]

    message, active = anyio.run(scenario)
    stored = 2 * len(sent)
    assert message.startswith(
        f"Error executing tool memory_create: content must be at most {MAX_CONTENT_CHARS:,} "
        f"characters, got {stored:,}, counted in code points of its Unicode NFC form"
    ), message
    assert "U+0958" in message
    assert active == 0


def test_a_state_value_of_a_huge_integer_is_refused_naming_it(server: LiveServer) -> None:
    """Session 43's probe: update_context with an extra user_info or persona_state key holding
    an integer too large for a float (10**400) crashed the tool (OverflowError in the service's
    finiteness check; the model read only "Error executing tool update_context"); it is refused
    as an integer past ±(2^53 − 1) is, naming the key, and nothing is written."""
    key = server.create_persona("rin")

    async def scenario() -> tuple[str, str, dict[str, Any]]:
        async with http_client(server.url, key) as client:
            user = await tool_error(client, "update_context", user_info={"shoe_size": 10**400})
            own = await tool_error(client, "update_context", persona_state={"level": -(10**400)})
            shown = await ok(client, "get_context")
            return user, own, shown.structured_content

    user, own, shown = anyio.run(scenario)
    assert "user_info.shoe_size is a number outside ±(2^53 − 1)" in user, user
    assert "persona_state.level is a number outside ±(2^53 − 1)" in own, own
    assert "shoe_size" not in str(shown) and "level" not in str(shown)
