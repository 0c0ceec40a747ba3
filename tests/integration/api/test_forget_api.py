"""Forgetting over HTTP: purge a memory, delete a conversation, delete a persona. Each test reads
the data folder's bytes (database, WAL, shm) while the server runs and looks for the text."""

from __future__ import annotations

import httpx
from mcp_checks import INITIALIZE
from omoide_testing import Holding, LiveServer, chat_notes, wait_for_jobs

PIN = "ZQXJV-4827"


def test_purge_erases_a_memory_from_the_data_folder(
    rin: httpx.Client, server: LiveServer, holding: Holding
) -> None:
    kept = rin.post("/api/memories/rin", json={"content": "The user grows tomatoes"}).json()
    created = rin.post(
        "/api/memories/rin", json={"content": f"The user's bank PIN is {PIN}", "tags": ["secret"]}
    )
    key = created.json()["memory"]["key"]
    assert (
        rin.patch(
            f"/api/memories/rin/{key}",
            json={"content": f"The user's bank PIN is {PIN}, for the new card"},
        ).status_code
        == 200
    )
    wait_for_jobs(server.omoide, "rin")
    assert holding(PIN)

    reply = rin.delete(f"/api/memories/rin/{key}", params={"purge": "true"})

    assert reply.status_code == 200
    assert reply.json() == {
        "persona": "rin",
        "key": key,
        "status": "purged",
        "also_purged": [],
        "said_in": [],
        "scrub_pending": False,
    }
    assert holding(PIN) == []
    for path in (f"/api/memories/rin/{key}", f"/api/memories/rin/{key}/history"):
        assert rin.get(path).status_code == 404
    assert rin.get("/api/search/rin", params={"q": PIN, "mode": "keyword"}).json()["results"] == []
    assert rin.get(f"/api/memories/rin/{kept['memory']['key']}").status_code == 200
    again = rin.delete(f"/api/memories/rin/{key}", params={"purge": "true"})
    assert again.status_code == 404
    assert again.json()["error"]["code"] == "not_found"


def test_plain_delete_stays_a_tombstone(rin: httpx.Client, holding: Holding) -> None:
    key = rin.post("/api/memories/rin", json={"content": f"Gate code {PIN}"}).json()["memory"][
        "key"
    ]
    assert rin.delete(f"/api/memories/rin/{key}").json()["status"] == "tombstoned"
    history = rin.get(f"/api/memories/rin/{key}/history").json()["versions"]
    assert history[-1]["change"] == "delete"
    assert holding(PIN)  # nothing is lost unless the user says "forget"


def test_purge_statuses(rin: httpx.Client, server: LiveServer) -> None:
    assert rin.delete("/api/memories/rin/mem_nope", params={"purge": "true"}).status_code == 404
    other = server.client(server.create_persona("haru"))
    key = rin.post("/api/memories/rin", json={"content": "User likes tea"}).json()["memory"]["key"]
    assert other.delete(f"/api/memories/rin/{key}", params={"purge": "true"}).status_code == 403
    assert rin.delete(f"/api/memories/rin/{key}", params={"purge": "maybe"}).status_code == 422


def test_deleting_a_conversation_over_http(
    rin: httpx.Client, server: LiveServer, holding: Holding
) -> None:
    chat_notes(
        rin,
        server.omoide,
        "rin",
        "s1",
        [
            ("Ken", "user", f"My favourite food is {PIN} ramen."),
            ("Ken", "user", "I moved to Kyoto last month."),
            ("Omoide", "assistant", "Nice to hear!"),
        ],
    )
    notes = [
        k for ep in rin.get("/api/sessions/rin/s1/episodes").json()["episodes"] for k in ep["notes"]
    ]
    assert notes and holding(PIN)

    reply = rin.delete("/api/sessions/rin/s1", params={"with_notes": "true"})

    assert reply.status_code == 200
    body = reply.json()
    assert (body["status"], body["events"], sorted(body["notes"])) == ("erased", 3, sorted(notes))
    assert holding(PIN) == []
    assert rin.get("/api/sessions/rin/s1/episodes").status_code == 404
    for key in notes:
        assert rin.get(f"/api/memories/rin/{key}").status_code == 404
    assert rin.get("/api/search/rin", params={"q": f"{PIN} ramen"}).json()["results"] == []
    again = rin.delete("/api/sessions/rin/s1")
    assert again.status_code == 404 and again.json()["error"]["code"] == "not_found"


