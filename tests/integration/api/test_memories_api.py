"""The memories/search/personas HTTP contract through a real uvicorn server."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import httpx
import pytest
from omoide_testing import LiveServer, wait_for_jobs

from omoide.errors import InvalidInput


def test_persona_creation_shows_the_key_once(server: LiveServer) -> None:
    with server.admin() as admin:
        reply = admin.post("/api/personas", json={"name": "rin"})
        assert reply.status_code == 201
        assert set(reply.json()) == {"name", "api_key"}
        listed = admin.get("/api/personas").json()["personas"]
        assert [(p["name"], p["memories"]) for p in listed] == [("rin", 0)]
        assert "api_key" not in listed[0]
        assert admin.post("/api/personas", json={"name": "rin"}).status_code == 409
        assert admin.post("/api/personas", json={"name": "bad name!"}).status_code == 422


def test_keys_are_stored_hashed(server: LiveServer) -> None:
    key = server.create_persona("rin")
    stored = [r[0] for r in server.omoide.store.db.conn().execute("SELECT key_hash FROM api_keys")]
    assert key not in stored
    assert all(len(h) == 64 for h in stored)


def test_memory_lifecycle(rin: httpx.Client, server: LiveServer) -> None:
    created = rin.post(
        "/api/memories/rin",
        json={
            "content": "User lives in Tokyo",
            "importance": 0.7,
            "tags": ["home"],
            "emotion_intensity": 0.8,
            "kind": "fact",
            "valid_from": "2026-01-01",
        },
    )
    assert created.status_code == 201
    memory = created.json()["memory"]
    assert created.json()["status"] == "created"
    assert (memory["importance"], memory["stability"], memory["kind"]) == (0.7, 10.0, "fact")
    key = memory["key"]
    for field in (
        "strength",
        "stability",
        "access_count",
        "last_accessed",
        "valid_from",
        "valid_until",
        "superseded_by",
        "summary_ref",
        "status",
    ):
        assert field in memory

    duplicate = rin.post("/api/memories/rin", json={"content": "User lives in Tokyo."})
    assert duplicate.status_code == 200
    assert duplicate.json()["status"] == "duplicate"
    assert duplicate.json()["duplicate_of"]["key"] == key
    assert duplicate.json()["duplicate_of"]["similarity"] > 0.85

    read = rin.get(f"/api/memories/rin/{key}").json()
    assert read["access_count"] == 1
    patched = rin.patch(f"/api/memories/rin/{key}", json={"tags": ["home", "city"]})
    assert patched.json()["tags"] == ["home", "city"]
    listed = rin.get("/api/memories/rin").json()["memories"]
    assert [m["key"] for m in listed] == [key]

    found = rin.get("/api/search/rin", params={"q": "Tokyo"}).json()["results"]
    assert found[0]["key"] == key
    assert found[0]["type"] == "note"
    assert found[0]["sources"] == []
    assert set(found[0]) >= {"content", "score", "similarity"}

    assert rin.delete(f"/api/memories/rin/{key}").json()["status"] == "tombstoned"
    history = rin.get(f"/api/memories/rin/{key}/history").json()
    assert [v["change"] for v in history["versions"]] == ["create", "update", "delete"]
    assert rin.get("/api/search/rin", params={"q": "Tokyo"}).json()["results"] == []
    wait_for_jobs(server.omoide, "rin")
    stats = rin.get("/api/stats/rin").json()
    assert (stats["total"], stats["active"], stats["tombstoned"]) == (1, 0, 1)


def test_search_with_filters_over_http(rin: httpx.Client) -> None:
    rin.post("/api/memories/rin", json={"content": "Trip to Kyoto", "tags": ["travel", "a"]})
    rin.post("/api/memories/rin", json={"content": "Trip to Osaka", "tags": ["travel"]})
    reply = rin.get(
        "/api/search/rin",
        params=[("q", "trip"), ("tags", "travel,a"), ("date_range", "today"), ("mode", "hybrid")],
    )
    assert [r["content"] for r in reply.json()["results"]] == ["Trip to Kyoto"]
    reply = rin.get("/api/search/rin", params=[("q", "trip"), ("tags", "travel"), ("tags", "a")])
    assert [r["content"] for r in reply.json()["results"]] == ["Trip to Kyoto"]


def test_an_unreadable_date_range_is_a_422_naming_the_field(rin: httpx.Client) -> None:
    """The engine's DateRangeError, mapped to InvalidInput at the service, is the one body."""
    reply = rin.get("/api/search/rin", params={"q": "trip", "date_range": "sometime soon"})
    assert reply.status_code == 422
    error = reply.json()["error"]
    assert set(error) == {"code", "message", "field"}
    assert (error["code"], error["field"]) == ("invalid_input", "date_range")
    assert error["message"].startswith('cannot read "sometime soon" as a date range')


