"""The persona-context HTTP contract through a real uvicorn server: user/persona state, named
blocks (the spec's exact shapes), get_context / session_begin / update_context, settings."""

from __future__ import annotations

import itertools
import threading

import httpx
from omoide_testing import LiveServer

from omoide.clock import FixedClock
from omoide.config import PERSONA_SETTINGS

# -- user state and persona state ----------------------------------------------------------


def test_user_state_put_get_and_history(rin: httpx.Client, clock: FixedClock) -> None:
    put = rin.put("/api/user-state/rin", json={"name": "らうらう", "nickname": "らう"})
    assert put.status_code == 200
    assert put.json() == {"persona": "rin", "changed": ["name", "nickname"]}
    first = clock.now().isoformat()
    second = clock.advance(days=1).isoformat()
    assert rin.put("/api/user-state/rin", json={"name": "Rau", "nickname": "らう"}).json() == {
        "persona": "rin",
        "changed": ["name"],
    }
    assert rin.get("/api/user-state/rin").json() == {
        "persona": "rin",
        "state": {"name": "Rau", "nickname": "らう"},
    }
    history = rin.get("/api/user-state/rin/history", params={"key": "name"})
    assert history.json() == {
        "persona": "rin",
        "key": "name",
        "history": [
            {"value": "らうらう", "valid_from": first, "valid_until": second, "is_current": False},
            {"value": "Rau", "valid_from": second, "valid_until": None, "is_current": True},
        ],
    }


def test_user_state_history_at_a_point_in_time(rin: httpx.Client, clock: FixedClock) -> None:
    rin.put("/api/user-state/rin", json={"name": "らうらう"})
    before = clock.advance(hours=1).isoformat()
    clock.advance(hours=1)
    rin.put("/api/user-state/rin", json={"name": "Rau"})
    reply = rin.get("/api/user-state/rin/history", params={"key": "name", "at": before})
    assert [h["value"] for h in reply.json()["history"]] == ["らうらう"]


def test_unchanged_user_state_reports_nothing_changed(rin: httpx.Client) -> None:
    rin.put("/api/user-state/rin", json={"name": "Rau"})
    assert rin.put("/api/user-state/rin", json={"name": "Rau"}).json()["changed"] == []


# One server per test is the slow part, so each table of bad bodies runs in one test.
# The body is the flat map, so ``field`` is the key as sent (PUT /api/context's nested
# ``user_info.name`` was reported here too, a path the request did not have).
BAD_USER_STATE = [
    ({"name": ""}, "name"),
    ({"name": ["x"]}, "name"),
    ({"bad key": "x"}, "bad key"),
    ({"emotion_intensity": 5}, "emotion_intensity"),
]


def test_user_state_put_refuses_bad_values(rin: httpx.Client) -> None:
    for body, field in BAD_USER_STATE:
        reply = rin.put("/api/user-state/rin", json=body)
        assert reply.status_code == 422, body
        assert reply.json()["error"]["field"] == field, body
        assert "user_info" not in reply.json()["error"]["message"], body
    assert rin.get("/api/user-state/rin").json()["state"] == {}
    too_many = rin.put("/api/persona-state/rin", json={f"k{i}": "v" for i in range(51)})
    assert too_many.status_code == 422 and "field" not in too_many.json()["error"]
    assert too_many.json()["error"]["message"].startswith(
        "the request body must have at most 50 keys per update, got 51"
    )
    nested = rin.put("/api/context/rin", json={"user_info": {"name": ""}})
    assert nested.json()["error"]["field"] == "user_info.name"


def test_user_state_history_needs_a_key(rin: httpx.Client) -> None:
    reply = rin.get("/api/user-state/rin/history")
    assert reply.status_code == 422
    assert reply.json()["error"]["message"] == "key is required"
    assert reply.json()["error"]["field"] == "key"


