"""The HTTP guard reads a query string's raw bytes as UTF-8, as a server that passes them on
(uvicorn with httptools, other ASGI servers) hands them over."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from starlette.requests import Request
from starlette.types import Message, Receive, Scope, Send

from omoide.api.http.guard import BodyGuard
from omoide.api.http.protocol import encode_request_target


async def _echo(scope: Scope, receive: Receive, send: Send) -> None:
    params = Request(scope).query_params
    body = json.dumps({"q": params.get("q"), "tags": params.getlist("tags")}).encode()
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": body})


def _get(query: bytes) -> tuple[int, dict[str, Any]]:
    sent: list[Message] = []
    scope = {
        "type": "http",
        "method": "GET",
        "path": "/api/search/rin",
        "headers": [],
        "query_string": query,
    }

    async def receive() -> Message:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: Message) -> None:
        sent.append(message)

    asyncio.run(BodyGuard(_echo, max_body_bytes=1000)(scope, receive, send))
    return sent[0]["status"], json.loads(sent[1]["body"])


def test_raw_utf8_query_bytes_read_as_their_percent_encoded_form() -> None:
    """Raw bytes were read as Latin-1 by Starlette: 'å¤§é\x98ª' for 大阪."""
    raw = _get("q=大阪&tags=é&tags=cafe\u0301".encode())
    assert raw == (200, {"q": "大阪", "tags": ["é", "café"]})
    assert raw == _get(b"q=%E5%A4%A7%E9%98%AA&tags=%C3%A9&tags=cafe%CC%81")
    assert _get(b"q=a+b%2B") == (200, {"q": "a b+", "tags": []})  # ASCII passes as sent


@pytest.mark.parametrize(
    ("query", "field"),
    [(b"q=\xff", "q"), (b"tags=ok&q=%C3", "q"), (b"q=%00", "q"), (b"\xff=1", None)],
)
def test_a_query_parameter_not_utf8_or_with_nul_is_refused_naming_it(
    query: bytes, field: str | None
) -> None:
    status, body = _get(query)
    assert status == 422 and body["error"].get("field") == field, body


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (
            "GET /s?q=大阪 HTTP/1.1\r\nHost: x\r\n\r\n".encode(),
            b"GET /s?q=%E5%A4%A7%E9%98%AA HTTP/1.1\r\nHost: x\r\n\r\n",
        ),
        (b"GET /s?q=\xff HTTP/1.1\r\n", b"GET /s?q=%FF HTTP/1.1\r\n"),
        (b"GET /s?q=a HTTP/1.1\r\nX: \xff\r\n", b"GET /s?q=a HTTP/1.1\r\nX: \xff\r\n"),  # line only
        ("GET /s?q=大".encode(), "GET /s?q=大".encode()),  # not whole: passed as sent
    ],
)
def test_the_request_line_target_is_percent_encoded(data: bytes, expected: bytes) -> None:
    assert encode_request_target(data) == expected
