"""Session 11 probe through MCP (the SDK's client over streamable HTTP, both stores): the same
refusals as HTTP, as tool errors that name the argument, and nothing written."""

from __future__ import annotations

import anyio
import pytest
from mcp_checks import http_client, ok, raw_initialized, tool_error
from omoide_testing import LiveServer

from omoide.errors import NotFound


def test_session_record_on_an_unknown_session_is_an_error_not_a_new_session(
    server: LiveServer,
) -> None:
    """HTTP answers 404 for events to an unknown session; MCP used to open it silently, so a
    mistyped id split one conversation in two."""
    key = server.create_persona("rin")

    async def scenario() -> None:
        async with http_client(server.url, key) as client:
            message = await tool_error(
                client,
                "session_record",
                session_id="ses_typo",
                turns=[{"speaker": "Ken", "content": "hello"}],
            )
            assert "no session 'ses_typo'" in message and "session_begin" in message
            begun = (await ok(client, "session_begin")).structured_content["session_id"]
            await ok(
                client,
                "session_record",
                session_id=begun,
                turns=[{"speaker": "Ken", "content": "hello"}],
            )

    anyio.run(scenario)
    with pytest.raises(NotFound):
        server.omoide.sessions.get("rin", "ses_typo")


def test_mcp_refuses_nul_invisible_text_and_far_future_turns(server: LiveServer) -> None:
    key = server.create_persona("rin")

    async def scenario() -> None:
        async with http_client(server.url, key) as client:
            assert "NUL" in await tool_error(client, "memory_create", content="tea\x00")
            # a key or session id with NUL: SQLite looked it up (not found), PostgreSQL
            # refused it with another message; now one tool error naming the argument
            assert "argument 'key' holds a NUL" in await tool_error(
                client, "memory_read", key="mem_\x00"
            )
            assert "argument 'session_id' holds a NUL" in await tool_error(
                client, "session_end", session_id="s\x00"
            )
            assert "NUL" in await tool_error(client, "memory_create", content="tea", tags=["a\x00"])
            assert "invisible" in await tool_error(
                client, "memory_create", content="\u200b\u200d\ufeff"
            )
            assert "invisible" in await tool_error(client, "memory_search", query="\u2060")
            assert "NUL" in await tool_error(
                client, "update_context", user_info={"name": "K\x00en"}
            )
            session = (await ok(client, "session_begin")).structured_content["session_id"]
            message = await tool_error(
                client,
                "session_record",
                session_id=session,
                turns=[{"speaker": "Ken", "content": "later", "timestamp": "9999-01-01T00:00:00Z"}],
            )
            assert "turns[0].timestamp" in message and "events[" not in message
            assert "24 hours" in message
            assert "invisible" in await tool_error(
                client,
                "session_record",
                session_id=session,
                turns=[{"speaker": "Ken", "content": "\u200b"}],
            )
            assert "NUL" in await tool_error(
                client,
                "session_record",
                session_id=session,
                turns=[{"speaker": "Ken", "content": "a\x00"}],
            )
            stats = await ok(client, "memory_stats")
            assert stats.structured_content["total"] == 0
            store = server.omoide.store.sessions("rin")
            assert store.events_after(store.get(session), 0) == []

    anyio.run(scenario)


def test_mcp_refuses_a_time_without_offset_as_http_does(server: LiveServer) -> None:
    """Session 12 probe: "2026-11-29T09:00:00" was read as UTC; every time argument is now a
    tool error naming the argument and showing the forms with Z and +09:00."""
    key = server.create_persona("rin")
    naive = "2026-11-29T09:00:00"

    async def scenario() -> None:
        async with http_client(server.url, key) as client:
            for tool, arguments, name in [
                ("memory_create", {"content": "Ken moved.", "valid_from": naive}, "valid_from"),
                ("memory_search", {"query": "Ken", "valid_at": naive}, "valid_at"),
                (
                    "memory_search",
                    {"query": "Ken", "date_range": f"{naive}..2026-11-30"},
                    "date range",
                ),
                ("user_state_history", {"key": "name", "at": naive}, "at"),
            ]:
                message = await tool_error(client, tool, **arguments)
                assert name in message and "no UTC offset" in message, (tool, message)
            session = (await ok(client, "session_begin")).structured_content["session_id"]
            message = await tool_error(
                client,
                "session_record",
                session_id=session,
                turns=[{"speaker": "Ken", "content": "hi", "timestamp": naive}],
            )
            assert "timestamp" in message and "+09:00" in message, message
            made = await ok(
                client, "memory_create", content="Ken moved.", valid_from=f"{naive}+09:00"
            )
            assert made.structured_content["memory"]["valid_from"].startswith("2026-11-29T00:00:00")
            message = await tool_error(
                client,
                "memory_update",
                key=made.structured_content["memory"]["key"],
                valid_until=naive,
            )
            assert "valid_until" in message and "no UTC offset" in message, message

    anyio.run(scenario)


