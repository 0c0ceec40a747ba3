"""Session 44: a blank ``metadata.image_caption`` was stored, then read as no caption at all
(``engine.attachments.image_caption``): accepted, kept, meaning nothing. It is refused as blank
text is everywhere (422 naming it over HTTP, a tool error over MCP), and an export written
before that still imports, its blank caption read as none."""

from __future__ import annotations

import json

import anyio
import pytest
from mcp_checks import http_client, tool_error
from omoide_testing import LiveServer

pytestmark = pytest.mark.sqlite_only  # the check is the service's, before any store

BLANKS = [
    pytest.param("", id="empty"),
    pytest.param("  ", id="spaces"),
    pytest.param("\u200b", id="zwsp"),
]


@pytest.mark.parametrize("caption", BLANKS)
def test_a_blank_image_caption_is_refused_naming_it(server: LiveServer, caption: str) -> None:
    key = server.create_persona("ken")
    with server.client(key) as c:
        assert c.post("/api/sessions/ken", json={"session_id": "s1"}).status_code == 201
        turn = {"speaker": "Ken", "content": "📷", "metadata": {"image_caption": caption}}
        bad = c.post("/api/sessions/ken/s1/events", json={"events": [turn]})
        assert bad.status_code == 422, bad.text
        error = bad.json()["error"]
        assert error["field"] == "events[0].metadata.image_caption"
        assert "not blank" in error["message"]
        assert c.get("/api/sessions/ken").json()["sessions"][0]["events"] == 0


@pytest.mark.parametrize("caption", ["   ", "\u200b"])
def test_a_blank_image_caption_is_a_tool_error_over_mcp(server: LiveServer, caption: str) -> None:
    key = server.create_persona("ken")

    async def scenario() -> str:
        async with http_client(server.url, key) as client:
            begun = await client.call_tool("session_begin", {})
            session_id = begun.structured_content["session_id"]  # type: ignore[index]
            turn = {"speaker": "Ken", "content": "📷", "image_caption": caption}
            return await tool_error(client, "session_record", session_id=session_id, turns=[turn])

    said = anyio.run(scenario)
    assert "image_caption" in said and "not blank" in said, said


def test_an_older_export_with_a_blank_caption_imports_it_as_none(server: LiveServer) -> None:
    source = server.create_persona("src")
    with server.client(source) as src:
        assert src.post("/api/sessions/src", json={"session_id": "s1"}).status_code == 201
        turn = {"speaker": "Ken", "content": "Look!", "metadata": {"image_caption": "a red bike"}}
        assert src.post("/api/sessions/src/s1/events", json={"events": [turn]}).status_code == 200
        lines = src.get("/api/export/src").text.splitlines()
    older = []  # as a server before the refusal wrote it
    for line in lines:
        record = json.loads(line)
        if record.get("type") == "event":
            record["metadata"]["image_caption"] = "  "
        older.append(json.dumps(record, ensure_ascii=False))
    key = server.create_persona("rin")
    with server.client(key) as rin:
        reply = rin.post(
            "/api/import/rin",
            content="\n".join(older) + "\n",
            headers={"content-type": "application/x-ndjson"},
        )
        assert reply.status_code == 200, reply.text
        exported = [json.loads(x) for x in rin.get("/api/export/rin").text.splitlines()]
    events = [r for r in exported if r.get("type") == "event"]
    assert [e["content"] for e in events] == ["Look!"]
    assert "image_caption" not in (events[0]["metadata"] or {})
