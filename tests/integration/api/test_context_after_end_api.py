"""What the next conversation starts with (issue 8, items 1 and 4), over HTTP with the fixed
clock: what the user said in a conversation that just ended — by ``session_begin``, by
``session_end`` or by the idle sweep — is in the context at once, as the turns themselves
(with their sources) while consolidation is pending and as notes once it has run, and default
search finds it in between. The worker is held (``OMOIDE_WORKERS=0``) so that "before
consolidation" is a state the test controls, then run by hand."""

from __future__ import annotations

from typing import Any

import httpx
from omoide_testing import UNENDED_CHAT, LiveServer, post_unended_chat

from omoide.clock import FixedClock

SAID = ("Biscuit", "red harness", "Riverside dog school")


def run_jobs(server: LiveServer) -> None:
    assert server.omoide.runner.run_until_idle() > 0


def pending(body: dict[str, Any]) -> list[dict[str, Any]]:
    """The context's excerpts of conversations not yet consolidated."""
    return list(body["sections"]["last_conversation"])


def assert_turns_shown(body: dict[str, Any], session_id: str) -> None:
    """The context carries what the user said, as turns of ``session_id`` with sources."""
    for words in SAID:
        assert words in body["text"], (words, body["text"])
    excerpts = [e for e in pending(body) if e["session_id"] == session_id]
    assert excerpts, pending(body)
    sources = [s for e in excerpts for s in e["sources"]]
    assert sources and all(isinstance(s["event_id"], int) for s in sources)
    assert all("Biscuit" not in m["content"] for m in body["sections"]["recent_memories"])


def assert_notes_shown(body: dict[str, Any]) -> None:
    """Consolidation ran: the same words come as notes, and no excerpt is left pending."""
    assert pending(body) == []
    recent = " ".join(m["content"] for m in body["sections"]["recent_memories"])
    assert "Biscuit" in recent, body["text"]


def search_finds(c: httpx.Client, persona: str, query: str) -> None:
    found = c.get(f"/api/search/{persona}", params={"q": query, "top_k": 5}).json()["results"]
    assert any(query.split()[-1] in r["content"] and r["sources"] for r in found), found


def test_session_begin_carries_what_the_ended_conversation_said(
    held_server: LiveServer, clock: FixedClock
) -> None:
    """Also: mid-conversation, get_context does not echo the conversation the model is having
    (the open session is not repeated)."""
    key = held_server.create_persona("nora")
    with held_server.client(key) as c:
        post_unended_chat(c, "nora", "s1")
        mid = c.get("/api/context/nora").json()
        assert pending(mid) == []
        assert "Biscuit" not in mid["text"]

        clock.advance(minutes=5)
        begun = c.post("/api/context/nora/session")
        assert begun.status_code == 201
        body = begun.json()
        assert_turns_shown(body, "s1")
        # All twelve turns fit: one excerpt in the order said, shaped like a search excerpt.
        [excerpt] = pending(body)
        header, *lines = excerpt["content"].split("\n")
        assert header == "[2026-11-30]" and len(lines) == len(UNENDED_CHAT)
        assert lines[0] == f"Nora: {UNENDED_CHAT[0][2]}"
        assert lines[-1] == f"Haru: {UNENDED_CHAT[-1][2]}"
        assert [s["external_id"] for s in excerpt["sources"]] == [f"t{i}" for i in range(12)]
        assert "omitted" not in body or "last_conversation" not in body["omitted"]
        search_finds(c, "nora", "red harness")

        run_jobs(held_server)
        after = c.get("/api/context/nora").json()
        assert_notes_shown(after)
        search_finds(c, "nora", "red harness")


def test_get_context_right_after_session_end(held_server: LiveServer, clock: FixedClock) -> None:
    """Right after session_end, then once the turns are segmented but not yet consolidated,
    then once consolidated. (The segmentation here is done by hand; the other tests of this
    module run it as the held job.)"""
    key = held_server.create_persona("nora")
    with held_server.client(key) as c:
        post_unended_chat(c, "nora", "s1")
        assert c.post("/api/sessions/nora/s1/end").status_code == 200
        body = c.get("/api/context/nora").json()
        assert_turns_shown(body, "s1")
        search_finds(c, "nora", "red harness")

        app = held_server.omoide
        app.sessions.segment("nora", "s1", final=True)  # episodes cut, none consolidated
        assert all(ep.consolidated_at is None for ep, _ in app.sessions.episodes("nora", "s1"))
        body = c.get("/api/context/nora").json()
        assert_turns_shown(body, "s1")
        search_finds(c, "nora", "red harness")

        run_jobs(held_server)
        assert_notes_shown(c.get("/api/context/nora").json())


def test_get_context_after_the_idle_sweep_ended_it(
    held_server: LiveServer, clock: FixedClock
) -> None:
    key = held_server.create_persona("nora")
    with held_server.client(key) as c:
        post_unended_chat(c, "nora", "s1")
        clock.advance(minutes=31)
        assert held_server.omoide.runner.tick_now()
        assert c.get("/api/sessions/nora/s1/episodes").json()["ended_at"] is not None
        body = c.get("/api/context/nora").json()
        assert_turns_shown(body, "s1")
        search_finds(c, "nora", "red harness")
        run_jobs(held_server)
        assert_notes_shown(c.get("/api/context/nora").json())


def test_with_live_workers_the_context_holds_it_either_way(
    server: LiveServer, clock: FixedClock
) -> None:
    """The race a client meets: whether or not consolidation finished before the context was
    built, what was said is in it."""
    key = server.create_persona("nora")
    with server.client(key) as c:
        post_unended_chat(c, "nora", "s1")
        clock.advance(minutes=5)
        body = c.post("/api/context/nora/session").json()
        assert "Biscuit" in body["text"], body["text"]
        shown = body["sections"].get("last_conversation")
        recent = " ".join(m["content"] for m in body["sections"]["recent_memories"])
        assert shown or "Biscuit" in recent
