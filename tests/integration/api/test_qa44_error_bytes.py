"""One serialisation of the one error body: the refusals written before routing (the body
guard's ASGI layer, the HTTP protocol's own 400/414/431) are the same compact JSON bytes as a
route's, ``{"error":{"code":…}}``, not ``{"error": {"code": …}}``."""

from __future__ import annotations

import json
import socket
from urllib.parse import urlsplit

import httpx
import pytest
from omoide_testing import LiveServer


def _compact(body: bytes) -> bytes:
    """``body`` as a route writes it (Starlette's JSONResponse)."""
    value = json.loads(body)
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


@pytest.mark.parametrize(
    ("path", "status"),
    [
        pytest.param("/api/memories/rin/mem_nothing", 404, id="route"),
        pytest.param("/api/memories/rin/mem_%00", 422, id="guard-nul-path"),
        pytest.param("/api/search/rin?q=tea%00", 422, id="guard-nul-query"),
    ],
)
def test_an_error_body_is_compact_json_before_and_after_routing(
    rin: httpx.Client, path: str, status: int
) -> None:
    reply = rin.get(path)
    assert reply.status_code == status, reply.text
    assert reply.content == _compact(reply.content)
    assert reply.headers["content-length"] == str(len(reply.content))


def _raw(server: LiveServer, request: bytes) -> tuple[bytes, bytes]:
    where = urlsplit(server.url)
    with socket.create_connection((where.hostname, where.port), timeout=10) as sock:
        sock.sendall(request)
        reply = b""
        while chunk := sock.recv(65536):
            reply += chunk
    head, _, body = reply.partition(b"\r\n\r\n")
    return head, body


def test_a_malformed_request_is_refused_in_the_same_compact_json(server: LiveServer) -> None:
    head, body = _raw(server, b"GET /api/health HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 400"), head
    assert json.loads(body)["error"]["code"] == "bad_request"
    assert body == _compact(body)


def test_a_request_line_past_the_limit_is_refused_in_the_same_compact_json(
    server: LiveServer,
) -> None:
    head, body = _raw(server, b"GET /api/health?q=" + b"a" * (80 * 1024) + b" HTTP/1.1")
    assert head.startswith(b"HTTP/1.1 414"), head
    assert body == _compact(body)


def test_a_refused_request_is_read_to_its_end_before_the_connection_closes(
    server: LiveServer,
) -> None:
    """The 414 is sent with the rest of the request still arriving: the server reads and drops
    it, so the client reads the refusal and an orderly end, not a connection reset."""
    where = urlsplit(server.url)
    with socket.create_connection((where.hostname, where.port), timeout=10) as sock:
        sock.sendall(b"GET /api/health?q=" + b"a" * (80 * 1024))
        reply = b""
        while b"}}" not in reply:
            reply += sock.recv(65536)
        sock.sendall(b"a" * (200 * 1024) + b" HTTP/1.1\r\nHost: x\r\n\r\n")
        while chunk := sock.recv(65536):
            reply += chunk
    assert reply.startswith(b"HTTP/1.1 414"), reply[:80]
    assert json.loads(reply.partition(b"\r\n\r\n")[2])["error"]["code"] == "uri_too_long"


def test_a_refused_client_that_keeps_sending_is_cut_off(server: LiveServer) -> None:
    """What a refused client still sends is dropped up to ``LINGER_BYTES``; past that the
    server closes, so a client cannot hold a refused connection open by sending."""
    where = urlsplit(server.url)
    with socket.create_connection((where.hostname, where.port), timeout=10) as sock:
        sock.sendall(b"GET /api/health?q=" + b"a" * (80 * 1024))
        with pytest.raises(OSError):  # a reset or a broken pipe, once the server has closed
            for _ in range(64 * 16):
                sock.sendall(b"a" * (64 * 1024))