def test_mcp_refuses_metadata_integers_http_refuses(server: LiveServer) -> None:
    """Session 12 probe: ``metadata: {"n": 2**64}`` was stored over MCP while HTTP refuses
    any integer beyond ±(2^53 − 1), which a JSON parser reading the export back rounds."""
    key = server.create_persona("rin")

    async def scenario() -> None:
        async with http_client(server.url, key) as client:
            for bad in (2**64, -(2**53)):
                message = await tool_error(
                    client,
                    "memory_create",
                    content="Ken likes tea.",
                    metadata={"ids": [1, {"n": bad}]},
                )
                assert "metadata" in message and "2^53" in message, message
            await ok(
                client,
                "memory_create",
                content="Ken likes tea.",
                metadata={"n": 2**53 - 1, "x": -(2**53 - 1)},
            )

    anyio.run(scenario)


def test_mcp_refuses_metadata_numbers_http_refuses(server: LiveServer) -> None:
    """Session 19 probe: ``metadata: {"k": 1e300}`` (a number that is not an integer) was
    stored over MCP, while HTTP refuses any number beyond ±(2^53 − 1); the persona's export
    then held it and its import was refused (422 naming the line): not lossless."""
    key = server.create_persona("rin")

    async def scenario() -> None:
        async with http_client(server.url, key) as client:
            for bad in (1e300, -1e20, 2.0**53):
                message = await tool_error(
                    client,
                    "memory_create",
                    content="Ken rows at dawn.",
                    metadata={"ids": [1.5, {"n": bad}]},
                )
                assert "metadata" in message and "2^53" in message, message
            made = await ok(
                client,
                "memory_create",
                content="Ken rows at dawn.",
                metadata={"n": 0.25, "x": -9007199254740991.0},
            )
            memory_key = made.structured_content["memory"]["key"]
            assert "2^53" in await tool_error(
                client, "memory_update", key=memory_key, metadata={"n": 1e300}
            )

    anyio.run(scenario)
    with server.client(server.admin_key) as c:
        exported = c.get("/api/export/rin").content
        server.create_persona("copy")
        restored = c.post(
            "/api/import/copy", content=exported, headers={"Content-Type": "application/x-ndjson"}
        )
        assert restored.status_code == 200, restored.text


def test_mcp_keeps_text_in_nfc_as_http_does(server: LiveServer) -> None:
    """A memory sent in NFD (e + U+0301) over MCP was stored as sent, beside the same text in
    NFC; now every string argument is put in NFC, as HTTP's body guard does."""
    import unicodedata

    key = server.create_persona("rin")
    text = "Zoë drinks café au lait."

    async def scenario() -> None:
        async with http_client(server.url, key) as client:
            await ok(client, "memory_create", content=unicodedata.normalize("NFD", text))
            await ok(client, "memory_create", content=text)
            found = await ok(client, "memory_search", query="cafe", mode="keyword")
            assert [hit["content"] for hit in found.structured_content["results"]] == [text]

    anyio.run(scenario)
    assert [m.content for m in server.omoide.memories.list_recent("rin", limit=10)] == [text]


def test_mcp_refuses_scalar_arguments_of_another_type_as_http_does(server: LiveServer) -> None:
    """``top_k=true`` ran as top_k=1, ``purge="yes"`` as purge=true, ``top_k="5"`` as 5:
    pydantic's lax mode read them; HTTP's strict models refuse them. Nothing is written."""
    key = server.create_persona("rin")

    async def scenario() -> None:
        async with http_client(server.url, key) as client:
            made = await ok(client, "memory_create", content="Ken drinks green tea.")
            memory = made.structured_content["memory"]["key"]
            for name, arguments, wanted in [
                (
                    "memory_search",
                    {"query": "tea", "top_k": True},
                    "'top_k' must be an integer (a whole number, e.g. 5) (got true)",
                ),
                (
                    "memory_search",
                    {"query": "tea", "top_k": "5"},
                    'must be an integer (a whole number, e.g. 5) (got "5")',
                ),
                (
                    "memory_delete",
                    {"key": memory, "purge": "yes"},
                    "'purge' must be true or false (got \"yes\")",
                ),
                ("memory_delete", {"key": memory, "purge": 1}, "must be true or false"),
                (
                    "memory_create",
                    {"content": "Ken owns a cello.", "importance": "0.5"},
                    'must be a number (e.g. 0.5) (got "0.5")',
                ),
                (
                    "memory_update",
                    {"key": memory, "emotion_intensity": False},
                    "must be a number (e.g. 0.5) or null (got false)",
                ),
            ]:
                message = await tool_error(client, name, **arguments)
                assert (
                    wanted in message
                    and next(iter(a for a in arguments if a not in ("query", "key", "content")))
                    in message
                ), message
            found = await ok(client, "memory_search", query="tea", top_k=5.0)
            assert found.structured_content["results"]

    anyio.run(scenario)
    memories = server.omoide.memories.list_recent("rin", limit=10)
    assert [m.content for m in memories] == ["Ken drinks green tea."]
    assert memories[0].emotion_intensity == 0.0


