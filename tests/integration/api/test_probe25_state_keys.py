"""Session 25: a user-state key had to be ASCII (``名前`` was refused). Keys are now 1-64
characters of any script (NFC) without spaces, control or invisible characters or ASCII
punctuation but ``_`` and ``-``; every key stored before is still one, and case still matters
(``Name`` and ``name`` are two keys). Real HTTP and the MCP SDK client."""

from __future__ import annotations

import json
from urllib.parse import quote

import anyio
import pytest
from mcp_checks import http_client, ok, tool_error
from omoide_testing import LiveServer


def test_state_keys_in_any_script(server: LiveServer) -> None:
    key = server.create_persona("rin")
    with server.client(key) as rin:
        put = rin.put(
            "/api/user-state/rin",
            json={"名前": "花子", "prénom": "Anne", "🎉": "yes", "Name": "Ken", "name": "Kenji"},
        )
        assert put.status_code == 200, put.text
        decomposed = rin.put(
            "/api/user-state/rin",
            content=json.dumps({"pre\u0301nom": "Anna"}, ensure_ascii=False).encode(),
            headers={"content-type": "application/json"},
        )
        assert decomposed.status_code == 200, decomposed.text
        state = rin.get("/api/user-state/rin").json()["state"]
        assert state == {
            "名前": "花子",
            "prénom": "Anna",
            "Name": "Ken",
            "name": "Kenji",
            "🎉": "yes",
        }
        history = rin.get(f"/api/user-state/rin/history?key={quote('名前')}")
        assert history.status_code == 200, history.text
        assert [h["value"] for h in history.json()["history"]] == ["花子"]
        persona = rin.put("/api/persona-state/rin", json={"気分": "上機嫌"})
        assert persona.status_code == 200, persona.text


@pytest.mark.parametrize("bad", ["na me", "名前!", "a.b", "a/b", "x" * 65, "", "k\u200b", "k\x1b"])
def test_a_key_that_is_no_word_is_refused_naming_the_rule(server: LiveServer, bad: str) -> None:
    key = server.create_persona("rin")
    with server.client(key) as rin:
        refused = rin.put("/api/user-state/rin", json={bad: "x"})
        assert refused.status_code == 422, refused.text
        assert "characters of any script" in refused.json()["error"]["message"]
        history = rin.get("/api/user-state/rin/history", params={"key": bad or " "})
        assert history.status_code == 422, history.text


def test_mcp_reads_and_writes_unicode_state_keys(server: LiveServer) -> None:
    key = server.create_persona("rin")

    async def scenario() -> None:
        async with http_client(server.url, key) as client:
            await ok(client, "update_context", user_info={"名前": "花子"})
            history = await ok(client, "user_state_history", key="名前")
            assert "花子" in json.dumps(history.structured_content, ensure_ascii=False)
            said = await tool_error(client, "update_context", user_info={"名 前": "花子"})
            assert "any script" in said

    anyio.run(scenario)
