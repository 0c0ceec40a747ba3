"""A JSON-RPC message the SDK refuses is told in words that name the field: an envelope that
is wrong (an array, no ``"jsonrpc": "2.0"``, a method that is not a string, params that are
not an object, a boolean id) was pydantic's report of four union members with docs URLs, and a
method's params that fail its schema (``tools/call`` without ``name``, ``arguments`` not an
object, ``initialize`` without its fields) a bare "Invalid request parameters". Raw HTTP (the
SDK's client cannot send such messages) and the SDK's client for a well-formed call after."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import anyio
import httpx
import pytest
from mcp_checks import INITIALIZE, http_client, ok, raw_initialized
from omoide_testing import LiveServer

HEADERS = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}


@contextmanager
def _opened(server: LiveServer, key: str) -> Iterator[httpx.Client]:
    """A raw HTTP client of an initialized MCP session."""
    with httpx.Client(
        base_url=server.url, timeout=30, headers={**HEADERS, "Authorization": f"Bearer {key}"}
    ) as http:
        yield raw_initialized(http)


def _error(reply: httpx.Response) -> dict[str, Any]:
    """The JSON-RPC error of a reply sent as JSON or as one server-sent event."""
    text = reply.text
    if reply.headers.get("content-type", "").startswith("text/event-stream"):
        text = next(line[5:] for line in text.splitlines() if line.startswith("data:"))
    body = json.loads(text)
    assert "error" in body, body
    return dict(body["error"])


@pytest.mark.parametrize(
    ("body", "code", "words", "answer_id"),
    [
        (b"[]", -32600, "a JSON array (a batch) is not accepted", None),
        (b'"x"', -32600, "a JSON-RPC message is a JSON object", None),
        (b'{"jsonrpc": "2.0"}', -32600, "'method' is missing", None),
        (b'{"id": 7, "method": "tools/list"}', -32600, "'jsonrpc' must be \"2.0\" (missing)", 7),
        (
            b'{"jsonrpc": "1.0", "id": 7, "method": "tools/list"}',
            -32600,
            '\'jsonrpc\' must be "2.0" (got "1.0")',
            7,
        ),
        (b'{"jsonrpc": "2.0", "id": 7, "method": 5}', -32600, "'method' must be a string", 7),
        (
            b'{"jsonrpc": "2.0", "id": true, "method": "tools/list"}',
            -32600,
            "'id' must be a string or an integer (got true)",
            None,
        ),
        (
            b'{"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": "x"}',
            -32602,
            "'params' must be an object",
            7,
        ),
    ],
)
def test_a_wrong_envelope_is_a_clear_protocol_error(
    server: LiveServer, body: bytes, code: int, words: str, answer_id: Any
) -> None:
    with _opened(server, server.create_persona("rin")) as http:
        reply = http.post("/mcp", content=body)
        assert reply.status_code == 400, reply.text
        answer = reply.json()
        assert answer["id"] == answer_id
        assert answer["error"]["code"] == code and words in answer["error"]["message"], answer
        assert "pydantic" not in reply.text and "union[" not in reply.text


@pytest.mark.sqlite_only
@pytest.mark.parametrize(
    ("body", "words"),
    [
        (b"", "the text is empty (line 1, column 1)"),
        (b"{", "the text ends before the JSON value is complete (line 1, column 2)"),
        (
            b'{"jsonrpc": "2.0", "id": 1, "method": "ping"}{',
            "more text follows the end of the JSON value (line 1, column 46)",
        ),
        (
            b"{'jsonrpc': '2.0'}",
            "a key in single quotes; JSON writes keys and strings in double "
            "quotes (line 1, column 2)",
        ),
        (b'{"jsonrpc": "2.0", "id": 1, "method": "ping",}', "a comma before '}'"),
    ],
)
def test_a_body_that_is_not_json_is_a_parse_error_in_the_apis_words(
    server: LiveServer, body: bytes, words: str
) -> None:
    """Session 30: the SDK's parse error was serde's ("EOF while parsing an object at line 1
    column 1", "trailing characters", "column 0" for an empty body)."""
    with _opened(server, server.create_persona("rin")) as http:
        reply = http.post("/mcp", content=body)
        assert reply.status_code == 400, reply.text
        answer = reply.json()
        assert answer["id"] is None and answer["error"]["code"] == -32700, answer
        assert answer["error"]["message"].startswith(f"Parse error: not valid JSON: {words}"), (
            answer
        )
        assert "EOF" not in reply.text and "trailing" not in reply.text
        assert (
            http.post("/mcp", content=b'{"jsonrpc": "2.0", "id": 2, "method": "ping"}').status_code
            == 200
        )  # the session serves on


@pytest.mark.parametrize(
    ("params", "words"),
    [
        (
            {"name": "memory_create", "arguments": "tea"},
            "invalid params of tools/call: 'params.arguments' must be an object ({…}) (got a "
            "string)",
        ),
        (
            {"arguments": {"content": "tea"}},
            "invalid params of tools/call: 'params.name' is required",
        ),
        ({"name": 5}, "'params.name' must be a string (got 5)"),
    ],
)
def test_params_that_fail_the_methods_schema_name_the_field(
    server: LiveServer, params: dict[str, Any], words: str
) -> None:
    key = server.create_persona("rin")
    with _opened(server, key) as http:
        reply = http.post(
            "/mcp", json={"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": params}
        )
        error = _error(reply)
        assert error["code"] == -32602 and words in error["message"], error
    assert server.omoide.memories.list_recent("rin") == []

    async def still_serves() -> None:  # the SDK's client, after: the server answers as ever
        async with http_client(server.url, key) as client:
            await ok(client, "memory_create", content="Ken drinks green tea.")

    anyio.run(still_serves)


def test_an_initialize_without_its_fields_names_them(server: LiveServer) -> None:
    key = server.create_persona("rin")
    with httpx.Client(
        base_url=server.url, timeout=30, headers={**HEADERS, "Authorization": f"Bearer {key}"}
    ) as http:
        reply = http.post(
            "/mcp", json={"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}}
        )
        error = _error(reply)
        assert error["code"] == -32602, error
        for name in ("params.protocolVersion", "params.capabilities", "params.clientInfo"):
            assert f"'{name}' is required" in error["message"], error


@pytest.mark.parametrize(
    ("headers", "status", "words"),
    [
        (
            {"Content-Type": "text/plain"},
            400,
            'a POST to /mcp is sent with Content-Type: application/json (got "text/plain")',
        ),
        ({"Host": "evil.example"}, 421, "the Host header 'evil.example' is not one this server"),
        ({"Origin": "http://evil.example"}, 403, "a page from 'http://evil.example' may not call"),
    ],
)
def test_the_sdks_plain_text_refusals_are_json_rpc_errors_that_say_what_to_send(
    server: LiveServer, headers: dict[str, str], status: int, words: str
) -> None:
    """The SDK answered these with bare text ("Invalid Content-Type header"): now the JSON-RPC
    error its other refusals are, with the same status. A wrong content type is said before
    the envelope (which is not read as JSON then)."""
    key = server.create_persona("rin")
    with httpx.Client(
        base_url=server.url, timeout=30, headers={**HEADERS, "Authorization": f"Bearer {key}"}
    ) as http:
        reply = http.post(
            "/mcp",
            headers=headers,
            content=json.dumps(INITIALIZE),
        )
        assert reply.status_code == status, reply.text
        assert reply.headers["content-type"].startswith("application/json")
        error = reply.json()["error"]
        assert error["code"] == -32600 and words in error["message"], error
