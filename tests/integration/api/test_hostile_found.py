"""Found by hand in session 12's probe, through real HTTP on both stores: each answered
differently by SQLite and PostgreSQL, or with a misleading message."""

from __future__ import annotations

import httpx
import pytest
from omoide_testing import LiveServer, serve_in_thread

from omoide.api.http.app import create_app


def test_a_negative_zero_is_zero_on_both_stores(rin: httpx.Client) -> None:
    """``"importance": -0.0`` came back as 0.0 from SQLite and -0.0 from PostgreSQL."""
    made = rin.post(
        "/api/memories/rin",
        json={"content": "Ken likes rain.", "importance": -0.0, "emotion_intensity": -0.0},
    )
    assert made.status_code == 201, made.text
    key = made.json()["memory"]["key"]
    assert '"importance":0.0' in made.text and "-0.0" not in made.text, made.text
    read = rin.get(f"/api/memories/rin/{key}")
    assert "-0.0" not in read.text, read.text
    patched = rin.patch(f"/api/memories/rin/{key}", json={"emotion_intensity": -0.0})
    assert patched.status_code == 200 and "-0.0" not in patched.text, patched.text


@pytest.mark.parametrize("session_id", [".", ".."])
def test_a_session_id_that_is_a_dot_segment_is_refused(rin: httpx.Client, session_id: str) -> None:
    """A session named '..' was opened, and then every client that normalises a URL (curl, a
    browser, httpx, Omoide's own client) read …/sessions/rin/../episodes as another path."""
    reply = rin.post("/api/sessions/rin", json={"session_id": session_id})
    assert reply.status_code == 422, reply.text
    error = reply.json()["error"]
    assert error["field"] == "session_id" and "dot segment" in error["message"], error
    assert (
        rin.get(f"/api/sessions/rin/{session_id.replace('.', '%2E')}/episodes").status_code == 404
    )
    assert rin.post("/api/sessions/rin", json={"session_id": "..."}).status_code == 201


def test_a_setting_sent_as_null_drops_the_override(rin: httpx.Client) -> None:
    """Found undocumented: ``null`` is not ignored, it restores the server default."""
    default = rin.get("/api/settings/rin").json()["settings"]["importance_weight"]
    changed = rin.put("/api/settings/rin", json={"importance_weight": 0.3}).json()
    assert changed["overrides"] == {"importance_weight": 0.3}
    reset = rin.put("/api/settings/rin", json={"importance_weight": None}).json()
    assert reset["overrides"] == {} and reset["settings"]["importance_weight"] == default


def test_a_keyword_search_keeps_to_keywords_in_the_conversation_tier_too(rin: httpx.Client) -> None:
    """``mode=keyword`` ranked notes by their words but conversation turns by meaning: a query
    no turn holds ("qqqq") answered turns at 0.6 (the semantic side's share)."""
    assert rin.post("/api/sessions/rin", json={"session_id": "s1"}).status_code == 201
    assert (
        rin.post(
            "/api/sessions/rin/s1/events",
            json={
                "events": [
                    {"speaker": "Ken", "content": "a"},
                    {"speaker": "Ken", "content": "zebra crossing"},
                ]
            },
        ).status_code
        == 200
    )
    for mode in ("keyword", "hybrid"):
        found = rin.get(
            "/api/search/rin", params={"q": "zebra", "mode": mode, "include_episodes": "true"}
        ).json()
        assert any("zebra" in hit["content"] for hit in found["results"]), (mode, found)
    nothing = rin.get(
        "/api/search/rin", params={"q": "qqqq", "mode": "keyword", "include_episodes": "true"}
    ).json()
    assert nothing["results"] == [], nothing


@pytest.mark.parametrize("order", ["right-first", "wrong-first"])
def test_a_header_the_api_reads_given_twice_is_refused(
    server: LiveServer, rin: httpx.Client, order: str
) -> None:
    """Two Authorization headers: the first one won (a valid key before a wrong one was let
    in, the other order refused), as a query parameter or a JSON key given twice used to."""
    right = rin.headers["authorization"]
    pair = (
        [right, "Bearer omo_p_wrong"] if order == "right-first" else ["Bearer omo_p_wrong", right]
    )
    reply = httpx.get(
        f"{server.url}/api/stats/rin", headers=[("Authorization", value) for value in pair]
    )
    assert reply.status_code == 401, reply.text
    assert "Authorization header 2 times" in reply.json()["error"]["message"]
    twice = httpx.get(
        f"{server.url}/api/stats/rin",
        headers=[("Authorization", right), ("X-Omoide-Session", "a"), ("X-Omoide-Session", "b")],
    )
    assert twice.status_code == 422, twice.text
    assert twice.json()["error"]["field"] == "X-Omoide-Session"
    assert rin.get("/api/stats/rin").status_code == 200


def test_a_memory_written_while_its_persona_is_erased_is_refused(make_app, data_dir) -> None:
    """A memory created while its persona was being erased died on the store's foreign key
    (SQLite IntegrityError, PostgreSQL ForeignKeyViolation) as a 500. Reproduced here without
    timing: the erase lands right after the service's first lookup, and the write finds the
    persona gone (a write whose insert itself loses the race is a 409: test_qa35_races)."""
    app = make_app()
    app.auth.create_persona("gone")
    persona_of = app.store.get_persona
    looked_up = persona_of("gone")

    erasing = False

    def lookup_then_erase(name: str):  # the erase lands right after the lookup
        nonlocal erasing
        if name != "gone" or erasing:
            return persona_of(name)
        erasing = True  # the erase looks the persona up too
        app.forget.delete_persona("gone")  # as DELETE /api/personas/gone does
        return looked_up

    app.store.get_persona = lookup_then_erase  # type: ignore[method-assign]
    admin = "omo_admin_race-test-key"
    app.auth.ensure_admin_key(data_dir, admin)
    uv, thread, url = serve_in_thread(create_app(app, start_workers=False))
    try:
        reply = httpx.post(
            f"{url}/api/memories/gone",
            json={"content": "Ken likes tea."},
            headers={"Authorization": f"Bearer {admin}"},
        )
        assert reply.status_code == 404, reply.text
        assert reply.json()["error"]["message"] == "unknown persona 'gone'"
    finally:
        uv.should_exit = True
        thread.join(10)
