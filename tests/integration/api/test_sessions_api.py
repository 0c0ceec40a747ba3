"""The Episode tier over HTTP: sessions, events, end, episodes, and search with sources."""

from __future__ import annotations

from omoide_testing import LiveServer, wait_for_jobs

TURNS = [
    ("Caroline", "I went to a LGBTQ support group yesterday and it was so powerful."),
    ("Melanie", "Wow, that's cool, Caroline! What happened that was so awesome?"),
    ("Caroline", "The transgender stories were so inspiring! I was so happy and thankful."),
    ("Melanie", "That's really cool. I'm going swimming with the kids later."),
]


def test_session_round_trip(server: LiveServer) -> None:
    key = server.create_persona("c26")
    with server.client(key) as c:
        opened = c.post(
            "/api/sessions/c26", json={"session_id": "s1", "started_at": "2023-05-08T13:56:00Z"}
        )
        assert opened.status_code == 201
        assert opened.json()["session_id"] == "s1"
        assert c.post("/api/sessions/c26", json={"session_id": "s1"}).status_code == 200
        assert c.post("/api/sessions/c26").status_code == 201  # id generated
        batch = [
            {
                "speaker": who,
                "content": text,
                "external_id": f"D1:{i + 1}",
                "timestamp": f"2023-05-08T13:5{i}:00Z",
            }
            for i, (who, text) in enumerate(TURNS)
        ]
        assert c.post("/api/sessions/c26/s1/events", json={"events": batch}).json()["accepted"] == 4
        again = c.post("/api/sessions/c26/s1/events", json={"events": batch}).json()
        assert (again["accepted"], again["duplicates"]) == (0, 4)
        assert c.post("/api/sessions/c26/s1/end").json()["queued"] is True
        wait_for_jobs(server.omoide, "c26")
        episodes = c.get("/api/sessions/c26/s1/episodes").json()["episodes"]
        assert [(e["first_seq"], e["last_seq"]) for e in episodes] == [(1, 4)]
        assert episodes[0]["consolidated_at"] is not None and episodes[0]["notes"]
        found = c.get(
            "/api/search/c26", params={"q": "LGBTQ support group", "include_episodes": "true"}
        ).json()["results"]
        assert "episode" in {r["type"] for r in found}
        # every note is shown, alone or folded into the excerpt that shows its turn
        shown = {r["key"] for r in found if r["type"] == "note"}
        shown |= {k for r in found for k in r.get("folded_notes", [])}
        assert shown and shown <= set(episodes[0]["notes"])
        cited = {s["external_id"] for r in found for s in r["sources"]}
        assert "D1:1" in cited
        assert all(s["event_id"] for r in found for s in r["sources"])


def test_session_errors(server: LiveServer) -> None:
    key = server.create_persona("c26")
    with server.client(key) as c:
        assert (
            c.post(
                "/api/sessions/c26/nope/events", json={"events": [{"speaker": "a", "content": "x"}]}
            ).status_code
            == 404
        )
        assert c.post("/api/sessions/c26/nope/end").status_code == 404
        assert c.get("/api/sessions/c26/nope/episodes").status_code == 404
        c.post("/api/sessions/c26", json={"session_id": "s1"})
        bad = c.post("/api/sessions/c26/s1/events", json={"events": [{"speaker": "a"}]})
        assert bad.status_code == 422
        assert bad.json()["error"]["field"] == "events[0].content"
        assert c.post("/api/sessions/c26", json={"session_id": ""}).status_code == 422
