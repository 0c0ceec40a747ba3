"""What session 10's probe left (session 11 probe), through real HTTP on both stores: a time far
ahead, NUL, invisible-only text and a hand-edited import each get a clear 422 and store nothing.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from omoide_testing import LiveServer, exported_lines, import_lines, refused

from omoide.clock import FixedClock


def nothing_stored(client: httpx.Client) -> None:
    assert client.get("/api/memories/rin").json()["memories"] == []
    assert client.get("/api/blocks/rin").json()["blocks"] == []


# -- 1. a time far ahead ----------------------------------------------------------------------


def test_a_turn_dated_far_ahead_is_refused_naming_the_field_and_the_limit(
    rin: httpx.Client,
) -> None:
    """A turn dated 9999 used to be stored and kept its session from ever going idle."""
    assert rin.post("/api/sessions/rin", json={"session_id": "s1"}).status_code == 201
    error = refused(
        rin.post(
            "/api/sessions/rin/s1/events",
            json={
                "events": [
                    {"speaker": "Ken", "content": "hello", "timestamp": "2026-11-30T08:00:00Z"},
                    {"speaker": "Ken", "content": "later", "timestamp": "9999-01-01T00:00:00Z"},
                ]
            },
        ),
        422,
    )
    assert error["field"] == "events[1].timestamp"
    assert "more than 24 hours after the server's clock" in error["message"]
    error = refused(
        rin.post("/api/sessions/rin", json={"session_id": "s2", "started_at": "2030-01-01"}), 422
    )
    assert error["field"] == "started_at"
    assert rin.get("/api/sessions/rin/s1/episodes").status_code == 200
    # past dates stay allowed, and so does a validity window that lies ahead (world time)
    assert (
        rin.post(
            "/api/sessions/rin/s1/events",
            json={"events": [{"speaker": "Ken", "content": "in 1999", "timestamp": "1999-05-01"}]},
        ).status_code
        == 200
    )
    made = rin.post(
        "/api/memories/rin",
        json={"content": "From April 2030 Ken works in Kyoto.", "valid_from": "2030-04-01"},
    )
    assert made.status_code == 201, made.text


def test_a_turn_dated_ahead_does_not_keep_its_session_open(
    server: LiveServer, rin: httpx.Client, clock: FixedClock
) -> None:
    """A client whose clock runs 14 hours ahead: accepted (within a day), but the idle clock
    runs from the turn's arrival."""
    assert rin.post("/api/sessions/rin", json={"session_id": "s1"}).status_code == 201
    ahead = (
        clock.now().replace(microsecond=0).isoformat()[:11] + "23:00:00Z"
    )  # 14 hours after the fixture's 09:00 UTC
    assert (
        rin.post(
            "/api/sessions/rin/s1/events",
            json={"events": [{"speaker": "Ken", "content": "I am off to bed", "timestamp": ahead}]},
        ).status_code
        == 200
    )
    clock.advance(minutes=31)
    assert server.omoide.sessions.end_idle("rin") == ["s1"]


# -- 2. NUL -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("method", "path", "body", "field"),
    [
        pytest.param(
            "POST", "/api/memories/rin", {"content": "tea\u0000"}, "content", id="content"
        ),
        pytest.param(
            "POST",
            "/api/memories/rin",
            {"content": "tea", "tags": ["a\u0000"]},
            "tags[0]",
            id="tag",
        ),
        pytest.param(
            "POST",
            "/api/memories/rin",
            {"content": "tea", "metadata": {"k": ["\u0000"]}},
            "metadata.k[0]",
            id="metadata",
        ),
        pytest.param(
            "POST",
            "/api/blocks/rin",
            {"block_name": "b", "content": "x\u0000"},
            "content",
            id="block",
        ),
        pytest.param("PUT", "/api/user-state/rin", {"name": "K\u0000en"}, "name", id="state"),
        pytest.param(
            "POST",
            "/api/sessions/rin/s1/events",
            {"events": [{"speaker": "Ken", "content": "a\u0000b"}]},
            "events[0].content",
            id="event",
        ),
        pytest.param("GET", "/api/search/rin?q=tea%00", None, "q", id="query-string"),
        pytest.param("GET", "/api/memories/rin/mem_%00", None, None, id="path"),
    ],
)
def test_nul_is_refused_alike_on_both_stores(
    rin: httpx.Client, method: str, path: str, body: Any, field: str | None
) -> None:
    """SQLite stored NUL, PostgreSQL refused it (without naming the field): now both refuse it
    at the edge, naming where it was."""
    assert rin.post("/api/sessions/rin", json={"session_id": "s1"}).status_code == 201
    error = refused(rin.request(method, path, json=body), 422)
    assert "NUL" in error["message"], error
    assert error.get("field") == field
    nothing_stored(rin)
    assert rin.get("/api/user-state/rin").json().get("user_info", {}).get("name") is None


