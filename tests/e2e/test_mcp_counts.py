"""Session 45: the MCP tools' text said "recorded 1 turn(s)", "1 result(s) for …", "(1
version(s), oldest first)", "in session(s) s1" and "1 active memories … 1 links" (in
``memory_stats`` and ``get_context``): one noun, singular for exactly one and plural
otherwise, as the rest of the tools' text writes it (``engine.counts``, which the CLI's lines
use too). Through the SDK's client."""

from __future__ import annotations

from typing import Any

import anyio
import pytest
from mcp.client import Client
from mcp_checks import ok, text_of

from omoide.api.mcp import build_mcp_server, fixed_persona, text
from omoide.wiring import Omoide

pytestmark = pytest.mark.sqlite_only  # words, the same on either store


def _texts(app: Omoide, persona: str, calls: list[tuple[str, dict[str, Any]]]) -> list[str]:
    async def scenario() -> list[str]:
        async with Client(build_mcp_server(app, fixed_persona(persona))) as client:
            return [text_of(await ok(client, name, **arguments)) for name, arguments in calls]

    return anyio.run(scenario)


def test_counts_are_singular_for_one_and_plural_otherwise(app: Omoide, persona: str) -> None:
    app.sessions.open(persona, session_id="s1")
    turn = {"speaker": "Ken", "role": "user", "content": "I drink green tea every morning."}
    key = app.memories.create(
        persona, app.memories.build_new(content="Ken drinks green tea every morning.")
    ).memory.key
    one, two, found, history, stats, context = _texts(
        app,
        persona,
        [
            ("session_record", {"session_id": "s1", "turns": [turn]}),
            ("session_record", {"session_id": "s1", "turns": [turn, {**turn, "content": "Hi"}]}),
            ("memory_search", {"query": "green tea", "top_k": 1}),
            ("memory_history", {"key": key}),
            ("memory_stats", {}),
            ("get_context", {}),
        ],
    )
    assert one == "recorded 1 turn in s1"
    assert two == "recorded 2 turns in s1"
    assert found.startswith("1 result for “green tea” (hybrid):"), found
    assert history.startswith(f"History of {key} (1 version, oldest first):"), history
    assert f"Persona {persona}: 1 active memory (1 total," in stats, stats
    assert "; 0 links; " in stats, stats
    last = context.splitlines()[-1]
    assert last.startswith("1 active memory (0 superseded), mean strength "), context
    assert last.endswith(", 0 links."), context


@pytest.mark.parametrize(
    ("said_in", "said"),
    [
        (["s1"], "in session s1, which was not erased … then delete that session."),
        (["s1", "s2"], "in sessions s1, s2, which were not erased … then delete those sessions."),
    ],
)
def test_an_erased_memorys_sessions_are_named_singular_or_plural(
    said_in: list[str], said: str
) -> None:
    """(The text a purge answers, pure: a memory consolidated from a conversation.)"""
    purged = {"persona": "rin", "key": "k1", "status": "purged", "said_in": said_in}
    told = text.deleted_text({**purged, "also_purged": ["k2"]})
    start, end = said.split(" … ")
    assert f"It was drawn from what was said {start}" in told, told
    assert told.endswith(end), told
    assert "Also erased, as it held part of its text: k2." in told, told
