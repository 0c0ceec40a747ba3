"""Session 26's probe: the server's own export of data stored before control characters were
refused (a state value, tags, an emotion label holding ESC or DEL) re-imported. Into an empty
persona it imports, each control read as a space and counted; into the persona that holds it,
without ``merge``, it is a 409 whose message says what differs and what to do. Real HTTP."""

from __future__ import annotations

import json

import httpx
import pytest
from omoide_testing import LiveServer, wait_for_jobs

pytestmark = pytest.mark.sqlite_only  # the older rows are written into SQLite by hand

NDJSON = {"content-type": "application/x-ndjson"}


def _older_rows(server: LiveServer, client: httpx.Client) -> str:
    """rin's export after a memory's tags and label and a state value took control characters,
    as a server before that check stored them; returns the memory's key."""
    made = client.post(
        "/api/memories/rin",
        json={"content": "Ken drinks green tea.", "tags": ["tea"], "emotion_type": "joy"},
    )
    assert made.status_code == 201, made.text
    assert client.put("/api/user-state/rin", json={"name": "Ken"}).status_code == 200
    wait_for_jobs(server.omoide, "rin")  # evolution stamps evolved_at: let it finish first
    with server.omoide.store.db.write() as conn:  # type: ignore[attr-defined]
        conn.execute(
            "UPDATE memories SET tags = ?, emotion_type = ?",
            (json.dumps(["green\x1btea"]), "jo\u202ey"),
        )
        conn.execute("UPDATE user_state_history SET value = ? WHERE key = 'name'", ("Ke\x7fn",))
    return str(made.json()["memory"]["key"])


def test_an_own_export_with_controls_imports_into_an_empty_persona(server: LiveServer) -> None:
    with server.client(server.create_persona("rin")) as rin:
        _older_rows(server, rin)
        exported = rin.get("/api/export/rin")
        assert exported.status_code == 200
    with server.client(server.create_persona("kai")) as kai:
        reply = kai.post("/api/import/kai", content=exported.content, headers=NDJSON)
        assert reply.status_code == 200, reply.text
        assert reply.json()["controls_replaced"] == 3
        assert kai.get("/api/user-state/kai").json()["state"]["name"] == "Ke n"
        again = kai.post("/api/import/kai", content=exported.content, headers=NDJSON)
        assert again.status_code == 200, again.text  # a finished import run again: nothing new
        assert again.json()["memories"] == 0


@pytest.mark.parametrize("merge", [False, True])
def test_an_own_export_with_controls_into_its_own_persona_finds_it_there(
    server: LiveServer, merge: bool
) -> None:
    """The stored state value, read as the import reads the file's copy (controls as spaces),
    is the file's row: nothing is written (it was a 409 "holds data that is not in this
    file", and with merge a second, empty row beside the stored one)."""
    with server.client(server.create_persona("rin")) as rin:
        key = _older_rows(server, rin)
        exported = rin.get("/api/export/rin")
        reply = rin.post(
            "/api/import/rin",
            params={"merge": merge} if merge else None,
            content=exported.content,
            headers=NDJSON,
        )
        assert reply.status_code == 200, reply.text
        assert reply.json()["state"] == 0 and reply.json()["memories"] == 0
        assert reply.json()["controls_replaced"] == 3
        history = rin.get("/api/user-state/rin/history", params={"key": "name"}).json()
        assert [row["value"] for row in history["history"]] == ["Ke\x7fn"]  # kept as stored
        assert (
            rin.get("/api/export/rin").content.splitlines()[1:-1]
            == exported.content.splitlines()[1:-1]
        )  # nothing changed (but exported_at)
        assert rin.get(f"/api/memories/rin/{key}").json()["tags"] == ["green\x1btea"]


def test_a_persona_holding_other_data_is_told_what_it_holds(server: LiveServer) -> None:
    """The 409 said "already holds data that is not in this file" and no more: it names what
    (how many of which kind, one of them) and what merge does."""
    with server.client(server.create_persona("rin")) as rin:
        exported = rin.post("/api/memories/rin", json={"content": "Ken drinks green tea."})
        assert exported.status_code == 201
        exported = rin.get("/api/export/rin")
    with server.client(server.create_persona("kai")) as kai:
        other = kai.post("/api/memories/kai", json={"content": "Kai swims on Sundays."})
        assert kai.put("/api/user-state/kai", json={"city": "Osaka"}).status_code == 200
        reply = kai.post("/api/import/kai", content=exported.content, headers=NDJSON)
        assert reply.status_code == 409, reply.text
        message = reply.json()["error"]["message"]
        assert (
            f"persona 'kai' already holds data that is not in this file (1 memory, e.g. "
            f"'{other.json()['memory']['key']}'; 1 state value, e.g. user 'city'); import "
            "into an empty persona, or merge with --merge (HTTP: ?merge=true), which adds "
            "the file's records to what the persona holds"
        ) == message
