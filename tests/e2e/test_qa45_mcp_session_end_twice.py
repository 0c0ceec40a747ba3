"""``session_end`` on a session that had already ended, through MCP (the SDK's client over
streamable HTTP, job workers held; qa45h): the result says ``already_ended`` and its text that
it had already ended, with that end's time and cause, and nothing is queued again."""

from __future__ import annotations

import anyio
from mcp_checks import http_client, ok, text_of
from omoide_testing import LiveServer

TURNS = [{"speaker": "Lea", "role": "user", "content": "I adopted a grey cat called Miso."}]


def test_a_second_session_end_says_it_had_already_ended(held_server: LiveServer) -> None:
    key = held_server.create_persona("lea")

    def pending() -> int:
        with held_server.client(key) as c:
            return int(c.get("/api/jobs/lea").json()["pending"])

    async def scenario() -> None:
        async with http_client(held_server.url, key) as client:
            sid = (await ok(client, "session_begin")).structured_content["session_id"]
            await ok(client, "session_record", session_id=sid, turns=TURNS)
            first = await ok(client, "session_end", session_id=sid)
            assert first.structured_content["already_ended"] is False
            assert first.structured_content["ended_by"] == "client"
            assert text_of(first).endswith("by client; consolidating"), text_of(first)
            queued = pending()
            second = await ok(client, "session_end", session_id=sid)
            assert second.structured_content == {**first.structured_content, "already_ended": True}
            said = text_of(second)
            assert said.startswith(f"session {sid} had already ended "), said
            assert said.endswith(" by client; nothing more to do"), said
            assert pending() == queued

    anyio.run(scenario)
