"""Found by hand in session 23's probe, through real HTTP on both stores."""

from __future__ import annotations

import httpx
import pytest
from omoide_testing import LiveServer


@pytest.mark.parametrize("content_type", ["application/json", None])
def test_an_export_sent_as_one_json_document_is_told_its_content_type(
    server: LiveServer, rin: httpx.Client, content_type: str | None
) -> None:
    """An export posted as application/json (or with no content type, as ``curl -d`` with
    the type left out) was refused with the parser's words alone ('not valid JSON: Extra
    data at line 2 column 1'), which do not say what to change."""
    assert (
        rin.post("/api/memories/rin", json={"content": "Ken drinks green tea."}).status_code == 201
    )
    export = rin.get("/api/export/rin").content
    key = server.create_persona("kai")
    with server.client(key) as kai:
        headers = {"content-type": content_type} if content_type else {}
        refused = kai.post("/api/import/kai", content=export, headers=headers)
        assert refused.status_code == 422, refused.text
        message = refused.json()["error"]["message"]
        assert "JSON Lines" in message and "application/x-ndjson" in message, message
        # a Mem0 or chat file is one JSON document: its refusal does not point at JSON Lines
        mem0 = kai.post(
            "/api/import/kai?source=mem0",
            content=b"[1] [2]",
            headers={"content-type": "application/json"},
        )
        assert mem0.status_code == 422 and "x-ndjson" not in mem0.json()["error"]["message"]
        done = kai.post(
            "/api/import/kai", content=export, headers={"content-type": "application/x-ndjson"}
        )
        assert done.status_code == 200 and done.json()["memories"] == 1, done.text


def test_a_mem0_file_sent_as_an_export_is_told_its_source(rin: httpx.Client) -> None:
    """A Mem0 export posted without ?source=mem0 was refused with 'line 1: unknown record type
    None'; the message now says what an export starts with and how to import the file."""
    reply = rin.post(
        "/api/import/rin",
        content=b'{"results": [{"memory": "Ken likes tea."}]}\n',
        headers={"content-type": "application/x-ndjson"},
    )
    assert reply.status_code == 422 and reply.json()["error"]["line"] == 1, reply.text
    message = reply.json()["error"]["message"]
    assert "source=mem0" in message and "header" in message, message
    assert rin.get("/api/memories/rin").json()["memories"] == []
