"""What a demanding user broke by hand (session 10 probe), through real HTTP: each test is a
case that used to store twice, mislead, or answer with an unreadable message.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest
from omoide_testing import LiveServer, exported_lines, import_lines, refused

from omoide.service.validate import MAX_DATE_RANGE_CHARS, MAX_TIMESTAMP_CHARS

JSON = {"content-type": "application/json"}


def test_identical_concurrent_writes_store_one_memory(
    server: LiveServer, rin: httpx.Client
) -> None:
    """Eight clients sending the same memory at once: one is created, the others are told it
    is a duplicate of that one (dedup and insert used to race, storing eight copies)."""
    key = rin.headers["authorization"].split()[1]

    def post(_: int) -> httpx.Response:
        with server.client(key) as client:
            return client.post(
                "/api/memories/rin", json={"content": "My sister has lived in Osaka since 2019."}
            )

    with ThreadPoolExecutor(8) as pool:
        replies = list(pool.map(post, range(8)))
    assert all(r.status_code in (200, 201) for r in replies), [r.text for r in replies]
    statuses = sorted(r.json()["status"] for r in replies)
    assert statuses == ["created"] + ["duplicate"] * 7
    created = next(r.json()["memory"]["key"] for r in replies if r.json()["status"] == "created")
    assert {
        r.json()["duplicate_of"]["key"] for r in replies if r.json()["status"] == "duplicate"
    } == {created}
    assert len(rin.get("/api/memories/rin").json()["memories"]) == 1


@pytest.mark.parametrize(
    ("method", "path", "body", "field", "says"),
    [
        pytest.param(
            "POST",
            "/api/memories/rin",
            {"content": "   "},
            "content",
            "must not be empty or whitespace",
            id="blank-content",
        ),
        pytest.param(
            "POST",
            "/api/memories/rin",
            {"content": "x", "tags": ["a,b"]},
            "tags[0]",
            "without a comma",
            id="tag-with-comma",
        ),
        pytest.param(
            "POST",
            "/api/sessions/rin",
            {"session_id": "a/b"},
            "session_id",
            "1-128 ASCII letters, digits or _ . : @ -",
            id="session-id",
        ),
        pytest.param(
            "POST",
            "/api/blocks/rin",
            {"block_name": "a b", "content": "c"},
            "block_name",
            "1-64 ASCII letters, digits, '_' or '-'",
            id="block-name",
        ),
        # 日本 are letters too: the rule says which letters it means
        pytest.param(
            "POST",
            "/api/blocks/rin",
            {"block_name": "日本", "content": "c"},
            "block_name",
            "1-64 ASCII letters",
            id="block-name-unicode",
        ),
        pytest.param(
            "POST",
            "/api/sessions/rin/s1/events",
            {"events": [{"speaker": "u", "content": "x", "external_id": "a\nb"}]},
            "events[0].external_id",
            "without control characters",
            id="external-id",
        ),
        pytest.param(
            "POST",
            "/api/sessions/rin/s1/events",
            {"events": [{"speaker": "u", "content": "x", "external_id": 1.5}]},
            "events[0].external_id",
            "must be a string or an integer (a whole number, e.g. 5), got 1.5",
            id="external-id-union",
        ),
        pytest.param(
            "GET", "/api/search/rin?q=%20", None, "q", "must not be empty", id="blank-query"
        ),
        pytest.param(
            "GET",
            "/api/user-state/rin/history?key=a%20b",
            None,
            "key",
            "1-64 characters of any script",
            id="state-key-query",
        ),
    ],
)
def test_refusals_state_the_rule_not_the_regex(
    rin: httpx.Client, method: str, path: str, body: Any, field: str, says: str
) -> None:
    """A refused value is named by its path as sent (no pydantic union member such as
    ``external_id.constrained-str``) and the message says what is allowed, instead of
    quoting the regular expression that checks it."""
    assert rin.post("/api/sessions/rin", json={"session_id": "s1"}).status_code == 201
    error = refused(rin.request(method, path, json=body), 422)
    assert error["field"] == field
    assert says in error["message"], error["message"]
    assert "pattern" not in error["message"] and "\\x" not in error["message"]


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"date_range": "z" * 5000}, "date_range"),
        ({"date_range": "2026-01-0" + "1" * 5000}, "date_range"),
        ({"valid_at": "z" * 5000}, "valid_at"),
        ({"valid_at": "2026-02-30" + " " * 4000}, "valid_at"),
    ],
)
def test_a_huge_refused_value_is_echoed_cut(
    rin: httpx.Client, params: dict[str, str], field: str
) -> None:
    """A 5,000-character date range or time came back whole in its refusal (5 KB of message);
    it was then echoed cut to 80 characters, and since session 43 it is refused for its length
    (a date range is at most 100 characters, a time 64), which the message says without it."""
    error = refused(rin.get("/api/search/rin", params={"q": "x", **params}), 422)
    assert error["field"] == field
    limit = MAX_DATE_RANGE_CHARS if field == "date_range" else MAX_TIMESTAMP_CHARS
    assert error["message"].startswith(f"{field} must be at most {limit} characters, got "), error
    assert len(error["message"]) < 200, len(error["message"])


def test_settings_take_iana_zones_only_with_one_message(rin: httpx.Client) -> None:
    """A time zone is an IANA name. The schema used to accept ``localtime`` (the machine's own
    zone) while refusing ``posixrules`` with a message listing 600 zones."""
    assert (
        rin.put("/api/settings/rin", json={"context_include_blocks": True}).json()["overrides"][
            "context_include_blocks"
        ]
        is True
    )
    for zone in ("localtime", "posixrules", "right/UTC", "Mars/Olympus"):
        error = refused(rin.put("/api/settings/rin", json={"timezone": zone}), 422)
        assert "not a known IANA time zone" in error["message"]
        assert len(error["message"]) < 300
    assert rin.put("/api/settings/rin", json={"timezone": "Asia/Tokyo"}).status_code == 200


@pytest.mark.parametrize(
    "content_type",
    ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"],
)
def test_a_body_that_is_not_json_is_told_to_be_json(rin: httpx.Client, content_type: str) -> None:
    reply = rin.post(
        "/api/memories/rin", content=b'{"content": "hello"}', headers={"content-type": content_type}
    )
    error = refused(reply, 422)
    assert "Content-Type: application/json" in error["message"]
    assert rin.get("/api/memories/rin").json()["memories"] == []


def test_head_is_answered_on_every_get_route(server: LiveServer, rin: httpx.Client) -> None:
    """HEAD is GET without the body (uptime checkers use ``HEAD /health``)."""
    health = httpx.head(f"{server.url}/health")
    assert health.status_code == 200 and health.content == b""
    assert int(health.headers["content-length"]) > 0
    assert rin.head("/api/memories/rin").status_code == 200
    assert rin.head("/api/memories/nosuch").status_code == 403
    allow = refused(rin.put("/health"), 405) and rin.put("/health").headers["allow"]
    assert set(allow.split(", ")) == {"GET", "HEAD"}


def test_an_impossible_date_range_does_not_leak_python_errors(rin: httpx.Client) -> None:
    error = refused(
        rin.get("/api/search/rin", params={"q": "x", "date_range": "99999999999 days ago"}), 422
    )
    assert "reaches outside the calendar (years 0001-9999)" in error["message"]
    assert "C int" not in error["message"] and "Python" not in error["message"]


@pytest.mark.parametrize(
    ("kind", "field", "bad"),
    [
        pytest.param("session", "session_id", "talk/1", id="session-id-slash"),
        pytest.param("event", "session_id", "talk 1", id="event-session-id-space"),
        pytest.param("block", "block_name", "my block", id="block-name"),
        pytest.param("state", "key", "first name", id="state-key"),
    ],
)
def test_an_import_refuses_names_the_api_could_not_address(
    server: LiveServer, rin: httpx.Client, kind: str, field: str, bad: str
) -> None:
    """An export edited by hand (or written by another tool) may name a session 'talk/1': it
    used to be imported, and could then never be read, ended or erased through a path."""
    lines = exported_lines(rin, "rin")
    target = next(i for i, r in enumerate(lines) if r["type"] == kind)
    if field == "session_id":  # every record of that session, so only the name is wrong
        for record in lines:
            if record.get("session_id") == "t1":
                record["session_id"] = bad
    lines[target][field] = bad
    server.create_persona("copy")
    with server.admin() as admin:
        error = refused(import_lines(admin, "copy", lines), 422)
        assert error["message"].startswith("line "), error
        assert repr(bad) in error["message"]
        assert admin.get("/api/stats/copy").json()["total"] == 0
        assert admin.get("/api/blocks/copy").json()["blocks"] == []


@pytest.mark.parametrize(
    ("path", "param"),
    [
        pytest.param("/api/memories/rin?kind=fact", "kind", id="list-has-no-kind-filter"),
        pytest.param("/api/search/rin?q=tea&limit=3", "limit", id="search-takes-top_k"),
        pytest.param("/api/context/rin?budget_tokens=10", "budget_tokens", id="context-takes-none"),
    ],
)
def test_an_unknown_query_parameter_is_refused_not_ignored(
    rin: httpx.Client, path: str, param: str
) -> None:
    """``?kind=fact`` on the list used to answer every memory, as if it had filtered."""
    error = refused(rin.get(path), 422)
    assert error["field"] == param
    assert f"unknown query parameter {param!r}" in error["message"]
    assert rin.get("/api/memories/rin?limit=5&offset=0").status_code == 200
    # the wall and the key come first: another persona's path is 403, no key is 401
    assert refused(rin.get(path.replace("/rin", "/kai")), 403)["code"] == "forbidden"
    assert refused(httpx.get(f"{rin.base_url}{path}"), 401)["code"] == "unauthorized"
    assert (
        rin.get("/api/search/rin", params=[("q", "tea"), ("tags", "a"), ("tags", "b")]).status_code
        == 200
    )
