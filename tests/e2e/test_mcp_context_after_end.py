"""What the next conversation starts with, through MCP (the SDK's client over streamable HTTP,
the server's fixed clock, job workers held): a model that never called session_end reads, in
session_begin's context, what the user said in the conversation it left open — before any
background work ran — and get_context right after session_end shows the same; once
consolidation has run, the notes take the turns' place."""

from __future__ import annotations

import anyio
from mcp_checks import http_client, ok, text_of
from omoide_testing import LiveServer

from omoide.clock import FixedClock

TURNS = [
    {
        "speaker": "Lea",
        "role": "user",
        "content": "I finally booked the trip: ten days in Hokkaido in February.",
    },
    {"speaker": "Haru", "role": "assistant", "content": "How exciting! What will you do?"},
    {
        "speaker": "Lea",
        "role": "user",
        "content": "I want to see the Sapporo snow festival and learn to ski in Niseko.",
    },
    {"speaker": "Haru", "role": "assistant", "content": "That sounds wonderful."},
    {
        "speaker": "Lea",
        "role": "user",
        "content": "My sister Camille is coming with me, she already skis well.",
    },
]


def test_session_begin_shows_the_conversation_left_open(
    held_server: LiveServer, clock: FixedClock
) -> None:
    key = held_server.create_persona("lea")

    async def scenario() -> None:
        async with http_client(held_server.url, key) as client:
            first = (await ok(client, "session_begin")).structured_content["session_id"]
            await ok(client, "session_record", session_id=first, turns=TURNS)
            clock.advance(minutes=10)
            # The model never called session_end; the next conversation begins.
            begun = await ok(client, "session_begin")
            text = text_of(begun)
            for words in ("Hokkaido", "Niseko", "Camille"):
                assert words in text, text
            excerpts = begun.structured_content["sections"]["last_conversation"]
            assert [e["session_id"] for e in excerpts] == [first]
            assert all(s["event_id"] for e in excerpts for s in e["sources"])
            second = begun.structured_content["session_id"]

            # Mid-conversation the context does not echo the current conversation...
            await ok(
                client,
                "session_record",
                session_id=second,
                turns=[
                    {"speaker": "Lea", "role": "user", "content": "I adopted a cat named Pistache."}
                ],
            )
            mid = await ok(client, "get_context")
            assert "Pistache" not in text_of(mid)
            # ...and right after session_end it shows it, before any job ran.
            await ok(client, "session_end", session_id=second)
            ended = await ok(client, "get_context")
            assert "Pistache" in text_of(ended), text_of(ended)
            found = await ok(client, "memory_search", query="cat Pistache")
            assert any(
                "Pistache" in r["content"] and r["sources"]
                for r in found.structured_content["results"]
            )

            assert held_server.omoide.runner.run_until_idle() > 0
            after = await ok(client, "get_context")
            assert after.structured_content["sections"]["last_conversation"] == []
            assert "Hokkaido" in text_of(after) and "Pistache" in text_of(after)

    anyio.run(scenario)
