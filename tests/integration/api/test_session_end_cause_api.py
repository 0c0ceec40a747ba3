"""How a session ended (``ended_by``), as ``GET /api/sessions/{persona}`` lists it and as
``POST …/end`` and ``GET …/episodes`` report it, through a
real server with the fixed clock: ``client`` (session_end), ``new_session`` (a session_begin
ended it), ``idle`` (the scheduler's sweep after ``session_idle_minutes``), ``import`` (a chat
import ended what it posted); null while open. The cause travels through export and import;
a file written before it existed imports as unknown (null)."""

from __future__ import annotations

import json
from typing import Any

import httpx
from omoide_testing import (
    LiveServer,
    import_lines,
    post_unended_chat,
    refused,
    wait_for_jobs,
)

from omoide.clock import FixedClock

CHAT = [
    {"role": "user", "content": "I moved to Kyoto last spring."},
    {"role": "assistant", "content": "How do you like Kyoto so far?"},
]


def _listed(c: httpx.Client, persona: str) -> dict[str, dict[str, Any]]:
    reply = c.get(f"/api/sessions/{persona}")
    assert reply.status_code == 200, reply.text
    return {s["session_id"]: s for s in reply.json()["sessions"]}


def _causes(c: httpx.Client, persona: str) -> dict[str, tuple[str, str | None]]:
    return {sid: (s["status"], s["ended_by"]) for sid, s in _listed(c, persona).items()}


def _turn(c: httpx.Client, persona: str, session_id: str) -> None:
    assert c.post(f"/api/sessions/{persona}", json={"session_id": session_id}).status_code == 201
    c.post(
        f"/api/sessions/{persona}/{session_id}/events",
        json={"events": [{"speaker": "Nora", "content": f"A turn of {session_id}."}]},
    ).raise_for_status()


def _ended_in_every_way(server: LiveServer, clock: FixedClock, c: httpx.Client) -> str:
    """nora's sessions ended each way (told, quiet, left, a chat import) and the session
    begun last, still open; returns that one's id."""
    _turn(c, "nora", "told")
    c.post("/api/sessions/nora/told/end").raise_for_status()
    post_unended_chat(c, "nora", "quiet")
    clock.advance(minutes=31)
    assert server.omoide.runner.tick_now(), "the scheduler did not tick"
    _turn(c, "nora", "left")
    begun = c.post("/api/context/nora/session")
    assert begun.status_code in (200, 201), begun.text
    imported = c.post(
        "/api/import/nora", params={"source": "chat"}, content=json.dumps(CHAT).encode()
    )
    assert imported.status_code == 200, imported.text
    assert imported.json()["session_ids"][0].startswith("chat-")
    wait_for_jobs(server.omoide, "nora")
    return str(begun.json()["session_id"])


def test_each_way_a_session_ends_is_listed(server: LiveServer, clock: FixedClock) -> None:
    with server.client(server.create_persona("nora")) as c:
        current = _ended_in_every_way(server, clock, c)
        causes = _causes(c, "nora")
        open_one = c.get(f"/api/sessions/nora/{current}/episodes")
        assert open_one.status_code == 200, open_one.text
        assert (open_one.json()["ended_at"], open_one.json()["ended_by"]) == (None, None)
        chat = next(sid for sid in causes if sid.startswith("chat-"))
        assert causes == {
            "told": ("ended", "client"),
            "quiet": ("ended", "idle"),
            "left": ("ended", "new_session"),
            chat: ("ended", "import"),
            current: ("open", None),
        }


def test_an_ended_session_keeps_its_end_and_its_cause(
    server: LiveServer, clock: FixedClock
) -> None:
    """session_end on a session the idle sweep already ended changes nothing: the same
    ``ended_at``, still ``idle``; a later sweep leaves a client's end alone."""
    with server.client(server.create_persona("nora")) as c:
        post_unended_chat(c, "nora", "quiet")
        clock.advance(minutes=31)
        assert server.omoide.runner.tick_now()
        before = _listed(c, "nora")["quiet"]
        clock.advance(minutes=5)
        again = c.post("/api/sessions/nora/quiet/end")
        assert again.status_code == 200, again.text
        assert again.json() == {
            "session_id": "quiet",
            "ended_at": before["ended_at"],
            "ended_by": "idle",
            "queued": False,  # its end queued the work; nothing is queued again (qa45h)
            "already_ended": True,
        }
        _turn(c, "nora", "told")
        told = c.post("/api/sessions/nora/told/end")
        assert told.status_code == 200, told.text
        assert told.json()["ended_by"] == "client"
        episodes = {
            sid: c.get(f"/api/sessions/nora/{sid}/episodes").json() for sid in ("quiet", "told")
        }
        assert {sid: (e["ended_at"], e["ended_by"]) for sid, e in episodes.items()} == {
            "quiet": (before["ended_at"], "idle"),
            "told": (told.json()["ended_at"], "client"),
        }
        clock.advance(hours=2)
        assert server.omoide.runner.tick_now()
        wait_for_jobs(server.omoide, "nora")
        assert _causes(c, "nora") == {"quiet": ("ended", "idle"), "told": ("ended", "client")}
        assert _listed(c, "nora")["quiet"]["ended_at"] == before["ended_at"]


def test_the_cause_travels_through_export_and_import(server: LiveServer, clock: FixedClock) -> None:
    with server.client(server.create_persona("nora")) as c:
        _ended_in_every_way(server, clock, c)
        exported = c.get("/api/export/nora")
        assert exported.status_code == 200, exported.text
        lines = [json.loads(line) for line in exported.text.splitlines() if line.strip()]
        expected = _causes(c, "nora")
    sessions = [r for r in lines if r["type"] == "session"]
    assert {r["session_id"]: r["ended_by"] for r in sessions} == {
        sid: cause for sid, (_, cause) in expected.items()
    }
    server.create_persona("copy")
    server.create_persona("old")
    server.create_persona("bad")
    with server.admin() as admin:
        done = import_lines(admin, "copy", lines)
        assert done.status_code == 200, done.text
        assert _causes(admin, "copy") == expected
        # A file written before the cause existed: its sessions' ends are unknown.
        older = [{k: v for k, v in r.items() if k != "ended_by"} for r in lines]
        done = import_lines(admin, "old", older)
        assert done.status_code == 200, done.text
        assert {sid: s["ended_by"] for sid, s in _listed(admin, "old").items()} == dict.fromkeys(
            expected
        )
        assert {s["status"] for s in _listed(admin, "old").values()} == {"ended", "open"}
        # An unknown cause, or a cause on a session still open, is refused naming the line.
        for wrong in ({"ended_by": "crash"}, {"ended_at": None, "ended_by": "client"}):
            edited = [dict(r) for r in lines]
            at = next(
                i
                for i, r in enumerate(edited)
                if r["type"] == "session" and r["ended_at"] is not None
            )
            edited[at].update(wrong)
            error = refused(import_lines(admin, "bad", edited), 422)
            assert f"line {at + 1}" in error["message"] and "ended_by" in error["message"]
        assert _listed(admin, "bad") == {}