# -- 5. invisible-only text ----------------------------------------------------------------------

INVISIBLE = "\u200b\u200c\u200d\u2060\ufeff"


@pytest.mark.parametrize(
    ("method", "path", "body", "field"),
    [
        pytest.param("POST", "/api/memories/rin", {"content": INVISIBLE}, "content", id="content"),
        pytest.param(
            "POST", "/api/memories/rin", {"content": "tea", "tags": [" \u200b"]}, "tags", id="tag"
        ),
        pytest.param(
            "POST",
            "/api/sessions/rin/s1/events",
            {"events": [{"speaker": "Ken", "content": f" {INVISIBLE}\n"}]},
            "events[0].content",
            id="event",
        ),
        pytest.param(
            "POST",
            "/api/sessions/rin/s1/events",
            {"events": [{"speaker": "\u2060", "content": "hi"}]},
            "events[0].speaker",
            id="speaker",
        ),
        pytest.param("PUT", "/api/user-state/rin", {"name": "\ufeff"}, "name", id="state"),
        pytest.param("GET", "/api/search/rin?q=%E2%80%8B", None, "q", id="query"),
        # beyond the Basic Multilingual Plane: tag characters, a variation selector supplement,
        # musical and Egyptian format controls (session 12: the pattern stopped at U+FFFF)
        pytest.param(
            "POST",
            "/api/memories/rin",
            {"content": "\U000e0001\U000e0041\U000e007f"},
            "content",
            id="content-tag-characters",
        ),
        pytest.param(
            "POST",
            "/api/memories/rin",
            {"content": "tea", "tags": ["\U000e0100"]},
            "tags",
            id="tag-variation-selector-supplement",
        ),
        pytest.param(
            "POST",
            "/api/sessions/rin/s1/events",
            {"events": [{"speaker": "Ken", "content": "\U0001d173\U00013430\U0001bca0"}]},
            "events[0].content",
            id="event-format-controls",
        ),
        pytest.param("GET", "/api/search/rin?q=%F3%A0%80%81", None, "q", id="query-tag-character"),
    ],
)
def test_invisible_only_text_is_blank(
    rin: httpx.Client, method: str, path: str, body: Any, field: str
) -> None:
    """Zero-width and format characters passed the not-blank rule (it mirrored isspace)."""
    assert rin.post("/api/sessions/rin", json={"session_id": "s1"}).status_code == 201
    error = refused(rin.request(method, path, json=body), 422)
    assert error["field"] == field, error
    assert "invisible" in error["message"], error
    nothing_stored(rin)
    # a visible character among them is text
    assert rin.post("/api/memories/rin", json={"content": f"{INVISIBLE}ok"}).status_code == 201


# -- 3. import ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "field", "bad", "says"),
    [
        pytest.param(
            "memory", "tags", ["x" * 65], "must be at most 64 characters, got 65", id="tag-length"
        ),
        pytest.param(
            "memory",
            "tags",
            [f"t{i}" for i in range(21)],
            "must have at most 20 items, got 21",
            id="tag-count",
        ),
        pytest.param("memory", "content", INVISIBLE, "invisible", id="blank-content"),
        pytest.param(
            "memory",
            "content",
            "x" * 50_001,
            "must be at most 50,000 characters, got 50,001",
            id="content-length",
        ),
        pytest.param("memory", "key", "mem 1", "memory key", id="key-shape"),
        pytest.param("memory", "emotion_type", "e" * 65, "at most 64", id="emotion-type"),
        pytest.param("memory", "metadata", {"k": "\u0000"}, "NUL", id="nul-metadata"),
        pytest.param(
            "memory", "created_at", "9999-01-01T00:00:00+00:00", "24 hours", id="created-far-ahead"
        ),
        pytest.param(
            "event", "timestamp", "9999-01-01T00:00:00+00:00", "24 hours", id="turn-far-ahead"
        ),
        pytest.param("event", "content", "x" * 50_001, "50,000", id="turn-length"),
        pytest.param("event", "speaker", "\u200b", "invisible", id="turn-speaker"),
        pytest.param("event", "role", "bot", "role", id="turn-role"),
        pytest.param(
            "session",
            "last_event_at",
            "9999-01-01T00:00:00+00:00",
            "24 hours",
            id="session-far-ahead",
        ),
        pytest.param("state", "value", "   ", "must not be empty", id="state-blank"),
        pytest.param(
            "state",
            "value",
            "v" * 2001,
            "must be at most 2,000 characters, got 2,001",
            id="state-length",
        ),
        pytest.param("block", "max_tokens", 0, "max_tokens", id="block-tokens"),
        pytest.param("block", "content", "a\u0000", "NUL", id="block-nul"),
    ],
)
def test_an_import_applies_the_apis_limits_and_stores_nothing(
    server: LiveServer, rin: httpx.Client, kind: str, field: str, bad: Any, says: str
) -> None:
    """An export edited by hand could store what the API refuses (a 65-character tag, a turn
    dated 9999, a blank note); now the file is refused naming the line, record and field."""
    exported = exported_lines(rin, "rin")
    target = next(i for i, r in enumerate(exported) if r["type"] == kind)
    lines = [dict(r) for r in exported]
    lines[target][field] = bad
    server.create_persona("copy")
    with server.admin() as admin:
        error = refused(import_lines(admin, "copy", lines), 422)
        assert error["message"].startswith(f"line {target + 1}: {kind} record: "), error
        assert says in error["message"], error
        assert error["line"] == target + 1
        assert admin.get("/api/stats/copy").json()["total"] == 0
        assert admin.get("/api/blocks/copy").json()["blocks"] == []
        assert admin.get("/api/user-state/copy").json().get("user_info", {}) == {}
        # the file as exported still imports
        good = import_lines(admin, "copy", exported)
        assert good.status_code == 200, good.text


