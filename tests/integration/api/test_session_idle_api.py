"""No conversation is lost (issue 8 item 4), over HTTP with the fixed clock: a session nobody
ends is ended by the scheduler after ``session_idle_minutes`` without a turn, with the same
effect as ``session_end``; 0 disables that; ``session_begin`` ends the other open sessions."""

from __future__ import annotations

from omoide_testing import LiveServer, post_unended_chat, wait_for_jobs

from omoide.clock import FixedClock, parse_iso


def tick(server: LiveServer) -> None:
    assert server.omoide.runner.tick_now(), "the scheduler did not tick"


def test_an_idle_session_is_ended_by_the_scheduler_like_session_end(
    server: LiveServer, clock: FixedClock
) -> None:
    key = server.create_persona("nora")
    with server.client(key) as c:
        post_unended_chat(c, "nora", "s1")
        last_turn = clock.now()
        clock.advance(minutes=29)
        tick(server)
        wait_for_jobs(server.omoide, "nora")
        still = c.get("/api/sessions/nora/s1/episodes").json()
        assert still["ended_at"] is None  # 29 minutes is not idle yet

        clock.advance(minutes=2)
        tick(server)
        wait_for_jobs(server.omoide, "nora")
        ended = c.get("/api/sessions/nora/s1/episodes").json()
        # It ended when the conversation stopped, not when the sweep noticed.
        assert parse_iso(ended["ended_at"]) == last_turn
        episodes = ended["episodes"]
        assert episodes and episodes[-1]["last_seq"] == 12
        assert all(e["consolidated_at"] is not None for e in episodes)
        notes = [k for e in episodes for k in e["notes"]]
        assert notes
        found = c.get("/api/search/nora", params={"q": "Biscuit red harness", "top_k": 5}).json()[
            "results"
        ]
        assert found and any(r["sources"] for r in found)
        assert any("harness" in r["content"] for r in found)
        state = c.get("/api/user-state/nora").json()["state"]
        assert state["name"] == "Nora Lind"  # the user state is updated, as by session_end

        # A second sweep finds nothing to end and queues nothing more.
        before = server.omoide.jobs.counts(server.omoide.store.get_persona("nora").id)
        clock.advance(minutes=60)
        tick(server)
        wait_for_jobs(server.omoide, "nora")
        assert c.get("/api/sessions/nora/s1/episodes").json()["episodes"] == episodes
        after = server.omoide.jobs.counts(server.omoide.store.get_persona("nora").id)
        assert after == before


def test_zero_idle_minutes_keeps_sessions_open(server: LiveServer, clock: FixedClock) -> None:
    key = server.create_persona("nora")
    with server.client(key) as c:
        assert c.put("/api/settings/nora", json={"session_idle_minutes": 0}).status_code == 200
        post_unended_chat(c, "nora", "s1")
        clock.advance(hours=48)
        tick(server)
        wait_for_jobs(server.omoide, "nora")
        assert c.get("/api/sessions/nora/s1/episodes").json()["ended_at"] is None
        bad = c.put("/api/settings/nora", json={"session_idle_minutes": -1})
        assert bad.status_code == 422
        assert bad.json()["error"]["setting"] == "session_idle_minutes"


def test_a_session_with_no_turns_idles_from_its_start(
    server: LiveServer, clock: FixedClock
) -> None:
    key = server.create_persona("nora")
    with server.client(key) as c:
        c.post("/api/sessions/nora", json={"session_id": "empty"})
        clock.advance(minutes=31)
        tick(server)
        ended = c.get("/api/sessions/nora/empty/episodes").json()
        assert ended["ended_at"] is not None and ended["episodes"] == []


def test_a_new_turn_restarts_the_idle_clock(server: LiveServer, clock: FixedClock) -> None:
    key = server.create_persona("nora")
    with server.client(key) as c:
        post_unended_chat(c, "nora", "s1")
        clock.advance(minutes=20)
        c.post(
            "/api/sessions/nora/s1/events",
            json={
                "events": [
                    {"speaker": "Nora", "content": "Biscuit finally slept through the night."}
                ]
            },
        )
        clock.advance(minutes=20)
        tick(server)
        assert c.get("/api/sessions/nora/s1/episodes").json()["ended_at"] is None


def test_session_begin_ends_the_other_open_sessions(server: LiveServer, clock: FixedClock) -> None:
    key = server.create_persona("nora")
    with server.client(key) as c:
        post_unended_chat(c, "nora", "s1")
        last_turn = clock.now()
        clock.advance(minutes=5)
        begun = c.post("/api/context/nora/session").json()
        wait_for_jobs(server.omoide, "nora")
        old = c.get("/api/sessions/nora/s1/episodes").json()
        assert parse_iso(old["ended_at"]) == last_turn
        assert old["episodes"] and all(e["notes"] is not None for e in old["episodes"])
        assert any(e["notes"] for e in old["episodes"])
        # The gap the new session reports runs from the old conversation's last turn.
        assert begun["previous_session_at"] == old["ended_at"]
        current = c.get(f"/api/sessions/nora/{begun['session_id']}/episodes").json()
        assert current["ended_at"] is None
