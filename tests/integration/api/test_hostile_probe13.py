"""Found by hand in session 13's probe, through real HTTP on both stores."""

from __future__ import annotations

import json

import httpx
import pytest
from omoide_testing import LiveServer


def test_a_json_body_sent_without_a_content_type_is_read_as_json(rin: httpx.Client) -> None:
    """docs/api.md says a body is JSON with ``Content-Type: application/json`` or none; with
    none, FastAPI (strict content type) read it as bytes and answered a misleading 422
    ('request body: Input should be a valid dictionary')."""
    made = rin.post("/api/memories/rin", content=b'{"content": "Ken likes rain."}')
    assert made.status_code == 201, made.text
    patched = rin.patch(
        f"/api/memories/rin/{made.json()['memory']['key']}", content=b'{"tags": ["weather"]}'
    )
    assert patched.status_code == 200 and patched.json()["tags"] == ["weather"], patched.text
    refused = rin.post("/api/memories/rin", content=b'{"content": 1}')
    assert refused.status_code == 422 and refused.json()["error"]["field"] == "content"


def _import(client: httpx.Client, persona: str, lines: list[str]) -> httpx.Response:
    return client.post(
        f"/api/import/{persona}",
        content="".join(lines).encode(),
        headers={"content-type": "application/x-ndjson"},
    )


@pytest.fixture
def export(server: LiveServer, rin: httpx.Client) -> list[str]:
    """rin's export (a session with turns, a block, a state value, memories), as lines."""
    assert rin.post("/api/sessions/rin", json={"session_id": "t1"}).status_code == 201
    assert (
        rin.post(
            "/api/sessions/rin/t1/events",
            json={"events": [{"speaker": "Ken", "content": f"turn {i}"} for i in range(3)]},
        ).status_code
        == 200
    )
    assert rin.post("/api/blocks/rin", json={"block_name": "b1", "content": "c"}).status_code == 200
    for text in ("Ken drinks green tea.", "Ken owns a cello.", "Ken lives in Osaka."):
        assert rin.post("/api/memories/rin", json={"content": text}).status_code == 201
    return rin.get("/api/export/rin").text.splitlines(keepends=True)


@pytest.mark.parametrize(
    "cut", ["at-a-line-boundary", "a-line-lost", "a-line-added", "after-the-end"]
)
def test_an_export_cut_off_or_spliced_imports_nothing(
    server: LiveServer, export: list[str], cut: str
) -> None:
    """A file cut off at a line boundary (an interrupted download) imported as a whole one:
    the persona silently got the first part (a session and three of its turns, no memories).
    Exports now end with an ``end`` record counting the records before it."""
    assert '"type": "end"' in export[-1]
    memory = next(i for i, line in enumerate(export) if '"type": "memory"' in line)
    lines = {
        "at-a-line-boundary": export[:memory],
        "a-line-lost": export[:memory] + export[memory + 1 :],
        "a-line-added": export[: memory + 1] + export[memory:],
        "after-the-end": [*export, export[memory]],
    }[cut]
    key = server.create_persona("kai")
    with server.client(key) as kai:
        reply = _import(kai, "kai", lines)
        assert reply.status_code == 422, reply.text
        message = reply.json()["error"]["message"]
        assert (
            "cut off" in message
            or "lost or added" in message
            or "after the end record" in message
            or "described a second time" in message
        ), message  # a memory line twice
        assert "nothing was imported" in message or "last line" in message
        exported = kai.get("/api/export/kai").text
        assert '"type": "memory"' not in exported and '"type": "session"' not in exported
        assert _import(kai, "kai", export).status_code == 200  # the whole file imports


def test_an_export_written_before_the_end_record_still_imports(
    server: LiveServer, export: list[str]
) -> None:
    """Files exported before the end record existed have none (and no "ends" in the header)."""
    head = json.loads(export[0])
    del head["ends"]
    old = [json.dumps(head) + "\n", *export[1:-1]]
    key = server.create_persona("kai")
    with server.client(key) as kai:
        reply = _import(kai, "kai", old)
        assert reply.status_code == 200 and reply.json()["memories"] == 3, reply.text


def test_a_chat_import_with_an_unknown_role_is_refused(rin: httpx.Client) -> None:
    """A message whose role is a typo ("usr") was dropped as a system message is: the import
    answered 200 with no turns, and the conversation was lost without a word."""
    chat = [
        {"role": "user", "content": "I moved to Kyoto."},
        {"role": "usr", "content": "And I adopted a cat."},
    ]
    reply = rin.post("/api/import/rin", params={"source": "chat"}, json=chat)
    assert reply.status_code == 422, reply.text
    assert "message 1: unknown role 'usr'" in reply.json()["error"]["message"]
    assert '"type": "session"' not in rin.get("/api/export/rin").text
    chat[1]["role"] = "system"  # a system message is still left out, as documented
    assert rin.post("/api/import/rin", params={"source": "chat"}, json=chat).status_code == 200