def test_deleting_a_persona_over_http(server: LiveServer, holding: Holding) -> None:
    rin_key, haru_key = server.create_persona("rin"), server.create_persona("haru")
    with server.client(rin_key) as rin:
        rin.post("/api/memories/rin", json={"content": f"The user's PIN is {PIN}"})
        rin.post("/api/sessions/rin", json={"session_id": "s1"})
        rin.post(
            "/api/sessions/rin/s1/events",
            json={"events": [{"speaker": "Ken", "content": f"Remember {PIN} for me"}]},
        )
        rin.put("/api/user-state/rin", json={"pin": PIN})
        assert rin.delete("/api/personas/rin").status_code == 403  # not with its own key
    with server.client(haru_key) as haru:
        assert haru.delete("/api/personas/rin").status_code == 403
    wait_for_jobs(server.omoide, "rin")
    assert holding(PIN)

    with server.admin() as admin:
        reply = admin.delete("/api/personas/rin")
        assert reply.status_code == 200
        assert (reply.json()["status"], reply.json()["memories"]) == ("erased", 1)
        assert admin.delete("/api/personas/rin").status_code == 404
        assert admin.delete("/api/personas/bad name!").status_code == 422
        assert [p["name"] for p in admin.get("/api/personas").json()["personas"]] == ["haru"]
        assert admin.get("/api/memories/rin").status_code == 404

    assert holding(PIN) == []
    with server.client(rin_key) as rin:
        reply = rin.get("/api/memories/rin")
        assert reply.status_code == 401 and reply.json()["error"]["code"] == "unauthorized"
    mcp = httpx.post(
        f"{server.url}/mcp",
        headers={
            "Authorization": f"Bearer {rin_key}",
            "Accept": "application/json, text/event-stream",
        },
        json=INITIALIZE,
    )
    assert mcp.status_code == 401
    with server.client(haru_key) as haru:
        assert haru.get("/api/memories/haru").status_code == 200


def converse(rin: httpx.Client, server: LiveServer, session_id: str, text: str) -> None:
    """One conversation of one user turn, ended, its consolidation done."""
    assert rin.post("/api/sessions/rin", json={"session_id": session_id}).status_code == 201
    rin.post(
        f"/api/sessions/rin/{session_id}/events",
        json={"events": [{"speaker": "Ken", "content": text}]},
    )
    rin.post(f"/api/sessions/rin/{session_id}/end")
    wait_for_jobs(server.omoide, "rin")


def test_deleting_a_conversation_erases_the_user_state_it_taught(
    rin: httpx.Client, server: LiveServer, holding: Holding
) -> None:
    """State learned from the conversation goes with it; values from other sources stay, and
    each key's history is joined up again as if the conversation had never happened."""
    assert rin.put("/api/user-state/rin", json={"name": "Ken"}).status_code == 200
    converse(rin, server, "s1", "Hello! My name is Zorvath Quillon, and I collect old maps.")
    converse(rin, server, "s2", "By the way, my nickname is Biscuit.")
    state = rin.get("/api/user-state/rin").json()["state"]
    assert (state["name"], state["nickname"]) == ("Zorvath Quillon", "Biscuit")
    assert holding("Zorvath")

    reply = rin.delete("/api/sessions/rin/s1", params={"with_notes": "true"})

    assert reply.status_code == 200
    state = rin.get("/api/user-state/rin").json()["state"]
    assert (state["name"], state["nickname"]) == ("Ken", "Biscuit")
    history = rin.get("/api/user-state/rin/history", params={"key": "name"}).json()
    assert [(v["value"], v["valid_until"]) for v in history["history"]] == [("Ken", None)]
    assert holding("Zorvath") == []
    # A value set by hand later is not the conversation's, and survives its deletion.
    rin.put("/api/user-state/rin", json={"nickname": "Bis"})
    assert rin.delete("/api/sessions/rin/s2").status_code == 200
    history = rin.get("/api/user-state/rin/history", params={"key": "nickname"}).json()
    assert [(v["value"], v["valid_until"]) for v in history["history"]] == [("Bis", None)]
    assert rin.get("/api/user-state/rin").json()["state"]["name"] == "Ken"


def test_deleting_the_only_conversation_that_taught_a_key_erases_the_key(
    rin: httpx.Client, server: LiveServer
) -> None:
    """Every value of the key came from the conversation: the key goes, with its history."""
    converse(rin, server, "only", "By the way, my nickname is Biscuit.")
    assert rin.get("/api/user-state/rin").json()["state"]["nickname"] == "Biscuit"

    assert rin.delete("/api/sessions/rin/only").status_code == 200

    assert "nickname" not in rin.get("/api/user-state/rin").json()["state"]
    history = rin.get("/api/user-state/rin/history", params={"key": "nickname"}).json()
    assert history["history"] == []


