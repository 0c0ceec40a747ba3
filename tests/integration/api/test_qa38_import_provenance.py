"""Session 38: an import stored a memory whose provenance names a turn or an episode the file
does not hold with no provenance at all, without a word (``sources: []``, ``source_ref: null``):
``said_in`` then forgot where it was said, and erasing that conversation with ``with_notes``
left the note behind. Such a file (edited by hand) is refused like a dangling pointer: 422
naming the line and the field, nothing written. Through real HTTP."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from omoide_testing import LiveServer, exported_lines

pytestmark = pytest.mark.sqlite_only  # the import's first pass, before the store, is under test

Edit = Callable[[dict[str, Any]], None]


def _sources(*named: tuple[str, int]) -> Edit:
    def edit(memory: dict[str, Any]) -> None:
        memory["sources"] = [{"session_id": s, "seq": q} for s, q in named]

    return edit


def _episode(session_id: str, first_seq: int) -> Edit:
    def edit(memory: dict[str, Any]) -> None:
        memory["source"] = "consolidation"
        memory["source_ref"] = {"episode": {"session_id": session_id, "first_seq": first_seq}}

    return edit


def _file(server: LiveServer, edit: Edit) -> bytes:
    key = server.create_persona("src")
    with server.client(key) as client:
        records = exported_lines(client, "src")
    for record in records:
        if record["type"] == "memory":
            edit(record)
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records).encode()


@pytest.mark.parametrize(
    ("edit", "field", "words"),
    [
        (_sources(("t1", 7)), "sources", "turn 7 of session 't1'"),
        (_sources(("gone", 1)), "sources", "session 'gone'"),
        (_episode("t1", 1), "source_ref", "episode starting at turn 1 of session 't1'"),
        (_episode("gone", 1), "source_ref", "session 'gone'"),
    ],
)
def test_provenance_the_file_lacks_is_refused(
    server: LiveServer, edit: Edit, field: str, words: str
) -> None:
    body = _file(server, edit)
    key = server.create_persona("dst")
    with server.client(key) as client:
        reply = client.post(
            "/api/import/dst", content=body, headers={"content-type": "application/x-ndjson"}
        )
        assert reply.status_code == 422, reply.text
        error = reply.json()["error"]
        assert error["field"] == field and words in error["message"], error
        assert client.get("/api/memories/dst").json()["memories"] == []


def test_provenance_the_file_holds_is_kept(server: LiveServer) -> None:
    body = _file(server, _sources(("t1", 1)))
    key = server.create_persona("dst")
    with server.client(key) as client:
        reply = client.post(
            "/api/import/dst", content=body, headers={"content-type": "application/x-ndjson"}
        )
        assert reply.status_code == 200, reply.text
        (memory,) = client.get("/api/memories/dst").json()["memories"]
        assert [s["external_id"] for s in memory["sources"]] != []
        purged = client.delete(f"/api/memories/dst/{memory['key']}", params={"purge": "true"})
    assert purged.json()["said_in"] == ["t1"], purged.text