# -- 7. found by hand ---------------------------------------------------------------------------


def test_a_key_named_twice_in_one_object_is_refused(rin: httpx.Client) -> None:
    """``{"content": "a", "content": "b"}`` stored "b" silently (another parser keeps "a")."""
    error = refused(
        rin.post(
            "/api/memories/rin",
            content=b'{"content": "a", "content": "b"}',
            headers={"content-type": "application/json"},
        ),
        422,
    )
    assert "'content' twice" in error["message"] and error["field"] == "content"
    nothing_stored(rin)


def _peer_import(server: LiveServer, source: str, body: Any) -> httpx.Response:
    with server.admin() as admin:
        return admin.post(f"/api/import/rin?source={source}", json=body)


def test_a_mem0_file_with_one_bad_memory_stores_nothing(
    server: LiveServer, rin: httpx.Client
) -> None:
    """Mem0 memories were written one by one: a memory dated 9999 was stored, and one the API
    refuses (blank once invisible characters are read as blank) stopped the import half way."""
    good = {"memory": "Ken likes kiwis", "created_at": "2026-01-05T10:00:00Z"}
    error = refused(
        _peer_import(
            server,
            "mem0",
            {
                "results": [
                    good,
                    {"memory": "Ken moved to Oslo", "created_at": "9999-01-01T00:00:00Z"},
                ]
            },
        ),
        422,
    )
    assert "mem0 file: memory 'Ken moved to Oslo'" in error["message"], error
    assert "24 hours" in error["message"] and error["field"] == "created_at"
    error = refused(_peer_import(server, "mem0", [good, {"memory": "\u200b\u2060"}]), 422)
    assert "invisible" in error["message"], error
    nothing_stored(rin)
    assert _peer_import(server, "mem0", [good]).json()["memories"] == 1


def test_a_chat_file_with_a_turn_dated_far_ahead_stores_nothing(
    server: LiveServer, rin: httpx.Client
) -> None:
    conversation = {
        "title": "Trip",
        "chat_messages": [
            {
                "uuid": "m1",
                "sender": "human",
                "text": "I fly to Lisbon on Friday.",
                "created_at": "2026-11-01T10:00:00Z",
            },
            {
                "uuid": "m2",
                "sender": "assistant",
                "text": "\u200b",
                "created_at": "2026-11-01T10:00:05Z",
            },
            {
                "uuid": "m3",
                "sender": "human",
                "text": "Back in a week.",
                "created_at": "9999-01-01T00:00:00Z",
            },
        ],
        "uuid": "c1",
    }
    error = refused(_peer_import(server, "chat", [conversation]), 422)
    assert "chat file: conversation" in error["message"] and "24 hours" in error["message"]
    with server.admin() as admin:
        assert refused(admin.get("/api/sessions/rin/chat-c1/episodes"), 404)
    conversation["chat_messages"][2]["created_at"] = "2026-11-02T10:00:00Z"
    reply = _peer_import(server, "chat", [conversation])
    assert reply.status_code == 200 and reply.json()["events"] == 2, reply.text  # blank left out


def test_a_query_parameter_that_takes_one_value_given_twice_is_refused(rin: httpx.Client) -> None:
    """``?limit=1&limit=500`` kept the last value silently; a list parameter may repeat."""
    error = refused(rin.get("/api/memories/rin?limit=1&limit=500"), 422)
    assert error["field"] == "limit" and "given 2 times" in error["message"]
    error = refused(rin.get("/api/search/rin?q=tea&q=coffee"), 422)
    assert error["field"] == "q"
    assert rin.get("/api/search/rin?q=tea&tags=a&tags=b").status_code == 200
    assert refused(httpx.get(f"{rin.base_url}/api/memories/rin?limit=1&limit=2"), 401)
