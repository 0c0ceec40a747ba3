"""A present but blank ``X-Omoide-Session`` or ``X-Omoide-Persona`` header (qa45h). Reported
as counted as absent; it never was (the route's pattern refused it), but in the pattern's words
("must be 1-128 ASCII letters …, got \"\"") rather than the one wording of a blank text, and
without saying that leaving the header out gives the default. Now the guard refuses it (422)
in that wording, naming the header, whoever the caller; nothing is sent upstream or recorded."""

from __future__ import annotations

import json
import socket
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

import pytest
from chat_proxy import CHAT_ADMIN, fake_llm_config
from llm_fakes import FakeAPI, Reply, openai_answer
from omoide_testing import LiveServer

from omoide.engine.blank import NON_BLANK_RULE
from omoide.llm.chat import make_chat_upstream

BODY = {"model": "x", "messages": [{"role": "user", "content": "hello"}]}


@pytest.fixture
def proxy(chat_server: Callable[..., LiveServer], fake_api: FakeAPI) -> LiveServer:
    return chat_server(upstream=make_chat_upstream(fake_llm_config(fake_api.base)))


def _chat(proxy: LiveServer, key: str, headers: dict[str, str]) -> tuple[int, dict[str, Any]]:
    """POST the chat over a socket of its own, the headers written as given (httpx refuses a
    value of spaces; a client writing its own request, or a proxy, can send one)."""
    body = json.dumps(BODY).encode()
    url = urlsplit(proxy.url)
    lines = [
        "POST /v1/chat/completions HTTP/1.1",
        f"Host: {url.netloc}",
        f"Authorization: Bearer {key}",
        "Content-Type: application/json",
        f"Content-Length: {len(body)}",
        "Connection: close",
        *(f"{name}:{value}" for name, value in headers.items()),
    ]
    with socket.create_connection((url.hostname, url.port), timeout=10) as sock:
        sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body)
        raw = b""
        while chunk := sock.recv(65536):
            raw += chunk
    head, _, rest = raw.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    if b"transfer-encoding: chunked" in head.lower():
        size, _, rest = rest.partition(b"\r\n")
        rest = rest[: int(size, 16)]
    return status, json.loads(rest)


@pytest.mark.parametrize("value", ["", " ", "   ", "\t"])
@pytest.mark.parametrize("name", ["X-Omoide-Session", "X-Omoide-Persona"])
def test_a_blank_omoide_header_is_refused_not_taken_as_absent(
    proxy: LiveServer, fake_api: FakeAPI, name: str, value: str
) -> None:
    key = proxy.create_persona("rin")
    sent_before = len(fake_api.bodies)
    for caller in (key, CHAT_ADMIN):
        headers = {name: value}
        if caller == CHAT_ADMIN and name != "X-Omoide-Persona":
            headers["X-Omoide-Persona"] = "rin"
        status, reply = _chat(proxy, caller, headers)
        assert status == 422, reply
        error = reply["error"]
        assert error["code"] == "invalid_input" and error["field"] == name
        assert error["message"].startswith(f"{name} {NON_BLANK_RULE}, got ''; "), error
    assert len(fake_api.bodies) == sent_before
    with proxy.admin() as admin:
        assert admin.get("/api/sessions/rin").json()["sessions"] == []


def test_the_headers_sent_with_a_value_or_not_at_all_still_work(
    proxy: LiveServer, fake_api: FakeAPI
) -> None:
    key = proxy.create_persona("rin")
    for caller, headers, session in (
        (key, {"X-Omoide-Session": " s-1 "}, "s-1"),  # spaces around a value are not part of it
        (key, {}, None),
        (CHAT_ADMIN, {"X-Omoide-Persona": "rin"}, None),
    ):
        fake_api.queue(Reply(body=openai_answer("hi")))
        status, reply = _chat(proxy, caller, headers)
        assert status == 200, reply
        assert reply["omoide"]["session_id"].startswith("s-1" if session else "chat-")
