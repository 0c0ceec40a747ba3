"""Request targets of every form RFC 9112 §3.2 names, sent byte for byte through real HTTP:
absolute-form is read as its path (it was a 404 naming ``/http://…``), a target that is neither
a path nor a URL is a 400 naming it (it was a 404 naming a route that exists), a path that is
not UTF-8 once percent-decoded a 422 saying so (it was read with U+FFFD)."""

from __future__ import annotations

import json
import socket
from typing import Any
from urllib.parse import urlsplit

import pytest
from omoide_testing import LiveServer


def _raw(
    server: LiveServer, line: bytes, headers: bytes = b"Host: x\r\n", body: bytes = b""
) -> tuple[int, dict[str, Any]]:
    url = urlsplit(server.url)
    with socket.create_connection((url.hostname, url.port), timeout=10) as sock:
        sock.sendall(line + b"\r\n" + headers + b"Connection: close\r\n\r\n" + body)
        reply = b""
        while chunk := sock.recv(65536):
            reply += chunk
    head, _, body = reply.partition(b"\r\n\r\n")
    return int(head.split(b" ")[1]), json.loads(body)


@pytest.mark.sqlite_only
def test_an_absolute_form_target_is_read_as_its_path_and_authority(server: LiveServer) -> None:
    key = server.create_persona("rin").encode()
    auth = b"Host: x\r\nAuthorization: Bearer " + key + b"\r\n"
    base = server.url.encode()
    status, stats = _raw(server, b"GET " + base + b"/api/stats/rin HTTP/1.1", auth)
    assert (status, stats["persona"]) == (200, "rin")
    status, found = _raw(server, b"GET " + base + b"/api/search/rin?q=tea&top_k=2 HTTP/1.1", auth)
    assert (status, found["query"]) == (200, "tea")
    status, error = _raw(server, b"GET " + base + b"/nope HTTP/1.1", auth)
    assert status == 404 and error["error"]["message"].startswith("no route /nope:"), error
    # the target's authority is the Host the server checks (/mcp's DNS-rebinding guard)
    ping = b'{"jsonrpc": "2.0", "id": 1, "method": "ping"}'
    status, error = _raw(
        server,
        b"POST http://evil.example/mcp HTTP/1.1",
        auth + b"Content-Type: application/json\r\nAccept: application/json, "
        b"text/event-stream\r\nContent-Length: %d\r\n" % len(ping),
        ping,
    )
    assert status == 421 and "'evil.example'" in error["error"]["message"], error


@pytest.mark.sqlite_only
@pytest.mark.parametrize(
    ("line", "shown"),
    [
        (b"GET api/stats/rin HTTP/1.1", "'api/stats/rin'"),
        (b"GET * HTTP/1.1", "'*'"),
        (b"OPTIONS * HTTP/1.1", "'*'"),
        (b"CONNECT 127.0.0.1:443 HTTP/1.1", "'127.0.0.1:443'"),
    ],
)
def test_a_target_that_is_neither_a_path_nor_a_url_is_a_400_naming_it(
    server: LiveServer, line: bytes, shown: str
) -> None:
    status, error = _raw(server, line)
    assert status == 400, error
    assert error["error"]["code"] == "bad_request"
    assert error["error"]["message"] == (
        "the request target must be a path starting with '/' (e.g. GET /api/stats/rin "
        f"HTTP/1.1) or a full URL (http://host:port/api/…); got {shown}"
    )


@pytest.mark.sqlite_only
def test_a_path_that_is_not_utf8_once_decoded_is_refused_saying_so(server: LiveServer) -> None:
    key = server.create_persona("rin").encode()
    status, error = _raw(
        server,
        b"GET /api/memories/rin/%E3%81 HTTP/1.1",
        b"Host: x\r\nAuthorization: Bearer " + key + b"\r\n",
    )
    assert status == 422, error
    assert error["error"]["message"].startswith("the path is not UTF-8 text once percent-decoded")
    # as a 404 names an odd path that is UTF-8: as asked
    status, error = _raw(server, b"GET //api/stats/rin HTTP/1.1")
    assert status == 404 and "no route //api/stats/rin:" in error["error"]["message"]
