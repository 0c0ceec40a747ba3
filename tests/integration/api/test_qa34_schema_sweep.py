"""Session 34's hostile-input sweep, driven by the served OpenAPI document over real HTTP: every
operation's query parameters and every top-level field of every JSON request body get values
of the wrong type, out-of-range and non-finite numbers, bad Unicode (a lone surrogate, NUL),
overlong text and deep nesting; every query parameter is also sent twice. No answer is a 5xx,
and every refusal has the API's one error shape. (The chat proxy's fields with an upstream
are swept in test_qa34_chat_fields.py; destructive routes are left out here.)"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from omoide_testing import LiveServer

pytestmark = pytest.mark.sqlite_only

JSON_VALUES = [
    '"\\ud800"',
    '"a\\u0000b"',
    "NaN",
    "-Infinity",
    "1e999",
    "9" * 4400,
    str(2**63),
    "-1",
    "1.5",
    "true",
    "null",
    "[]",
    "{}",
    '"' + "x" * 60_000 + '"',
    "[" * 300 + "]" * 300,
    '{"a":' * 30 + "1" + "}" * 30,
]
QUERY_VALUES = [
    "",
    " ",
    "\x00",
    "NaN",
    "inf",
    "-1",
    "9" * 5000,
    "1e999",
    "1_0",
    "\u202e",
    "x" * 5000,
]


@pytest.fixture
def world(server: LiveServer) -> Iterator[tuple[httpx.Client, dict[str, Any], dict[str, str]]]:
    """Persona rin with a memory, a session and a block; the admin client; the document."""
    server.create_persona("rin")
    with server.admin() as admin:
        made = admin.post("/api/memories/rin", json={"content": "Ken drinks green tea"})
        assert admin.post("/api/sessions/rin", json={"session_id": "s1"}).status_code == 201
        made_block = admin.post("/api/blocks/rin", json={"block_name": "b1", "content": "hi"})
        assert made_block.status_code in (200, 201), made_block.text
        names = {
            "persona": "rin",
            "name": "rin",
            "key": made.json()["memory"]["key"],
            "session_id": "s1",
            "block_name": "b1",
            "key_id": "k",
        }
        yield admin, admin.get("/openapi.json").json(), names


def _operations(document: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (method.upper(), path, op)
        for path, ops in document["paths"].items()
        for method, op in ops.items()
        if method.upper() != "DELETE" and path != "/api/import/{persona}"
    ]


def _path(path: str, names: dict[str, str]) -> str:
    for name, value in names.items():
        path = path.replace("{" + name + "}", quote(value, safe=""))
    return path


def _body_fields(document: dict[str, Any], op: dict[str, Any]) -> list[str]:
    schema = op.get("requestBody", {}).get("content", {}).get("application/json", {})
    schema = schema.get("schema", {})
    for branch in schema.get("anyOf", []):
        if "$ref" in branch:
            schema = branch
    if "$ref" in schema:
        schema = document["components"]["schemas"][schema["$ref"].rsplit("/", 1)[-1]]
    return list(schema.get("properties", {})) or ["x"]


def _sound(reply: httpx.Response, what: str) -> None:
    assert reply.status_code < 500 or reply.status_code == 503, (what, reply.text[:300])
    if reply.status_code >= 400:
        error = reply.json()["error"]
        assert error["code"] and error["message"], what
        assert "Traceback" not in reply.text, what


def test_every_body_field_takes_hostile_json_without_a_5xx(
    world: tuple[httpx.Client, dict[str, Any], dict[str, str]],
) -> None:
    admin, document, names = world
    headers = {"content-type": "application/json", "X-Omoide-Persona": "rin"}
    swept = 0
    for method, path, op in _operations(document):
        if "requestBody" not in op:
            continue
        for field in _body_fields(document, op):
            for value in JSON_VALUES:
                body = f'{{"{field}": {value}}}'
                reply = admin.request(
                    method, _path(path, names), content=body.encode(), headers=headers
                )
                _sound(reply, f"{method} {path} {field}={value[:20]}")
                swept += 1
    assert swept > 500


def test_every_query_parameter_takes_hostile_text_and_repeats_without_a_5xx(
    world: tuple[httpx.Client, dict[str, Any], dict[str, str]],
) -> None:
    admin, document, names = world
    swept = 0
    for method, path, op in _operations(document):
        query = [p["name"] for p in op.get("parameters", []) if p["in"] == "query"]
        base = {"q": "tea"} if "q" in query else {"key": "name"} if "key" in query else {}
        for name in query:
            if name == "timeout":  # a wait: its bounds are swept by test_hostile_input
                continue
            for value in [*QUERY_VALUES, None]:
                params = [*base.items(), (name, "1"), (name, "2")] if value is None else None
                reply = admin.request(
                    method,
                    _path(path, names),
                    params=params or {**base, name: value},
                    headers={"X-Omoide-Persona": "rin"},
                )
                _sound(reply, f"{method} {path} {name}={(value or 'twice')[:20]!r}")
                swept += 1
    assert swept > 200
