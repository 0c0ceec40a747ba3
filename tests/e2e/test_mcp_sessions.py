"""No conversation is lost, through MCP (the SDK's client over streamable HTTP, the server's
fixed clock): a model that never calls session_end loses nothing. The next session_begin ends
the open session, and the scheduler ends one that went idle; either way it is segmented,
consolidated and searchable. How each ended is recorded (new_session, idle; client for a
session_end)."""

from __future__ import annotations

from typing import Any

import anyio
from mcp_checks import http_client, ok
from omoide_testing import LiveServer, wait_for_jobs

from omoide.api.render import ts
from omoide.clock import FixedClock


def turns(topic: str, n: int = 12) -> list[dict[str, Any]]:
    user = [
        f"I started learning the {topic} three months ago at a community music school.",
        f"My teacher Ines says my {topic} tone got much warmer this spring.",
        f"I practise the {topic} every evening for forty minutes after work.",
        f"I bought a second-hand {topic} from a shop in Lyon for 900 euros.",
        f"Next month I will play the {topic} at the school's winter recital.",
        f"My brother Marc records my {topic} practice so I can hear my mistakes.",
    ]
    out = []
    for i in range(n):
        if i % 2 == 0:
            out.append({"speaker": "Lea", "role": "user", "content": user[(i // 2) % 6]})
        else:
            out.append(
                {
                    "speaker": "Haru",
                    "role": "assistant",
                    "content": "That is lovely to hear, tell me more.",
                }
            )
    return out


def test_session_begin_and_the_idle_sweep_end_sessions_nobody_ended(
    server: LiveServer, clock: FixedClock
) -> None:
    key = server.create_persona("lea")

    async def scenario() -> None:
        async with http_client(server.url, key) as client:
            first = (await ok(client, "session_begin")).structured_content["session_id"]
            await ok(client, "session_record", session_id=first, turns=turns("cello"))
            clock.advance(minutes=3)
            # The model never called session_end; the next conversation begins.
            second = (await ok(client, "session_begin")).structured_content["session_id"]
            wait_for_jobs(server.omoide, "lea")
            closed = server.omoide.sessions.get("lea", first)
            assert closed.ended_at is not None and closed.ended_by == "new_session"
            assert server.omoide.sessions.get("lea", second).ended_at is None
            episodes = server.omoide.sessions.episodes("lea", first)
            assert episodes and any(notes for _, notes in episodes)
            found = await ok(client, "memory_search", query="cello recital")
            assert found.structured_content["results"]

            # The second conversation is never ended either: the scheduler ends it.
            shown = {
                "speaker": "Lea",
                "role": "user",
                "content": "This is my new oboe!",
                "image_caption": "a black oboe with silver keys in an open velvet case",
            }
            await ok(client, "session_record", session_id=second, turns=[*turns("oboe"), shown])
            clock.advance(minutes=31)
            assert server.omoide.runner.tick_now()
            wait_for_jobs(server.omoide, "lea")
            idled = server.omoide.sessions.get("lea", second)
            assert idled.ended_at is not None and idled.ended_by == "idle"
            hits = await ok(client, "episode_search", query="second-hand oboe Lyon")
            assert hits.structured_content["results"]
            episodes = server.omoide.sessions.episodes("lea", second)
            assert any("[image: a black oboe with silver keys" in ep.content for ep, _ in episodes)
            notes = await ok(client, "memory_search", query="oboe", include_episodes=False)
            assert any("oboe" in r["content"] for r in notes.structured_content["results"])

            # A model that does call session_end: the session ended by its client.
            third = (await ok(client, "session_begin")).structured_content["session_id"]
            await ok(client, "session_record", session_id=third, turns=turns("harp", 2))
            ended = await ok(client, "session_end", session_id=third)
            assert server.omoide.sessions.get("lea", third).ended_by == "client"
            assert ended.structured_content["ended_by"] == "client"
            assert ended.structured_content["already_ended"] is False
            assert f"session {third} ended " in ended.content[0].text
            assert " by client; consolidating" in ended.content[0].text
            # Ending the one the idle sweep ended says so, with its first end.
            again = await ok(client, "session_end", session_id=second)
            assert again.structured_content == {
                "session_id": second,
                "ended_at": ts(idled.ended_at),
                "ended_by": "idle",
                "already_ended": True,
            }
            assert f"session {second} had already ended " in again.content[0].text
            assert " by idle; nothing more to do" in again.content[0].text
            wait_for_jobs(server.omoide, "lea")

    anyio.run(scenario)
