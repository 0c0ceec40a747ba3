"""``GET /api/sessions/{persona}``: a persona's conversations, newest first, paged with
``limit`` and ``offset`` as ``GET /api/memories/{persona}`` is, through a real server."""

from __future__ import annotations

import httpx
import pytest
from omoide_testing import LiveServer, refused, wait_for_jobs


def _turns(day: str, n: int) -> list[dict[str, str]]:
    return [
        {
            "speaker": "Ken" if i % 2 == 0 else "Rin",
            "content": f"Turn {i} on {day}.",
            "timestamp": f"2026-11-{day}T10:0{i}:00Z",
        }
        for i in range(n)
    ]


@pytest.fixture
def rin(server: LiveServer) -> httpx.Client:
    """rin with three sessions: ``old`` (4 turns, ended), ``empty`` (no turn, open) and
    ``new`` (2 turns, open), started in that order."""
    client = server.client(server.create_persona("rin"))
    for session_id, day, turns in (("old", "01", 4), ("empty", "10", 0), ("new", "20", 2)):
        opened = client.post(
            "/api/sessions/rin",
            json={"session_id": session_id, "started_at": f"2026-11-{day}T09:00Z"},
        )
        assert opened.status_code == 201, opened.text
        if turns:
            client.post(
                f"/api/sessions/rin/{session_id}/events", json={"events": _turns(day, turns)}
            ).raise_for_status()
    client.post("/api/sessions/rin/old/end").raise_for_status()
    wait_for_jobs(server.omoide, "rin")
    return client


def test_sessions_are_listed_newest_first_with_their_counts(
    rin: httpx.Client, server: LiveServer
) -> None:
    with server.client(server.create_persona("kai")) as kai:  # another persona's session
        kai.post("/api/sessions/kai", json={"session_id": "elsewhere"}).raise_for_status()
    reply = rin.get("/api/sessions/rin")
    assert reply.status_code == 200, reply.text
    body = reply.json()
    assert body["persona"] == "rin"
    sessions = {s["session_id"]: s for s in body["sessions"]}
    assert [s["session_id"] for s in body["sessions"]] == ["new", "empty", "old"]
    old, empty, new = sessions["old"], sessions["empty"], sessions["new"]
    assert (old["status"], old["ended_by"], old["events"]) == ("ended", "client", 4)
    assert old["ended_at"] is not None and old["episodes"] >= 1
    assert old["first_event_at"].startswith("2026-11-01T10:00:00")
    assert old["last_event_at"].startswith("2026-11-01T10:03:00")
    assert (new["status"], new["ended_at"], new["events"]) == ("open", None, 2)
    assert new["last_event_at"].startswith("2026-11-20T10:01:00")
    assert empty == {
        "session_id": "empty",
        "status": "open",
        "started_at": empty["started_at"],
        "ended_at": None,
        "ended_by": None,
        "first_event_at": None,
        "last_event_at": None,
        "events": 0,
        "episodes": 0,
    }
    assert empty["started_at"].startswith("2026-11-10T09:00:00")


def test_sessions_are_paged_by_limit_and_offset(rin: httpx.Client) -> None:
    def page(**params: int) -> list[str]:
        reply = rin.get("/api/sessions/rin", params=params)
        assert reply.status_code == 200, reply.text
        return [s["session_id"] for s in reply.json()["sessions"]]

    assert page(limit=2) == ["new", "empty"]
    assert page(limit=2, offset=2) == ["old"]
    assert page(offset=3) == []
    assert page(limit=1000) == ["new", "empty", "old"]


@pytest.mark.parametrize(
    "params",
    [
        {"limit": 0},
        {"limit": 1001},
        {"limit": "ten"},
        {"limit": -1},
        {"offset": -1},
        {"offset": "x"},
        {"offset": 2**63},
        {"limit": 2.5},
    ],
)
def test_a_bad_page_is_a_422_naming_the_parameter(
    rin: httpx.Client, params: dict[str, object]
) -> None:
    error = refused(rin.get("/api/sessions/rin", params=params), 422)
    assert next(iter(params)) in str(error)


def test_the_list_follows_the_persona_routes_rules(server: LiveServer) -> None:
    rin_key = server.create_persona("rin")
    server.create_persona("kai")
    with server.client(rin_key) as rin:
        refused(rin.get("/api/sessions/kai"), 403)
    with httpx.Client(base_url=server.url) as anonymous:
        refused(anonymous.get("/api/sessions/rin"), 401)
    with server.admin() as admin:
        assert admin.get("/api/sessions/rin").json() == {"persona": "rin", "sessions": []}
        refused(admin.get("/api/sessions/ghost"), 404)
