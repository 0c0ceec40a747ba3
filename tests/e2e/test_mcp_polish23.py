"""Session 23's probe over MCP (the SDK client, streamable HTTP): dates read one way
(full-width digits as ASCII, as date_range read them) and an emotion label is given or not
(a blank one refused on create; 'none' removes it on update, as for a validity bound)."""

from __future__ import annotations

import anyio
from mcp_checks import http_client, ok, tool_error
from omoide_testing import LiveServer


def test_mcp_reads_full_width_dates_and_refuses_a_blank_emotion(server: LiveServer) -> None:
    key = server.create_persona("rin")

    async def scenario() -> None:
        async with http_client(server.url, key) as client:
            made = await ok(
                client,
                "memory_create",
                content="Ken lives in Osaka.",
                kind="fact",
                emotion_type="joy",
                valid_from="２０２６－０３－０１Ｔ０９：００：００＋０９：００",
            )
            memory = made.structured_content["memory"]  # type: ignore[index]
            assert memory["valid_from"].startswith("2026-03-01T00:00:00"), memory
            found = await ok(
                client,
                "memory_search",
                query="Osaka",
                mode="keyword",
                valid_at="２０２６－０６－０１",
            )
            keys = [r["key"] for r in found.structured_content["results"]]  # type: ignore[index]
            assert keys == [memory["key"]]
            message = await tool_error(
                client, "memory_create", content="Ken likes tea.", emotion_type="  "
            )
            assert "emotion_type" in message and "null" in message, message
            cleared = await ok(client, "memory_update", key=memory["key"], emotion_type="none")
            assert cleared.structured_content["emotion_type"] is None  # type: ignore[index]

    anyio.run(scenario)
