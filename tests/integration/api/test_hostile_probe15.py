"""Found by hand in session 14's hardening probe, through real HTTP on both stores."""

from __future__ import annotations

import json
import select
import socket
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
from omoide_testing import LiveServer


@pytest.fixture
def rin(server: LiveServer) -> Iterator[httpx.Client]:
    key = server.create_persona("rin")
    with server.client(key) as client:
        assert (
            client.post(
                "/api/memories/rin", json={"content": "Ken moved to 大阪 last spring."}
            ).status_code
            == 201
        )
        client.headers["X-Test-Key"] = key
        yield client


def _raw_get(server: LiveServer, key: str, target: bytes) -> tuple[int, dict[str, Any]]:
    """GET ``target`` sent byte for byte (curl sends ``?q=大阪`` so; httpx would encode it)."""
    url = urlsplit(server.url)
    with socket.create_connection((url.hostname, url.port), timeout=10) as sock:
        sock.sendall(
            b"GET "
            + target
            + b" HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "
            + key.encode()
            + b"\r\nConnection: close\r\n\r\n"
        )
        reply = b""
        while chunk := sock.recv(65536):
            reply += chunk
    head, _, body = reply.partition(b"\r\n\r\n")
    assert b"content-type: application/json" in head.lower(), reply[:300]
    return int(head.split(b" ")[1]), json.loads(body)


def test_a_raw_utf8_query_reads_as_the_percent_encoded_one(
    server: LiveServer, rin: httpx.Client
) -> None:
    """``?q=大阪`` sent raw was refused by the HTTP layer with a plain-text 400 ("Invalid HTTP
    request received."), while ``?q=%E5%A4%A7%E9%98%AA`` found the memory: one query, two
    answers. Both now read 大阪."""
    key = rin.headers["X-Test-Key"]
    encoded = _raw_get(server, key, b"/api/search/rin?q=%E5%A4%A7%E9%98%AA&top_k=5")
    raw = _raw_get(server, key, "/api/search/rin?q=大阪&top_k=5".encode())
    assert encoded[0] == raw[0] == 200, (encoded, raw)
    assert raw[1]["query"] == encoded[1]["query"] == "大阪"
    assert [r["key"] for r in raw[1]["results"]] == [r["key"] for r in encoded[1]["results"]]
    assert raw[1]["results"], raw
    # decomposed (e + U+0301) sent raw is read in NFC, as its percent-encoded form is
    assert _raw_get(server, key, "/api/search/rin?q=cafe\u0301".encode())[1]["query"] == "café"


@pytest.mark.parametrize(
    "target",
    [
        b"/api/search/rin?q=\xff\xfe",
        b"/api/search/rin?q=%FF%FE",
        b"/api/search/rin?limit=5&q=%ED%A0%80",
    ],
)
def test_a_query_value_that_is_not_utf8_is_refused_naming_it(
    server: LiveServer, rin: httpx.Client, target: bytes
) -> None:
    status, body = _raw_get(server, rin.headers["X-Test-Key"], target)
    assert status == 422, body
    assert body["error"]["code"] == "invalid_input" and body["error"]["field"] == "q", body
    assert "'q'" in body["error"]["message"] and "UTF-8" in body["error"]["message"], body


def test_a_request_line_http_cannot_read_is_answered_in_the_error_shape(
    server: LiveServer, rin: httpx.Client
) -> None:
    """A malformed request line got uvicorn's plain-text 400; it is the API's error shape."""
    status, body = _raw_get(server, rin.headers["X-Test-Key"], b"/api/search/rin?q=a b")
    assert status == 400 and body["error"]["code"] == "bad_request", body
    assert "percent-encode" in body["error"]["message"], body


@pytest.mark.parametrize(
    ("line", "headers", "status", "code"),
    [
        (b"/api/search/rin?q=" + b"a" * 40_000, b"", 414, "uri_too_long"),
        (
            b"/api/search/rin?q=tea",
            b"".join(b"X-%d: %s\r\n" % (i, b"y" * 100) for i in range(400)),
            431,
            "headers_too_large",
        ),
    ],
)
def test_a_request_too_long_to_read_says_so(
    server: LiveServer, rin: httpx.Client, line: bytes, headers: bytes, status: int, code: str
) -> None:
    """Session 25's probe: a 300,000-character URL (ASCII) was answered "malformed … a URL
    must be ASCII"; it is a 414 (headers: 431) saying what is too long."""
    url = urlsplit(server.url)
    data = b"GET " + line + b" HTTP/1.1\r\nHost: x\r\n" + headers + b"\r\n"
    with socket.create_connection((url.hostname, url.port), timeout=10) as sock:
        for start in range(0, len(data), 4096):  # several reads, as a slow client sends
            sock.sendall(data[start : start + 4096])
            if select.select([sock], [], [], 0.1)[0]:
                break  # answered: what is left would not be read
        reply = b""
        while chunk := sock.recv(65536):
            reply += chunk
    head, _, body = reply.partition(b"\r\n\r\n")
    assert int(head.split(b" ")[1]) == status, reply[:300]
    assert json.loads(body)["error"]["code"] == code


_HEADER = json.dumps(
    {
        "type": "header",
        "format": "omoide-export",
        "version": 1,
        "persona": "x",
        "embedder": {"model_id": "hash", "dim": 256},
        "exported_at": "2026-11-30T09:00:00+00:00",
        "with_vectors": False,
    }
)


@pytest.mark.parametrize(
    ("source", "body", "says"),
    [
        (None, _HEADER + "\n" + "[" * 5000 + "]" * 5000, "nested too deeply"),
        (None, _HEADER + "\n" + "[" * 900 + "]" * 900, "nested deeper than 64"),
        (None, _HEADER + '\n{"type": "end", "records": 1' + "0" * 5000 + "}", "outside ±"),
        ("mcp-memory", "[" * 5000 + "]" * 5000, "nested too deeply"),
        ("mcp-memory", "[" * 900 + "]" * 900, "nested deeper than 64"),
        (
            "mcp-memory",
            '{"type": "entity", "name": "a", "entityType": "p", "observations": [1'
            + "0" * 5000
            + "]}",
            "outside ±",
        ),
        (None, _HEADER + '\n{"type": "end", "records": 1, "records": 2}', "'records' twice"),
        (None, _HEADER + '\n{"type": "end", "records": NaN}', "NaN is not a number"),
        (
            "mcp-memory",
            '{"type": "entity", "name": "a", "name": "b", "entityType": "p", "observations": []}',
            "'name' twice",
        ),
    ],
)
def test_an_import_line_nested_deeply_or_with_a_huge_integer_is_a_422(
    rin: httpx.Client, source: str | None, body: str, says: str
) -> None:
    """A line of an Omoide export or an MCP memory file nested 5,000 levels deep was a 500
    (RecursionError), and an integer of 5,000 digits in an export line a 500 too (the reader
    read ``exc.msg`` of a ValueError that has none); the MCP memory file's message advised
    ``sys.set_int_max_str_digits()``. An import line is read by the same strict reader as a
    request body: a key named twice (the last value won silently) or NaN is refused too."""
    reply = rin.post(
        "/api/import/rin",
        params={"source": source} if source else None,
        content=body.encode(),
        headers={"content-type": "application/x-ndjson"},
    )
    assert reply.status_code == 422, reply.text[:300]
    message = reply.json()["error"]["message"]
    assert says in message and "set_int_max_str_digits" not in message, message
