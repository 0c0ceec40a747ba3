"""Session 23's probe: ``emotion_type: ""`` was stored as an empty label. A blank label is now
refused as a blank tag or state value is (leave it out or send null for none); an export from
before holding "" imports as none. Through real HTTP on both stores."""

from __future__ import annotations

import pytest
from omoide_testing import LiveServer, exported_lines, import_lines, refused


@pytest.mark.parametrize("blank", ["", "   ", "\u200b"])
def test_a_blank_emotion_label_is_refused_on_create_and_on_update(
    server: LiveServer, blank: str
) -> None:
    key = server.create_persona("rin")
    with server.client(key) as rin:
        error = refused(
            rin.post(
                "/api/memories/rin", json={"content": "Ken likes tea.", "emotion_type": blank}
            ),
            422,
        )
        assert error["field"] == "emotion_type", error
        assert rin.get("/api/memories/rin").json()["memories"] == []
        made = rin.post(
            "/api/memories/rin", json={"content": "Ken likes tea.", "emotion_type": " joy "}
        )
        assert made.status_code == 201, made.text
        memory_key = made.json()["memory"]["key"]
        shown = rin.get(f"/api/memories/rin/{memory_key}").json()
        assert shown["emotion_type"] == "joy", shown  # trimmed, as tags are
        error = refused(
            rin.patch(f"/api/memories/rin/{memory_key}", json={"emotion_type": blank}), 422
        )
        assert error["field"] == "emotion_type", error
        assert rin.get(f"/api/memories/rin/{memory_key}").json()["emotion_type"] == "joy"
        cleared = rin.patch(f"/api/memories/rin/{memory_key}", json={"emotion_type": None})
        assert cleared.status_code == 200, cleared.text
        assert rin.get(f"/api/memories/rin/{memory_key}").json()["emotion_type"] is None


def test_an_export_holding_an_empty_label_imports_it_as_none(server: LiveServer) -> None:
    """Stores written before this kept "" labels; their exports must still restore."""
    key = server.create_persona("rin")
    with server.client(key) as rin:
        assert (
            rin.post(
                "/api/memories/rin", json={"content": "Ken likes tea.", "emotion_type": "joy"}
            ).status_code
            == 201
        )
        lines = [dict(r) for r in exported_lines(rin, "rin")]
    memory = next(r for r in lines if r["type"] == "memory")
    memory["emotion_type"] = ""
    server.create_persona("copy")
    with server.admin() as admin:
        reply = import_lines(admin, "copy", lines)
        assert reply.status_code == 200, reply.text
        stored = admin.get("/api/memories/copy").json()["memories"]
    tea = [m for m in stored if m["content"] == "Ken likes tea."]
    assert [m["emotion_type"] for m in tea] == [None], stored
