"""Session 44: a ``%`` that starts no percent-escape (``%ZZ``, a bare ``%`` at the end, ``%4``)
was read as itself, ``/api/memories/rin/%ZZ`` a 404 for the key ``%ZZ`` and ``?q=100%`` a
search for "100%", while ``%41`` is ``A`` and ``%E3`` a 422: what a bare ``%`` meant hung on
the characters after it. In the path or in a query parameter's name or value it is a 422
saying to send a ``%`` itself as ``%25``, the parameter named, sent byte for byte through real
HTTP (a client library would have encoded it)."""

from __future__ import annotations

import json
import socket
from typing import Any
from urllib.parse import urlsplit

import pytest
from omoide_testing import LiveServer

pytestmark = pytest.mark.sqlite_only  # the request target, read before any store


def _get(server: LiveServer, target: str, key: str) -> tuple[int, bytes]:
    url = urlsplit(server.url)
    with socket.create_connection((url.hostname, url.port), timeout=10) as sock:
        sock.sendall(
            f"GET {target} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {key}\r\n"
            "Connection: close\r\n\r\n".encode("ascii")
        )
        reply = b""
        while chunk := sock.recv(65536):
            reply += chunk
    head, _, body = reply.partition(b"\r\n\r\n")
    return int(head.split(b" ")[1]), body


def _error(server: LiveServer, target: str, key: str) -> dict[str, Any]:
    status, body = _get(server, target, key)
    assert status == 422, (target, body)
    return dict(json.loads(body)["error"])


@pytest.mark.parametrize(
    ("target", "shown"),
    [
        pytest.param("/api/memories/rin/%ZZ", "'%ZZ'", id="zz"),
        pytest.param("/api/memories/rin/mem_1%4", "'%4'", id="one-digit"),
        pytest.param("/api/memories/rin/100%", "'%'", id="bare-at-the-end"),
        pytest.param("/api/stats/r%in", "'%in'", id="persona"),
    ],
)
def test_a_path_percent_that_starts_no_escape_is_a_422(
    server: LiveServer, target: str, shown: str
) -> None:
    key = server.create_persona("rin")
    error = _error(server, target, key)
    assert error["code"] == "invalid_input"
    assert error["message"].startswith(f"the path holds {shown}, not a percent-escape"), error
    assert "%25" in error["message"]


@pytest.mark.parametrize(
    ("query", "field", "shown"),
    [
        pytest.param("q=%ZZ", "q", "'%ZZ'", id="zz"),
        pytest.param("q=100%", "q", "'%'", id="bare-at-the-end"),
        pytest.param("q=tea&top_k=5%", "top_k", "'%'", id="second-parameter"),
        pytest.param("q=50%off", "q", "'%of'", id="not-hex"),
    ],
)
def test_a_query_percent_that_starts_no_escape_is_a_422_naming_the_parameter(
    server: LiveServer, query: str, field: str, shown: str
) -> None:
    key = server.create_persona("rin")
    error = _error(server, f"/api/search/rin?{query}", key)
    assert error["field"] == field, error
    said = f"query parameter {field!r} holds {shown}, not a percent-escape"
    assert error["message"].startswith(said), error
    assert "%25" in error["message"]


def test_a_query_name_percent_that_starts_no_escape_is_a_422(server: LiveServer) -> None:
    key = server.create_persona("rin")
    error = _error(server, "/api/search/rin?q%ZZ=tea", key)
    assert error["message"].startswith("a query parameter name holds '%ZZ'"), error


def test_a_percent_sent_as_an_escape_is_read_as_before(server: LiveServer) -> None:
    key = server.create_persona("rin")
    status, body = _get(server, "/api/search/rin?q=100%25%20sure", key)
    assert status == 200 and json.loads(body)["query"] == "100% sure", body
    status, body = _get(server, "/api/memories/rin/100%25", key)
    assert status == 404 and "'100%'" in json.loads(body)["error"]["message"], body


def test_encoded_characters_still_read_as_they_mean(server: LiveServer) -> None:
    """%2F, %25 and a UTF-8 escape are well-formed: each is read as its character in a query
    value, and %25 and a UTF-8 escape in a key of the path, sent byte for byte (a path's %2F is
    a '/' to the router, as it was before)."""
    key = server.create_persona("rin")
    status, body = _get(server, "/api/search/rin?q=%E3%81%82%2F%25", key)
    assert status == 200 and json.loads(body)["query"] == "あ/%", body
    status, body = _get(server, "/api/memories/rin/%E3%81%82%25", key)
    assert status == 404 and "'あ%'" in json.loads(body)["error"]["message"], body
