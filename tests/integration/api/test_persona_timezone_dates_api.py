"""Days shown to a model are the persona's days: with ``timezone`` Asia/Tokyo, a turn said at
23:30 UTC on 7 May is said on 8 May. The note's date, the relative dates it resolves, the
episode's date header and the last conversation's excerpt in get_context all say 8 May (they
said 7 May, the UTC day)."""

from __future__ import annotations

from datetime import UTC, datetime

from omoide_testing import LiveServer, chat_notes

SAID = datetime(2023, 5, 7, 23, 30, tzinfo=UTC)  # 08:30 on 8 May in Tokyo
TURNS = [
    ("Ken", "user", "Yesterday I ran my first marathon in Osaka and finished in four hours."),
    ("Aiko", "assistant", "Congratulations!"),
    ("Ken", "user", "I adopted a puppy today, her name is Pepper and she is a shiba!"),
]


def test_days_shown_are_in_the_persona_timezone(server: LiveServer) -> None:
    key = server.create_persona("ken")
    with server.client(key) as client:
        assert client.put("/api/settings/ken", json={"timezone": "Asia/Tokyo"}).status_code == 200
        notes = [
            n["content"]
            for n in chat_notes(client, server.omoide, "ken", "s1", TURNS, start=SAID, step_s=20)
        ]
        assert any("(7 May 2023)" in c and c.endswith("(8 May 2023)") for c in notes), notes
        assert any("today (8 May 2023)" in c for c in notes), notes
        assert not any("6 May" in c for c in notes), notes
        episodes = client.get("/api/sessions/ken/s1/episodes").json()["episodes"]
        assert episodes[0]["content"].startswith("[2023-05-08]"), episodes[0]["content"]
        hits = [
            h
            for h in client.get(
                "/api/search/ken", params={"q": "marathon Osaka", "include_episodes": "true"}
            ).json()["results"]
            if h["type"] == "episode"
        ]
        assert hits and all(h["content"].startswith("[2023-05-08]") for h in hits), hits


def test_the_last_conversation_is_dated_in_the_persona_timezone(held_server: LiveServer) -> None:
    """A conversation ended but not yet consolidated (workers held) is shown by get_context
    under "Last conversation", its day the persona's."""
    key = held_server.create_persona("ken")
    with held_server.client(key) as client:
        client.put("/api/settings/ken", json={"timezone": "Asia/Tokyo"})
        assert client.post("/api/sessions/ken", json={"session_id": "s2"}).status_code == 201
        client.post(
            "/api/sessions/ken/s2/events",
            json={
                "events": [
                    {
                        "speaker": "Ken",
                        "role": "user",
                        "content": "My sister Mia visits on Friday.",
                        "timestamp": SAID.isoformat(),
                    }
                ]
            },
        )
        assert client.post("/api/sessions/ken/s2/end").status_code == 200
        context = client.get("/api/context/ken").json()
        excerpts = context["sections"]["last_conversation"]
        assert excerpts and excerpts[0]["content"].startswith("[2023-05-08]"), excerpts
        assert "[2023-05-08] Ken: My sister Mia" in context["text"], context["text"]