@pytest.mark.parametrize(
    ("body", "field"),
    [
        pytest.param({"content": ""}, "content", id="empty"),
        pytest.param({"content": " "}, "content", id="blank"),
        pytest.param({"content": "x" * 50_001}, "content", id="too-long"),
        pytest.param({"content": "ok", "tags": [str(i) for i in range(21)]}, "tags", id="tags"),
        pytest.param({"content": "ok", "tags": ["x" * 65]}, "tags[0]", id="tag-length"),
        pytest.param({"content": "ok", "importance": 1.01}, "importance", id="importance"),
        pytest.param(
            {"content": "ok", "emotion_intensity": -1}, "emotion_intensity", id="intensity"
        ),
        pytest.param({"content": "ok", "valid_until": "31/12/2026"}, "valid_until", id="date"),
        pytest.param({"content": "ok", "colour": "red"}, "colour", id="unknown-field"),
        pytest.param({}, "content", id="missing-content"),
    ],
)
def test_create_rejects_bad_input_with_422(rin: httpx.Client, body: dict, field: str) -> None:
    reply = rin.post("/api/memories/rin", json=body)
    assert reply.status_code == 422
    assert reply.json()["error"]["code"] == "invalid_input"
    assert reply.json()["error"]["field"] == field


def test_importance_change_is_refused(rin: httpx.Client) -> None:
    key = rin.post("/api/memories/rin", json={"content": "x1", "importance": 0.3}).json()["memory"][
        "key"
    ]
    reply = rin.patch(f"/api/memories/rin/{key}", json={"importance": 0.9})
    assert reply.status_code == 409  # a conflict with the memory's state, not a bad field
    assert "immutable" in reply.json()["error"]["message"]


@pytest.mark.parametrize("raw", [b"", b"{not json", b"[1, 2]", b'"text"'])
def test_malformed_bodies_are_422(rin: httpx.Client, raw: bytes) -> None:
    reply = rin.post("/api/memories/rin", content=raw, headers={"Content-Type": "application/json"})
    assert reply.status_code == 422
    assert reply.json()["error"]["code"] == "invalid_input"


def test_oversized_body_is_413(rin: httpx.Client) -> None:
    reply = rin.post("/api/memories/rin", content=b"x" * 1_000_001)
    assert reply.status_code == 413
    assert reply.json()["error"]["code"] == "payload_too_large"


def test_auth_statuses(server: LiveServer) -> None:
    key = server.create_persona("rin")
    with server.client() as anonymous:
        assert anonymous.get("/api/memories/rin").status_code == 401
    with server.client("omo_p_wrong") as wrong:
        reply = wrong.get("/api/memories/rin")
        assert reply.status_code == 401
        assert reply.json()["error"]["code"] == "unauthorized"
    with server.client(key) as rin:
        assert rin.get("/api/memories/kai").status_code == 403
        assert rin.get("/api/personas").status_code == 403
        assert rin.get("/metrics").status_code == 403
        assert rin.get("/api/memories/rin/mem_none").status_code == 404
    with server.admin() as admin:
        assert admin.get("/api/memories/ghost").status_code == 404
        assert admin.get("/api/memories/rin").status_code == 200


def test_a_read_never_creates_a_persona(server: LiveServer) -> None:
    with server.admin() as admin:
        assert admin.get("/api/search/ghost", params={"q": "x"}).status_code == 404
        assert admin.get("/api/personas").json()["personas"] == []


def test_health_metrics_and_docs(server: LiveServer) -> None:
    server.create_persona("rin")
    with server.client() as anonymous:
        assert anonymous.get("/health").json()["status"] == "ok"
        assert anonymous.get("/docs").status_code == 200
        assert "/api/memories/{persona}" in anonymous.get("/openapi.json").json()["paths"]
    with server.admin() as admin:
        text = admin.get("/metrics").text
    assert 'omoide_http_requests_total{method="POST",route="/api/personas",status="201"} 1' in text
    assert 'omoide_memories{persona="rin"} 0' in text
    assert "omoide_job_queue_depth 0" in text
    assert "omoide_http_request_seconds_bucket" in text


def test_jobs_endpoint_reports_the_queue(rin: httpx.Client) -> None:
    rin.post("/api/memories/rin", json={"content": "User lives in Tokyo"})
    waited = rin.get("/api/jobs/rin/wait", params={"timeout": 20}).json()
    assert waited["drained"] is True
    counts = rin.get("/api/jobs/rin").json()
    assert (counts["pending"], counts["running"], counts["failed"]) == (0, 0, 0)
    assert counts["done"] >= 1


def test_admin_key_file_is_private(make_app, data_dir: Path) -> None:
    app = make_app()
    path = data_dir / "admin_key"
    assert app.auth.ensure_admin_key(data_dir, None) == path  # generated on first start
    key = path.read_text().strip()
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert app.auth.ensure_admin_key(data_dir, None) is None
    assert app.auth.authenticate(f"Bearer {key}").is_admin


@pytest.mark.parametrize("held", [b"x", b"", b"  short-key  \n", b"SQLite format 3\x00\xff\xfe"])
def test_an_admin_key_file_is_held_to_the_variables_rule(
    make_app, data_dir: Path, held: bytes
) -> None:
    """A file edited to a short password, emptied, or written over with another file was
    the admin key as it stood (or a traceback at start): refused like a short
    ``OMOIDE_ADMIN_KEY``, naming the file and the remedy."""
    app = make_app()
    data_dir.mkdir(parents=True, exist_ok=True)  # on PostgreSQL nothing else made it
    path = data_dir / "admin_key"
    path.write_bytes(held)
    with pytest.raises(InvalidInput, match="delete the file") as refused:
        app.auth.ensure_admin_key(data_dir, None)
    assert str(path) in refused.value.message
    path.write_text("a-long-enough-admin-key\n")
    assert app.auth.ensure_admin_key(data_dir, None) is None
    assert app.auth.authenticate("Bearer a-long-enough-admin-key").is_admin
