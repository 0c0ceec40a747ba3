"""A body's framing headers, sent byte for byte over a raw socket (httpx would fix them): a
``Content-Length`` larger than the server's body limit gets the 413 in the one error shape
(the client that sent only part of it waited for it until it gave up; one that waits for
``100 Continue`` gets it at once), and a malformed one a 400 that names the header (it
blamed the URL)."""

from __future__ import annotations

import json
import socket
import time
from typing import Any
from urllib.parse import urlsplit

import pytest
from omoide_testing import LiveServer

from omoide.api.http import guard


def _raw_post(
    server: LiveServer, key: str, path: str, head: bytes, body: bytes = b""
) -> tuple[int, dict[str, Any], bytes, float]:
    """POST with ``head`` as its framing headers; the status, JSON body, headers and seconds
    to the answer (the socket is left open: the client has not finished sending)."""
    url = urlsplit(server.url)
    assert url.hostname is not None and url.port is not None
    with socket.create_connection((url.hostname, url.port), timeout=10) as sock:
        started = time.monotonic()
        sock.sendall(
            f"POST {path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {key}\r\n"
            "Content-Type: application/json\r\n".encode()
            + head
            + b"\r\n"
            + body
        )
        reply = b""
        while b"\r\n\r\n" not in reply or not reply.rstrip().endswith(b"}"):
            chunk = sock.recv(65536)
            if not chunk:
                break
            reply += chunk
        took = time.monotonic() - started
    headers, _, payload = reply.partition(b"\r\n\r\n")
    return int(headers.split(b" ")[1]), json.loads(payload), headers.lower(), took


@pytest.mark.parametrize("path", ["/api/memories/rin", "/mcp", "/api/import/rin"])
def test_a_declared_length_over_the_limit_is_a_413_even_when_the_body_stops_short(
    server: LiveServer, path: str
) -> None:
    key = server.create_persona("rin")
    status, body, headers, took = _raw_post(
        server, key, path, b"Content-Length: 1000000000000\r\n", b'{"content": "tea"}'
    )
    assert status == 413, body
    # /mcp answers in JSON-RPC (its client reads that), with the API's code in error.data
    code = body["error"]["data"]["code"] if path == "/mcp" else body["error"]["code"]
    assert code == "payload_too_large"
    assert "larger than" in body["error"]["message"]
    assert b"connection: close" in headers
    assert took < 8, took  # a second of silence ends the drain


def test_a_client_waiting_for_100_continue_is_answered_at_once(
    server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a drain of the body it never sends would end only after this silence (the socket's
    # timeout, 10 s, first): "at once" is then any time well short of it, however loaded
    monkeypatch.setattr(guard, "DRAIN_SILENCE_S", 30.0)
    key = server.create_persona("rin")
    status, body, headers, took = _raw_post(
        server, key, "/api/memories/rin", b"Content-Length: 5000000\r\nExpect: 100-continue\r\n"
    )
    assert status == 413 and body["error"]["code"] == "payload_too_large", body
    assert b"100 continue" not in headers and took < 8, (headers, took)


@pytest.mark.parametrize(
    ("value", "words"),
    [
        (b"-5", "Content-Length header must be the body's size in bytes"),
        (b"abc", "Content-Length header must be the body's size in bytes"),
        (b"99999999999999999999999999", "at most 20"),
        (b"5, 6", "Content-Length twice with different values"),
    ],
)
def test_a_malformed_content_length_is_a_400_naming_it(
    server: LiveServer, value: bytes, words: str
) -> None:
    key = server.create_persona("rin")
    status, body, _, _ = _raw_post(
        server, key, "/api/memories/rin", b"Content-Length: " + value + b"\r\n", b'{"content": "x"}'
    )
    assert status == 400 and body["error"]["code"] == "bad_request", body
    assert words in body["error"]["message"] and "URL" not in body["error"]["message"], body
    assert server.omoide.memories.list_recent("rin") == []


@pytest.mark.parametrize(
    ("request_bytes", "words"),
    [
        (b"GET /health HTTP/1.1\r\n\r\n", "sends a Host header (this one sent none)"),
        (b"GET /health HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", "Host header twice"),
        (
            b"POST /api/memories/rin HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n"
            b"Content-Type: application/json\r\n\r\nzz\r\n{}\r\n0\r\n\r\n",
            "chunked body is malformed",
        ),
        (
            b"POST /api/memories/rin HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n",
            "Transfer-Encoding must be chunked",
        ),
    ],
)
def test_a_malformed_request_is_a_400_saying_what_is_wrong(
    server: LiveServer, request_bytes: bytes, words: str
) -> None:
    """These were answered "… a URL must be ASCII: percent-encode …" about a URL that was
    fine."""
    url = urlsplit(server.url)
    assert url.hostname is not None and url.port is not None
    with socket.create_connection((url.hostname, url.port), timeout=10) as sock:
        sock.sendall(request_bytes)
        reply = b""
        while chunk := sock.recv(65536):
            reply += chunk
    head, _, body = reply.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 400"), reply[:300]
    if b"transfer-encoding: chunked" in head.lower():  # the 400 sent while a body was read
        body = body.split(b"\r\n", 1)[1].rsplit(b"\r\n0\r\n", 1)[0]
    error = json.loads(body)["error"]
    assert error["code"] == "bad_request" and words in error["message"], error
    assert "URL" not in error["message"]
