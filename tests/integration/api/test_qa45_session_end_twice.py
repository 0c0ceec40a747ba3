"""``POST …/end`` on a session that had already ended (qa45h): it answered ``queued: true``
again and queued a final segmentation with nothing left to cut. Now the reply says what
happened: ``queued: false`` and ``already_ended: true``, with that end's time and cause, and no
job is queued; the first end still answers ``queued: true``, ``already_ended: false``."""

from __future__ import annotations

from typing import Any

import httpx
from omoide_testing import LiveServer

TURN = {"speaker": "Lea", "role": "user", "content": "I adopted a grey cat called Miso today."}


def _pending(c: httpx.Client) -> Any:
    counts = c.get("/api/jobs/lea")
    assert counts.status_code == 200, counts.text
    return counts.json()["pending"]


def test_a_second_end_says_it_had_already_ended_and_queues_nothing(
    held_server: LiveServer,
) -> None:
    with held_server.client(held_server.create_persona("lea")) as c:
        assert c.post("/api/sessions/lea", json={"session_id": "s1"}).status_code == 201
        recorded = c.post("/api/sessions/lea/s1/events", json={"events": [TURN]})
        assert recorded.status_code == 200, recorded.text
        before = _pending(c)
        first = c.post("/api/sessions/lea/s1/end")
        assert first.status_code == 200, first.text
        assert first.json()["queued"] is True and first.json()["already_ended"] is False
        assert first.json()["ended_by"] == "client"
        queued = _pending(c)
        assert queued == before + 1  # the final segmentation
        second = c.post("/api/sessions/lea/s1/end")
        assert second.status_code == 200, second.text
        assert second.json() == {**first.json(), "queued": False, "already_ended": True}
        assert _pending(c) == queued
        # a turn recorded after the end queues its own (final) segmentation, as before
        late = {**TURN, "content": "Miso sleeps on my keyboard."}
        assert c.post("/api/sessions/lea/s1/events", json={"events": [late]}).status_code == 200
        assert _pending(c) == queued + 1
    held_server.omoide.runner.run_until_idle()
    with held_server.admin() as admin:
        episodes = admin.get("/api/sessions/lea/s1/episodes").json()["episodes"]
    assert episodes and episodes[-1]["last_seq"] == 2  # both turns, none left uncut


def test_the_published_reply_names_both_fields(server: LiveServer) -> None:
    with server.admin() as admin:
        schema = admin.get("/openapi.json").json()["components"]["schemas"]["SessionEndReply"]
    assert schema["properties"]["queued"]["type"] == "boolean"
    assert schema["properties"]["already_ended"]["type"] == "boolean"
    assert {"queued", "already_ended"} <= set(schema["required"])
