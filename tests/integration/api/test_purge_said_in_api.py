"""A purge erases the memory, not the conversation it was drawn from: the reply names the
sessions whose turns may still hold its words (``said_in``), over HTTP, MCP, the CLI and the
dashboard, and the conversation is only erased when the user erases it."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import anyio
import httpx
from mcp.client import Client
from mcp_checks import text_of
from omoide_testing import Holding, LiveServer, chat_notes

from omoide.api.mcp import build_mcp_server, fixed_persona

PIN = "ZQXJV-4827"
TURNS = [
    ("Ken", "user", f"My favourite food is {PIN} ramen."),
    ("Ken", "user", "I moved to Kyoto last month."),
    ("Omoide", "assistant", "Nice to hear!"),
]


def _note_holding(notes: list[dict[str, Any]], word: str) -> str:
    found = [n["key"] for n in notes if word in n["content"]]
    assert found, [n["content"] for n in notes]
    return found[0]


def test_a_purge_names_the_sessions_that_still_hold_the_words_over_http(
    server: LiveServer, holding: Holding
) -> None:
    with server.client(server.create_persona("rin")) as rin:
        key = _note_holding(chat_notes(rin, server.omoide, "rin", "s1", TURNS), PIN)
        by_hand = rin.post("/api/memories/rin", json={"content": "Gate code 5511"}).json()[
            "memory"
        ]["key"]

        reply = rin.delete(f"/api/memories/rin/{key}", params={"purge": "true"})

        assert reply.status_code == 200, reply.text
        assert reply.json()["said_in"] == ["s1"]
        assert rin.get(f"/api/memories/rin/{key}").status_code == 404
        assert holding(PIN)  # the conversation is the user's to erase, not erased silently
        assert rin.get("/api/sessions/rin/s1/episodes").status_code == 200
        assert rin.delete("/api/sessions/rin/s1").status_code == 200
        assert holding(PIN) == []
        alone = rin.delete(f"/api/memories/rin/{by_hand}", params={"purge": "true"})
        assert alone.json()["said_in"] == []  # written by hand: drawn from no conversation


def test_memory_delete_with_purge_names_the_sessions_over_mcp(server: LiveServer) -> None:
    with server.client(server.create_persona("rin")) as rin:
        key = _note_holding(chat_notes(rin, server.omoide, "rin", "s1", TURNS), PIN)
    mcp = build_mcp_server(server.omoide, fixed_persona("rin"))

    async def purge() -> tuple[str, dict[str, Any] | None]:
        async with Client(mcp) as client:
            result = await client.call_tool("memory_delete", {"key": key, "purge": True})
            assert not result.is_error, text_of(result)
            return text_of(result), result.structured_content

    said, structured = anyio.run(purge)
    assert "s1" in said and "may still hold these words" in said
    assert structured is not None and structured["said_in"] == ["s1"]


def test_memory_delete_purge_names_the_sessions_from_the_cli(tmp_path: Path, monkeypatch) -> None:
    from click.testing import CliRunner

    from omoide.cli import main

    monkeypatch.setenv("OMOIDE_EMBEDDER", "hash")
    data = str(tmp_path / "data")
    chat = tmp_path / "chat.json"
    chat.write_text(
        json.dumps(
            [{"role": "user", "content": content} for _, role, content in TURNS if role == "user"]
        )
    )

    def run(*args: str) -> Any:
        result = CliRunner().invoke(main, [*args, "--data", data], catch_exceptions=False)
        assert result.exit_code == 0, result.output
        return result

    session = json.loads(run("import", "-p", "rin", "--from", "chat", "--json", str(chat)).stdout)[
        "session_ids"
    ][0]
    notes = json.loads(run("memory", "list", "-p", "rin", "--json").stdout)
    key = _note_holding(notes, "Kyoto")
    said = run("memory", "delete", "-p", "rin", key, "--purge").stdout
    assert f"erased {key}" in said
    assert f"its words may still be in the turns of: {session}" in said
    assert "omoide session delete -p rin SESSION_ID" in said


def _csrf(page: httpx.Response) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', page.text)
    assert found is not None
    return found.group(1)


def test_the_dashboard_notice_names_the_sessions(server: LiveServer) -> None:
    api_key = server.create_persona("rin")
    with server.client(api_key) as rin:
        key = _note_holding(chat_notes(rin, server.omoide, "rin", "s1", TURNS), PIN)
    with server.signed_in(api_key) as client:
        page = client.get(f"/p/rin/memories/{key}/purge")
        assert "The conversations it was drawn from are not erased" in page.text
        done = client.post(
            f"/p/rin/memories/{key}/purge",
            data={"csrf": _csrf(page), "confirm": key},
            follow_redirects=True,
        )
        assert done.status_code == 200
        assert f"Purged {key}" in done.text
        assert 'href="/p/rin/sessions/s1">s1</a>' in done.text
        assert "not erased and may still hold these words" in done.text
