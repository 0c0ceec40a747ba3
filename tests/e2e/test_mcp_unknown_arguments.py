"""An argument a tool does not have is a tool error naming it, not silently dropped (an LLM
that writes ``limit`` for ``top_k`` or ``text`` for ``content`` must learn it did)."""

from __future__ import annotations

import anyio
from mcp_checks import http_client, ok, text_of, tool_error
from omoide_testing import LiveServer


def test_mcp_refuses_unknown_arguments_and_writes_nothing(server: LiveServer) -> None:
    key = server.create_persona("rin")

    async def scenario() -> None:
        async with http_client(server.url, key) as client:
            message = await tool_error(client, "memory_create", content="I like tea.", mood="happy")
            assert "unknown argument 'mood'" in message
            assert "content" in message and "importance" in message  # what it takes
            message = await tool_error(client, "memory_search", query="tea", limit=3)
            assert "unknown argument 'limit'" in message and "top_k" in message
            assert "no arguments" in await tool_error(client, "memory_stats", verbose=True)
            stats = await ok(client, "memory_stats")
            assert stats.structured_content is not None
            assert stats.structured_content["total"] == 0, text_of(stats)

    anyio.run(scenario)