def test_mcp_refuses_another_turn_under_a_used_external_id_as_http_does(server: LiveServer) -> None:
    """session_record counted a different turn under a used external_id as a duplicate and
    dropped its text; a resent turn is still a duplicate, another one a tool error naming the
    id, and nothing of that call is written."""
    key = server.create_persona("rin")

    async def scenario() -> None:
        async with http_client(server.url, key) as client:
            begun = (await ok(client, "session_begin")).structured_content["session_id"]
            turn = {"speaker": "Ken", "content": "I moved to Sapporo.", "external_id": "t-1"}
            await ok(client, "session_record", session_id=begun, turns=[turn])
            again = await ok(client, "session_record", session_id=begun, turns=[turn])
            assert again.structured_content["duplicates"] == 1
            message = await tool_error(
                client,
                "session_record",
                session_id=begun,
                turns=[
                    {"speaker": "Ken", "content": "New turn.", "external_id": "t-2"},
                    {**turn, "content": "I moved to Otaru."},
                ],
            )
            assert "'t-1'" in message and "external_id" in message, message
            fresh = await ok(
                client,
                "session_record",
                session_id=begun,
                turns=[{"speaker": "Ken", "content": "New turn.", "external_id": "t-2"}],
            )
            assert fresh.structured_content["accepted"] == 1

    anyio.run(scenario)


def test_an_mcp_message_naming_a_key_twice_is_refused_as_http_refuses_it(
    server: LiveServer,
) -> None:
    """``{"content": "tea", "content": "coffee"}`` in a tool call stored 'coffee' (the SDK's
    parser keeps the last value) where HTTP refuses the body (422): now a JSON-RPC parse
    error naming the key, and nothing stored."""
    import httpx

    key = server.create_persona("rin")
    headers = {
        "Authorization": f"Bearer {key}",
        "Content-Type": "application/json",
        "Accept": "application/json, text/event-stream",
    }
    with httpx.Client(base_url=server.url, headers=headers, timeout=30) as http:
        raw_initialized(http)
        call = (
            b'{"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": '
            b'"memory_create", "arguments": {"content": "tea", "content": "coffee"}}}'
        )
        reply = http.post("/mcp", content=call)
        assert reply.status_code == 400, reply.text
        error = reply.json()["error"]
        assert error["code"] == -32700 and "'content' twice" in error["message"], error
    assert server.omoide.memories.list_recent("rin") == []


def test_session_record_names_the_turns_as_its_argument_does(server: LiveServer) -> None:
    """The service speaks HTTP's body (``events[0].timestamp``); a model calling
    session_record sent ``turns``, and read about events it never named (probe 23)."""
    key = server.create_persona("rin")

    async def scenario() -> None:
        async with http_client(server.url, key) as client:
            session = (await ok(client, "session_begin")).structured_content["session_id"]
            refusals = [
                [{"speaker": "Ken", "content": "hi", "timestamp": "2026-01-01T10:00:00"}],
                [{"speaker": "\u200b", "content": "hi"}],
                [{"speaker": "Ken", "content": "hi", "external_id": "\x01"}],
                [
                    {"speaker": "Ken", "content": "hi", "external_id": "e1"},
                    {"speaker": "Ken", "content": "other", "external_id": "e1"},
                ],
            ]
            for turns in refusals:
                message = await tool_error(
                    client, "session_record", session_id=session, turns=turns
                )
                assert "turns[" in message and "events" not in message, message

    anyio.run(scenario)


def test_a_turn_field_session_record_does_not_have_is_refused(server: LiveServer) -> None:
    """HTTP refuses a field an event does not have; session_record dropped it from a turn
    ({"text": …} beside content, a "metadata" object) and recorded the turn without it. The
    tools' input schemas now say what call_tool enforces: no argument beyond the listed ones
    (probe 23)."""
    key = server.create_persona("rin")
    begun: list[str] = []

    async def scenario() -> None:
        async with http_client(server.url, key) as client:
            session = (await ok(client, "session_begin")).structured_content["session_id"]
            begun.append(session)
            message = await tool_error(
                client,
                "session_record",
                session_id=session,
                turns=[
                    {"speaker": "Ken", "content": "I adopted a cat.", "metadata": {"mood": "glad"}}
                ],
            )
            assert "turns[0].metadata" in message, message
            tools = (await client.list_tools()).tools
            assert all(t.input_schema.get("additionalProperties") is False for t in tools)

    anyio.run(scenario)
    store = server.omoide.store.sessions("rin")
    assert store.events_after(store.get(begun[0]), 0) == []