def test_concurrent_user_state_puts_keep_one_current_row(
    rin: httpx.Client, server: LiveServer
) -> None:
    def writer(thread: int) -> None:
        with httpx.Client(base_url=str(rin.base_url), headers=rin.headers) as client:
            for i in range(5):
                assert (
                    client.put("/api/user-state/rin", json={"name": f"n{thread}-{i}"}).status_code
                    == 200
                )

    threads = [threading.Thread(target=writer, args=(t,)) for t in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    history = rin.get("/api/user-state/rin/history", params={"key": "name"}).json()["history"]
    assert len(history) == 20
    assert [h["is_current"] for h in history] == [False] * 19 + [True]
    for older, newer in itertools.pairwise(history):
        assert older["valid_until"] == newer["valid_from"]


def test_persona_state_has_the_same_shapes(rin: httpx.Client) -> None:
    put = rin.put("/api/persona-state/rin", json={"emotion": "joy", "emotion_intensity": 0.7})
    assert put.json() == {"persona": "rin", "changed": ["emotion", "emotion_intensity"]}
    assert rin.get("/api/persona-state/rin").json() == {
        "persona": "rin",
        "state": {"emotion": "joy", "emotion_intensity": "0.7"},
    }
    history = rin.get("/api/persona-state/rin/history", params={"key": "emotion"}).json()
    assert [(h["value"], h["is_current"]) for h in history["history"]] == [("joy", True)]
    assert rin.get("/api/user-state/rin").json()["state"] == {}


# -- named memory blocks -------------------------------------------------------------------


def test_blocks_post_get_delete_with_the_specs_shapes(rin: httpx.Client) -> None:
    posted = rin.post("/api/blocks/rin", json={"block_name": "user_model", "content": "Likes tea."})
    assert posted.status_code == 200
    assert posted.json() == {"ok": True, "block_name": "user_model"}
    rin.post(
        "/api/blocks/rin",
        json={
            "block_name": "active_context",
            "content": "Trip.",
            "block_type": "context",
            "max_tokens": 100,
            "priority": 5,
            "metadata": {"by": "test"},
        },
    )
    listed = rin.get("/api/blocks/rin").json()
    assert listed["persona"] == "rin"
    assert [b["block_name"] for b in listed["blocks"]] == ["active_context", "user_model"]
    first = listed["blocks"][0]
    assert {
        k: first[k] for k in ("content", "block_type", "max_tokens", "priority", "metadata")
    } == {
        "content": "Trip.",
        "block_type": "context",
        "max_tokens": 100,
        "priority": 5,
        "metadata": {"by": "test"},
    }
    assert set(first) == {
        "block_name",
        "content",
        "block_type",
        "max_tokens",
        "priority",
        "metadata",
        "tokens",
        "created_at",
        "updated_at",
    }
    one = rin.get("/api/blocks/rin/active_context")
    assert (one.status_code, one.json()) == (200, first)
    deleted = rin.delete("/api/blocks/rin/user_model")
    assert (deleted.status_code, deleted.json()) == (200, {"ok": True})
    gone = rin.get("/api/blocks/rin/user_model")
    assert (gone.status_code, gone.json()["error"]["code"]) == (404, "not_found")
    assert [b["block_name"] for b in rin.get("/api/blocks/rin").json()["blocks"]] == [
        "active_context"
    ]
    missing = rin.delete("/api/blocks/rin/user_model")
    assert missing.status_code == 404
    assert missing.json()["error"]["code"] == "not_found"


def test_block_over_max_tokens_is_a_422_naming_both_numbers(rin: httpx.Client) -> None:
    reply = rin.post(
        "/api/blocks/rin",
        json={"block_name": "user_model", "content": "word " * 12, "max_tokens": 10},
    )
    assert reply.status_code == 422
    error = reply.json()["error"]
    assert error["message"] == (
        "block 'user_model': content is about 12 tokens, over its "
        "max_tokens of 10; shorten it or raise max_tokens"
    )
    assert (error["tokens"], error["max_tokens"]) == (12, 10)


def test_block_max_tokens_cannot_be_lowered_below_its_content(rin: httpx.Client) -> None:
    rin.post("/api/blocks/rin", json={"block_name": "notes", "content": "word " * 12})
    reply = rin.post(
        "/api/blocks/rin", json={"block_name": "notes", "content": "word " * 12, "max_tokens": 11}
    )
    assert reply.status_code == 422
    assert rin.get("/api/blocks/rin").json()["blocks"][0]["max_tokens"] == 500


BAD_BLOCKS = [
    ({"content": "x"}, "block_name"),
    ({"block_name": "notes"}, "content"),
    ({"block_name": "notes", "content": "x", "colour": "red"}, "colour"),
    ({"block_name": "no way", "content": "x"}, "block_name"),
    ({"block_name": "notes", "content": "x", "max_tokens": 0}, "max_tokens"),
    ({"block_name": "notes", "content": "x", "priority": "high"}, "priority"),
]


def test_block_post_refuses_bad_bodies(rin: httpx.Client) -> None:
    for body, field in BAD_BLOCKS:
        reply = rin.post("/api/blocks/rin", json=body)
        assert reply.status_code == 422, body
        assert reply.json()["error"]["field"] == field, body
    assert rin.get("/api/blocks/rin").json()["blocks"] == []


# -- context -------------------------------------------------------------------------------


def test_session_begin_and_get_context_over_http(rin: httpx.Client, clock: FixedClock) -> None:
    first = rin.post("/api/context/rin/session")
    assert first.status_code == 201
    body = first.json()
    assert set(body) >= {
        "session_id",
        "started_at",
        "previous_session_at",
        "persona",
        "text",
        "sections",
    }
    assert (body["started_at"], body["previous_session_at"]) == (clock.now().isoformat(), None)
    assert set(body["sections"]) == {
        "persona",
        "user",
        "session",
        "blocks",
        "last_conversation",
        "recent_memories",
        "important_memories",
        "stats",
    }
    assert body["sections"]["last_conversation"] == []
    clock.advance(days=3)
    second = rin.post("/api/context/rin/session").json()
    assert second["previous_session_at"] == body["started_at"]
    assert second["sections"]["session"] == {
        "last_session_at": body["started_at"],
        "since_last_session": "3 days ago",
    }
    context = rin.get("/api/context/rin").json()
    assert context["persona"] == "rin"
    assert context["text"] == second["text"]
    assert context["sections"]["session"]["since_last_session"] == "3 days ago"


def test_update_context_sets_both_states(rin: httpx.Client) -> None:
    reply = rin.put(
        "/api/context/rin", json={"user_info": {"name": "Rau"}, "persona_state": {"mood": "calm"}}
    )
    assert reply.json() == {
        "persona": "rin",
        "changed": {"user_info": ["name"], "persona_state": ["mood"]},
    }
    sections = rin.get("/api/context/rin").json()["sections"]
    assert sections["user"] == {"address": "Rau", "state": {"name": "Rau"}}
    assert sections["persona"] == {"name": "rin", "state": {"mood": "calm"}}
    bad = rin.put(
        "/api/context/rin", json={"user_info": {"name": ""}, "persona_state": {"mood": "sad"}}
    )
    assert bad.status_code == 422
    assert rin.get("/api/persona-state/rin").json()["state"] == {"mood": "calm"}


def test_context_includes_blocks_only_when_the_setting_is_on(rin: httpx.Client) -> None:
    rin.post("/api/blocks/rin", json={"block_name": "user_model", "content": "Likes tea."})
    assert rin.get("/api/context/rin").json()["sections"]["blocks"] == []
    rin.put("/api/settings/rin", json={"context_include_blocks": True})
    blocks = rin.get("/api/context/rin").json()["sections"]["blocks"]
    assert blocks == [
        {"block_name": "user_model", "content": "Likes tea.", "priority": 0, "max_tokens": 500}
    ]


# -- settings ------------------------------------------------------------------------------


def test_settings_get_and_put(rin: httpx.Client) -> None:
    got = rin.get("/api/settings/rin").json()
    assert got["persona"] == "rin" and got["overrides"] == {}
    assert set(got["settings"]) == {s.name for s in PERSONA_SETTINGS}
    put = rin.put("/api/settings/rin", json={"context_budget_tokens": 800, "language": "ja"})
    assert put.status_code == 200
    assert put.json()["overrides"] == {"context_budget_tokens": 800, "language": "ja"}
    assert put.json()["settings"]["context_budget_tokens"] == 800
    assert rin.get("/api/settings/rin").json() == put.json()


BAD_SETTINGS = [
    ({"no_such_setting": 1}, "no_such_setting", "unknown setting 'no_such_setting'"),
    (
        {"context_budget_tokens": 5},
        "context_budget_tokens",
        "setting 'context_budget_tokens' must be ≥ 100",
    ),
    ({"importance_weight": 2}, "importance_weight", "setting 'importance_weight' must be ≤ 1"),
    # text for a number or a boolean, readable or not, is told the JSON type (session 24)
    (
        {"context_include_blocks": "maybe"},
        "context_include_blocks",
        "setting 'context_include_blocks' must be a JSON boolean (true or false), got the text",
    ),
    (
        {"context_recent_count": "five"},
        "context_recent_count",
        "setting 'context_recent_count' must be a JSON integer, got the text \"five\"",
    ),
    (
        {"context_recent_count": 2.5},
        "context_recent_count",
        "setting 'context_recent_count' must be an integer",
    ),
    ({"language": "fr"}, "language", "setting 'language' must be one of"),
    ({"timezone": "Mars/Olympus"}, "timezone", "not a known IANA time zone"),
    # text the environment would read: a pydantic message with `field`, not `setting`, before
    (
        {"context_include_blocks": "true"},
        "context_include_blocks",
        "setting 'context_include_blocks' must be a JSON boolean (true or false), got the text",
    ),
    (
        {"context_recent_count": "5"},
        "context_recent_count",
        "setting 'context_recent_count' must be a JSON integer",
    ),
    (
        {"importance_weight": "0.5"},
        "importance_weight",
        "setting 'importance_weight' must be a JSON number",
    ),
    # a JSON value echoed as JSON writes it ("got True" before, Python's word)
    ({"timezone": True}, "timezone", "setting 'timezone' must be a string, got true"),
    (
        {"keyword_weight": False},
        "keyword_weight",
        "setting 'keyword_weight' must be a number, got false",
    ),
    ({"language": ["en"]}, "language", "setting 'language' must be a string, got [\"en\"]"),
    # NUL, refused before the route reads the body: named as `field` before, unlike the rest
    ({"language": "e\u0000n"}, "language", "setting 'language' holds a NUL character"),
    ({"timezone": "Asia/Tokyo\u0000"}, "timezone", "setting 'timezone' holds a NUL character"),
]


def test_settings_put_refuses_bad_values_naming_the_setting(rin: httpx.Client) -> None:
    for patch, setting, message in BAD_SETTINGS:
        reply = rin.put("/api/settings/rin", json=patch)
        assert reply.status_code == 422, patch
        error = reply.json()["error"]
        assert error["setting"] == setting and "field" not in error, patch
        assert message in error["message"], (patch, error["message"])
    assert rin.get("/api/settings/rin").json()["overrides"] == {}


# -- access --------------------------------------------------------------------------------

NEW_ENDPOINTS = [
    ("GET", "/api/user-state/{p}"),
    ("PUT", "/api/user-state/{p}"),
    ("GET", "/api/user-state/{p}/history?key=name"),
    ("GET", "/api/persona-state/{p}"),
    ("PUT", "/api/persona-state/{p}"),
    ("GET", "/api/persona-state/{p}/history?key=mood"),
    ("GET", "/api/blocks/{p}"),
    ("POST", "/api/blocks/{p}"),
    ("DELETE", "/api/blocks/{p}/user_model"),
    ("GET", "/api/context/{p}"),
    ("POST", "/api/context/{p}/session"),
    ("PUT", "/api/context/{p}"),
    ("GET", "/api/settings/{p}"),
    ("PUT", "/api/settings/{p}"),
]
BODY = {"block_name": "user_model", "content": "x", "user_info": {"name": "x"}}


def test_every_new_endpoint_refuses_another_persona_and_anonymous_callers(
    server: LiveServer,
) -> None:
    rin_key = server.create_persona("rin")
    server.create_persona("kai")
    with server.client(rin_key) as rin, server.client() as anonymous, server.admin() as admin:
        for method, path in NEW_ENDPOINTS:
            # a body only where the route takes one (a bodiless route refuses one, 422)
            body = BODY if method in ("PUT", "POST") and not path.endswith("/session") else None
            other = rin.request(method, path.format(p="kai"), json=body)
            assert other.status_code == 403, (method, path, other.text)
            assert other.json()["error"]["code"] == "forbidden"
            assert anonymous.request(method, path.format(p="rin"), json=body).status_code == 401, (
                method,
                path,
            )
            assert admin.request(method, path.format(p="nobody"), json=body).status_code == 404, (
                method,
                path,
            )