def test_a_value_another_conversation_restated_survives_deleting_the_first(
    rin: httpx.Client, server: LiveServer
) -> None:
    """Two conversations taught the same nickname: deleting one keeps it (the other still says
    so), deleting both erases it. A value restated by hand is the hand's. History shows one
    value throughout."""

    def history(key: str) -> list[str]:
        reply = rin.get("/api/user-state/rin/history", params={"key": key}).json()
        return [v["value"] for v in reply["history"]]

    converse(rin, server, "s1", "By the way, my nickname is Biscuit.")
    converse(rin, server, "s2", "As I said before, my nickname is Biscuit.")
    assert rin.get("/api/user-state/rin").json()["state"]["nickname"] == "Biscuit"
    assert history("nickname") == ["Biscuit"]

    assert rin.delete("/api/sessions/rin/s1").status_code == 200
    assert rin.get("/api/user-state/rin").json()["state"]["nickname"] == "Biscuit"
    assert history("nickname") == ["Biscuit"]
    assert rin.delete("/api/sessions/rin/s2").status_code == 200
    assert "nickname" not in rin.get("/api/user-state/rin").json()["state"]

    converse(rin, server, "s3", "By the way, my nickname is Biscuit.")
    assert rin.put("/api/user-state/rin", json={"nickname": "Biscuit"}).status_code == 200
    assert rin.delete("/api/sessions/rin/s3").status_code == 200
    assert rin.get("/api/user-state/rin").json()["state"]["nickname"] == "Biscuit"


def test_a_note_another_conversation_restated_survives_deleting_the_first(
    rin: httpx.Client, server: LiveServer, holding: Holding
) -> None:
    """A conversation that restates a note adds its turn to the note's sources (consolidation
    found the note a duplicate): deleting the first conversation with its notes keeps the note,
    which the second still states; deleting the second too erases it. A note written by hand
    that a conversation restates is the hand's, and stays."""
    said = "I work as a pharmacist at a clinic in Sendai."

    def sources(key: str) -> list[int]:
        return [s["event_id"] for s in rin.get(f"/api/memories/rin/{key}").json()["sources"]]

    [first] = chat_notes(rin, server.omoide, "rin", "s1", [("Mika", "user", said)])
    notes = chat_notes(rin, server.omoide, "rin", "s2", [("Mika", "user", said)])
    assert [n["key"] for n in notes] == [first["key"]]  # a duplicate: no second note
    assert len(sources(first["key"])) == 2

    reply = rin.delete("/api/sessions/rin/s1", params={"with_notes": "true"})

    assert reply.status_code == 200 and reply.json()["notes"] == []
    assert len(sources(first["key"])) == 1 and holding("pharmacist")
    assert rin.delete("/api/sessions/rin/s2", params={"with_notes": "true"}).json()["notes"] == [
        first["key"]
    ]
    assert holding("pharmacist") == []

    hand = rin.post("/api/memories/rin", json={"content": first["content"]}).json()["memory"]
    chat_notes(rin, server.omoide, "rin", "s3", [("Mika", "user", said)])
    assert len(sources(hand["key"])) == 1
    assert rin.delete("/api/sessions/rin/s3", params={"with_notes": "true"}).json()["notes"] == []
    assert rin.get(f"/api/memories/rin/{hand['key']}").json()["sources"] == []


def _seen_ids(client: httpx.Client, session_id: str) -> tuple[set[int], set[int]]:
    """The episode ids and turn ids a client sees for an ended conversation."""
    episodes = client.get(f"/api/sessions/rin/{session_id}/episodes").json()["episodes"]
    turns = {i for ep in episodes for i in range(ep["first_event_id"], ep["last_event_id"] + 1)}
    return {ep["id"] for ep in episodes}, turns


def test_ids_of_an_erased_conversation_never_name_another_row(
    rin: httpx.Client, server: LiveServer
) -> None:
    """A client kept the ids of a conversation it then erased: the next conversation's turns
    and episodes get new ids, never the erased ones (SQLite gave the largest id + 1)."""
    chat_notes(
        rin,
        server.omoide,
        "rin",
        "s1",
        [
            ("Ken", "user", "I moved to Kyoto last month."),
            ("Ken", "user", "My favourite food is ramen."),
        ],
    )
    old_episodes, old_turns = _seen_ids(rin, "s1")
    assert old_episodes and old_turns
    assert rin.delete("/api/sessions/rin/s1", params={"with_notes": "true"}).status_code == 200

    chat_notes(
        rin,
        server.omoide,
        "rin",
        "s2",
        [
            ("Ken", "user", "I started learning the cello."),
            ("Ken", "user", "My sister lives in Sapporo."),
        ],
    )
    new_episodes, new_turns = _seen_ids(rin, "s2")

    assert new_episodes and new_turns
    assert not new_episodes & old_episodes and not new_turns & old_turns
    assert min(new_turns) > max(old_turns)
