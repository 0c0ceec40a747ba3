"""Forgetting over HTTP: purge a memory, delete a conversation, delete a persona. Each test reads
the data folder's bytes (database, WAL, shm) while the server runs and looks for the text."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from omoide_testing import LiveServer, files_holding, wait_for_jobs

PIN = "ZQXJV-4827"


@pytest.fixture
def rin(server: LiveServer) -> httpx.Client:
    return server.client(server.create_persona("rin"))


def test_purge_erases_a_memory_from_the_data_folder(rin: httpx.Client, server: LiveServer,
                                                    data_dir: Path) -> None:
    kept = rin.post("/api/memories/rin", json={"content": "The user grows tomatoes"}).json()
    created = rin.post("/api/memories/rin", json={
        "content": f"The user's bank PIN is {PIN}", "tags": ["secret"]})
    key = created.json()["memory"]["key"]
    assert rin.patch(f"/api/memories/rin/{key}", json={
        "content": f"The user's bank PIN is {PIN}, for the new card"}).status_code == 200
    wait_for_jobs(server.omoide, "rin")
    assert files_holding(data_dir, PIN)

    reply = rin.delete(f"/api/memories/rin/{key}", params={"purge": "true"})

    assert reply.status_code == 200
    assert reply.json() == {"persona": "rin", "key": key, "status": "purged"}
    assert files_holding(data_dir, PIN) == []
    for path in (f"/api/memories/rin/{key}", f"/api/memories/rin/{key}/history"):
        assert rin.get(path).status_code == 404
    assert rin.get("/api/search/rin", params={"q": PIN, "mode": "keyword"}).json()[
        "results"] == []
    assert rin.get(f"/api/memories/rin/{kept['memory']['key']}").status_code == 200
    again = rin.delete(f"/api/memories/rin/{key}", params={"purge": "true"})
    assert again.status_code == 404
    assert again.json()["error"]["code"] == "not_found"


def test_plain_delete_stays_a_tombstone(rin: httpx.Client, data_dir: Path) -> None:
    key = rin.post("/api/memories/rin", json={"content": f"Gate code {PIN}"}).json()[
        "memory"]["key"]
    assert rin.delete(f"/api/memories/rin/{key}").json()["status"] == "tombstoned"
    history = rin.get(f"/api/memories/rin/{key}/history").json()["versions"]
    assert history[-1]["change"] == "delete"
    assert files_holding(data_dir, PIN)  # nothing is lost unless the user says "forget"


def test_purge_statuses(rin: httpx.Client, server: LiveServer) -> None:
    assert rin.delete("/api/memories/rin/mem_nope", params={"purge": "true"}).status_code == 404
    other = server.client(server.create_persona("haru"))
    key = rin.post("/api/memories/rin", json={"content": "User likes tea"}).json()[
        "memory"]["key"]
    assert other.delete(f"/api/memories/rin/{key}", params={"purge": "true"}).status_code == 403
    assert rin.delete(f"/api/memories/rin/{key}", params={"purge": "maybe"}).status_code == 422
