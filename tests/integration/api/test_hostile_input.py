"""Hostile input against the live server (issue 13): every class of input that used to give a
500, or to be stored when it should not, now gets a 4xx with the one error shape, and nothing
is written (every table keeps its row count).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from omoide_testing import LiveServer, refused

# The refusals happen at the HTTP boundary, before any store is reached; "nothing was written"
# is checked by counting the rows of the SQLite file, so this module runs on SQLite only.
pytestmark = pytest.mark.sqlite_only

JSON = {"content-type": "application/json"}
BODY_ENDPOINTS = [  # (method, path, a valid body as JSON text with {} where a value goes)
    ("POST", "/api/personas", '{"name": "neo", "x": {}}'),
    ("POST", "/api/memories/rin", '{"content": "hello", "metadata": {"x": {}}}'),
    ("PATCH", "/api/memories/rin/KEY", '{"metadata": {"x": {}}}'),
    ("PUT", "/api/user-state/rin", '{"name": {}}'),
    ("PUT", "/api/persona-state/rin", '{"mood": {}}'),
    ("POST", "/api/blocks/rin", '{"block_name": "b", "content": "c", "metadata": {"x": {}}}'),
    ("PUT", "/api/context/rin", '{"user_info": {"name": {}}}'),
    ("PUT", "/api/settings/rin", '{"importance_weight": {}}'),
    ("POST", "/api/sessions/rin", '{"session_id": {}}'),
    (
        "POST",
        "/api/sessions/rin/s1/events",
        '{"events": [{"speaker": "u", "content": "hi", "metadata": {"x": {}}}]}',
    ),
]
HOSTILE_VALUES = [
    pytest.param('"\\ud800"', id="lone-surrogate"),
    pytest.param('"a\\udfffb"', id="lone-low-surrogate"),
    pytest.param("NaN", id="nan"),
    pytest.param("Infinity", id="infinity"),
    pytest.param("-Infinity", id="minus-infinity"),
    pytest.param("1e999", id="overflowing-float"),
    pytest.param("9" * 4301, id="int-4301-digits"),
    pytest.param(str(2**63), id="int-2^63"),
    pytest.param("[" * 100_000 + "]" * 100_000, id="nested-100k"),
    pytest.param('{"a":' * 40 + "1" + "}" * 40, id="nested-40"),
]


def table_counts(server: LiveServer) -> dict[str, int]:
    """Rows per table of the live database (read through a separate connection)."""
    path = server.omoide.settings.db_path
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as conn:
        names = [
            r[0]
            for r in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            )
        ]
        return {
            name: conn.execute(f'SELECT COUNT(*) FROM "{name}"').fetchone()[0] for name in names
        }


@pytest.fixture
def world(server: LiveServer) -> Iterator[tuple[httpx.Client, str]]:
    """Persona rin with one memory and one open session ``s1``; the admin client."""
    server.create_persona("rin")
    with server.admin() as admin:
        key = admin.post("/api/memories/rin", json={"content": "seed memory"}).json()["memory"][
            "key"
        ]
        assert admin.post("/api/sessions/rin", json={"session_id": "s1"}).status_code == 201
        yield admin, key


@pytest.mark.parametrize("value", HOSTILE_VALUES)
def test_hostile_json_values_are_refused_on_every_body_endpoint(
    world: tuple[httpx.Client, str], server: LiveServer, value: str
) -> None:
    admin, key = world
    before = table_counts(server)
    for method, path, template in BODY_ENDPOINTS:
        body = template.replace("{}", value, 1) if "{}" in template else template
        reply = admin.request(method, path.replace("KEY", key), content=body.encode(), headers=JSON)
        refused(reply, 400, 413, 422)
    assert table_counts(server) == before


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        pytest.param(
            "POST",
            "/api/sessions/rin/s1/events",
            {
                "events": [
                    {"speaker": "u", "content": "hi", "timestamp": "9999-12-31T23:59:59-14:00"}
                ]
            },
            id="event-ts-max",
        ),
        pytest.param(
            "POST",
            "/api/sessions/rin",
            {"started_at": "9999-12-31T23:59:59-14:00"},
            id="started-at-max",
        ),
        pytest.param(
            "POST",
            "/api/sessions/rin",
            {"started_at": "0001-01-01T00:00:00+14:00"},
            id="started-at-min",
        ),
        pytest.param(
            "POST",
            "/api/memories/rin",
            {"content": "x", "valid_until": "9999-12-31T23:59:59-14:00"},
            id="valid-until",
        ),
        pytest.param(
            "POST",
            "/api/memories/rin",
            {"content": "x", "valid_from": "1899-12-31"},
            id="valid-from-1899",
        ),
        pytest.param(
            "POST",
            "/api/memories/rin",
            {"content": "x", "valid_from": "1900-01-01T00:00:00+01:00"},
            id="valid-from-1899-in-utc",
        ),
        pytest.param(
            "POST",
            "/api/memories/rin",
            {"content": "x", "valid_from": "2026-02-30"},
            id="no-such-day",
        ),
        pytest.param(
            "POST",
            "/api/memories/rin",
            {"content": "x", "valid_from": "2026-03-01T25:00"},
            id="no-such-hour",
        ),
    ],
)
def test_timestamps_out_of_range_are_refused(
    world: tuple[httpx.Client, str],
    server: LiveServer,
    method: str,
    path: str,
    body: dict[str, Any],
) -> None:
    admin, _ = world
    before = table_counts(server)
    error = refused(admin.request(method, path, json=body), 422)
    assert error["code"] == "invalid_input"
    assert table_counts(server) == before


@pytest.mark.parametrize(
    "params",
    [
        pytest.param({"q": "x", "valid_at": "9999-12-31T23:59:59-14:00"}, id="valid-at"),
        pytest.param({"q": "x", "valid_at": "0001-01-01T00:00:00+14:00"}, id="valid-at-min"),
        pytest.param({"q": "x", "top_k": str(2**64)}, id="top-k-huge"),
        pytest.param({"q": "x", "min_importance": "nan"}, id="nan-query"),
        pytest.param({"q": "x", "importance_weight": "inf"}, id="inf-query"),
        pytest.param({"q": "x", "mode": "fuzzy"}, id="unknown-mode"),
        pytest.param({"q": "x", "kind": "secret"}, id="unknown-kind"),
        pytest.param({"q": " \u3000"}, id="blank-query"),
    ],
)
def test_search_parameters_are_bounded(
    world: tuple[httpx.Client, str], params: dict[str, str]
) -> None:
    admin, _ = world
    refused(admin.get("/api/search/rin", params=params), 422)


def test_other_query_bounds(world: tuple[httpx.Client, str], server: LiveServer) -> None:
    admin, _ = world
    refused(admin.get("/api/memories/rin", params={"offset": str(2**63)}), 422)
    refused(admin.get("/api/memories/rin", params={"limit": "0"}), 422)
    refused(
        admin.get(
            "/api/user-state/rin/history", params={"key": "name", "at": "9999-12-31T23:59:59-14:00"}
        ),
        422,
    )
    refused(admin.get("/api/jobs/rin/wait", params={"timeout": "nan"}), 422)
    # percent-escapes that are not UTF-8 (a lone surrogate as bytes) are refused, not replaced
    refused(admin.get(server.url + "/api/search/rin?q=%ED%A0%80"), 422)


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        pytest.param("POST", "/api/personas", {"name": "ab\n"}, id="persona-trailing-newline"),
        pytest.param("POST", "/api/personas", {"name": "a" * 65}, id="persona-too-long"),
        pytest.param("POST", "/api/sessions/rin", {"session_id": "a/b"}, id="session-slash"),
        pytest.param("POST", "/api/sessions/rin", {"session_id": "../../x"}, id="session-dots"),
        pytest.param("POST", "/api/sessions/rin", {"session_id": "s\n"}, id="session-newline"),
        pytest.param("PUT", "/api/user-state/rin", {"name\n": "x"}, id="state-key-newline"),
        pytest.param(
            "PUT",
            "/api/persona-state/rin",
            {"emotion_intensity": "1.5"},
            id="intensity-out-of-range",
        ),
        pytest.param(
            "POST",
            "/api/blocks/rin",
            {"block_name": "b\n", "content": "x"},
            id="block-name-newline",
        ),
        pytest.param(
            "POST",
            "/api/blocks/rin",
            {"block_name": "b", "content": "x", "block_type": "weird"},
            id="unknown-block-type",
        ),
        pytest.param(
            "POST", "/api/memories/rin", {"content": "x", "kind": "secret"}, id="unknown-kind"
        ),
        pytest.param(
            "POST", "/api/memories/rin", {"content": "x", "tags": ["a,b"]}, id="tag-with-comma"
        ),
        pytest.param(
            "POST", "/api/memories/rin", {"content": "x", "tags": ["x" * 65]}, id="tag-too-long"
        ),
        pytest.param(
            "POST",
            "/api/sessions/rin/s1/events",
            {"events": [{"speaker": "u", "content": "hi", "role": "god"}]},
            id="unknown-role",
        ),
        pytest.param(
            "POST",
            "/api/sessions/rin/s1/events",
            {"events": [{"speaker": "u", "content": "hi", "external_id": "a\nb"}]},
            id="external-id-control-char",
        ),
        pytest.param(
            "POST",
            "/api/sessions/rin/s1/events",
            {"events": [{"speaker": "u", "content": "hi", "external_id": ""}]},
            id="external-id-empty",
        ),
        pytest.param(
            "POST",
            "/api/sessions/rin/s1/events",
            {"events": [{"speaker": "u", "content": f"t{i}"} for i in range(1001)]},
            id="events-over-1000",
        ),
        pytest.param(
            "POST",
            "/api/memories/rin",
            {"content": "x", "metadata": {"blob": "y" * 10_001}},
            id="metadata-too-large",
        ),
        pytest.param(
            "POST",
            "/api/memories/rin",
            {
                "content": "x",
                "metadata": {"a": {"b": {"c": {"d": {"e": {"f": {"g": {"h": {"i": 1}}}}}}}}},
            },
            id="metadata-too-deep",
        ),
        pytest.param(
            "POST",
            "/api/blocks/rin",
            {"block_name": "b", "content": "x", "metadata": {"blob": "y" * 10_001}},
            id="block-metadata-too-large",
        ),
        pytest.param(
            "PUT", "/api/settings/rin", {"importance_weight": 1e308}, id="setting-out-of-range"
        ),
        pytest.param(
            "PUT", "/api/settings/rin", {"context_include_blocks": "yes"}, id="setting-wrong-type"
        ),
    ],
)
def test_names_ids_and_enumerations_are_checked(
    world: tuple[httpx.Client, str], server: LiveServer, method: str, path: str, body: Any
) -> None:
    admin, _ = world
    before = table_counts(server)
    refused(admin.request(method, path, json=body), 422)
    assert table_counts(server) == before


def test_session_ids_in_the_path_are_checked(world: tuple[httpx.Client, str]) -> None:
    admin, _ = world
    refused(
        admin.post(
            "/api/sessions/rin/a%20b/events", json={"events": [{"speaker": "u", "content": "hi"}]}
        ),
        422,
    )
    refused(admin.get("/api/sessions/rin/" + "s" * 129 + "/episodes"), 422)


def test_bodies_over_the_limit_are_413_chunked_or_not(
    world: tuple[httpx.Client, str], server: LiveServer
) -> None:
    admin, _ = world
    before = table_counts(server)
    limit = server.omoide.settings.max_body_bytes

    def chunks(total: int) -> Iterator[bytes]:
        yield b'{"content": "x", "metadata": {"blob": "'
        for _ in range(total // 65_536):
            yield b"y" * 65_536
        yield b'"}}'

    chunked = admin.post("/api/memories/rin", content=chunks(5 * limit), headers=JSON)
    assert refused(chunked, 413)["code"] == "payload_too_large"
    plain = admin.post("/api/memories/rin", content=b" " * (30 * limit), headers=JSON)
    assert refused(plain, 413)["code"] == "payload_too_large"
    event = admin.post("/api/sessions/rin/s1/events", content=chunks(5 * limit), headers=JSON)
    refused(event, 413)
    assert table_counts(server) == before
    # just under the limit is read and judged on its content
    fits = admin.post(
        "/api/memories/rin", content=b" " * (limit - 100) + b'{"content": "ok"}', headers=JSON
    )
    assert fits.status_code == 201


def test_undeclared_methods_answer_405_with_allow(world: tuple[httpx.Client, str]) -> None:
    admin, _ = world
    for method, path, allowed in [
        ("PUT", "/health", "GET"),
        ("DELETE", "/api/blocks/rin", "GET, POST"),
        ("PATCH", "/api/personas", "GET, POST"),
        ("TRACE", "/api/memories/rin", "GET, POST"),
    ]:
        reply = admin.request(method, path)
        assert refused(reply, 405)["code"] == "method_not_allowed"
        assert set(reply.headers["allow"].split(", ")) >= set(allowed.split(", "))


def test_a_stored_nan_setting_no_longer_breaks_search(
    world: tuple[httpx.Client, str], server: LiveServer
) -> None:
    """A NaN stored before NaN was refused falls back to the default."""
    admin, _ = world
    server.omoide.store.update_persona_settings("rin", {"importance_weight": float("nan")})
    reply = admin.get("/api/search/rin", params={"q": "seed"})
    assert reply.status_code == 200
    assert reply.json()["results"][0]["content"] == "seed memory"
