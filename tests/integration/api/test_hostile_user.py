"""What a demanding user broke by hand (session 10 probe), through real HTTP: each test is a
case that used to store twice, mislead, or answer with an unreadable message.
"""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest
from omoide_testing import LiveServer

JSON = {"content-type": "application/json"}


@pytest.fixture
def rin(server: LiveServer) -> Iterator[httpx.Client]:
    """Persona rin's own client."""
    key = server.create_persona("rin")
    with server.client(key) as client:
        yield client


def refused(reply: httpx.Response, *statuses: int) -> dict[str, Any]:
    assert reply.status_code in statuses, (reply.status_code, reply.text[:300])
    body = reply.json()
    assert set(body) == {"error"} and {"code", "message"} <= set(body["error"]), body
    return body["error"]


def test_identical_concurrent_writes_store_one_memory(server: LiveServer,
                                                      rin: httpx.Client) -> None:
    """Eight clients sending the same memory at once: one is created, the others are told it
    is a duplicate of that one (dedup and insert used to race, storing eight copies)."""
    key = rin.headers["authorization"].split()[1]

    def post(_: int) -> httpx.Response:
        with server.client(key) as client:
            return client.post("/api/memories/rin",
                               json={"content": "My sister has lived in Osaka since 2019."})

    with ThreadPoolExecutor(8) as pool:
        replies = list(pool.map(post, range(8)))
    assert all(r.status_code in (200, 201) for r in replies), [r.text for r in replies]
    statuses = sorted(r.json()["status"] for r in replies)
    assert statuses == ["created"] + ["duplicate"] * 7
    created = next(r.json()["memory"]["key"] for r in replies if r.json()["status"] == "created")
    assert {r.json()["duplicate_of"]["key"] for r in replies
            if r.json()["status"] == "duplicate"} == {created}
    assert len(rin.get("/api/memories/rin").json()["memories"]) == 1
