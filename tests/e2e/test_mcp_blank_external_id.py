"""A turn's ``external_id`` of only whitespace is refused by ``session_record`` in HTTP's
words (it was stored; ``integration/api/test_qa44_blank_external_id`` is the HTTP side)."""

from __future__ import annotations

import anyio
from mcp_checks import http_client, ok, tool_error
from omoide_testing import LiveServer


def test_session_record_refuses_a_blank_external_id(server: LiveServer) -> None:
    key = server.create_persona("rin")

    async def scenario() -> str:
        async with http_client(server.url, key) as client:
            begun = await ok(client, "session_begin")
            turns = [{"speaker": "Ken", "content": "green tea", "external_id": "   "}]
            session_id = begun.structured_content["session_id"]
            return await tool_error(client, "session_record", session_id=session_id, turns=turns)

    message = anyio.run(scenario)
    assert "turns[0].external_id must not be empty or whitespace" in message, message
