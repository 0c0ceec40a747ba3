"""A route that takes no body refuses one (session 12 probe), through real HTTP on both stores:
``DELETE /api/memories/rin/KEY`` with ``{"purge": true}`` tombstoned the memory and kept its
text, silently; a client that sends a body there meant something the route does not do. The
422 names the route and the parameters it does take; nothing is changed. No body, an empty
one and ``{}`` (which asks for nothing) are accepted as before.
"""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest
from omoide_testing import LiveServer, refused


@pytest.fixture
def rin(server: LiveServer) -> Iterator[tuple[httpx.Client, str]]:
    key = server.create_persona("rin")
    with server.client(key) as client:
        made = client.post("/api/memories/rin", json={"content": "Ken drinks green tea."})
        assert made.status_code == 201, made.text
        yield client, made.json()["memory"]["key"]


def test_a_delete_with_a_body_is_refused_and_deletes_nothing(rin: tuple[httpx.Client, str]) -> None:
    client, key = rin
    error = refused(client.request("DELETE", f"/api/memories/rin/{key}", json={"purge": True}), 422)
    assert "takes no request body" in error["message"], error
    assert "purge" in error["message"], error  # what it does take
    memory = client.get(f"/api/memories/rin/{key}").json()
    assert memory["status"] == "active", memory
    # the query says it; the route does it
    assert client.delete(f"/api/memories/rin/{key}", params={"purge": "true"}).status_code == 200


@pytest.mark.parametrize(
    ("method", "path"),
    [
        pytest.param("GET", "/api/memories/rin", id="list"),
        pytest.param("GET", "/api/search/rin?q=tea", id="search"),
        pytest.param("GET", "/api/stats/rin", id="stats"),
        pytest.param("POST", "/api/sessions/rin/s1/end", id="end-session"),
        pytest.param("DELETE", "/api/sessions/rin/s1", id="erase-session"),
    ],
)
def test_a_body_on_a_bodiless_route_is_refused(
    rin: tuple[httpx.Client, str], method: str, path: str
) -> None:
    client, _ = rin
    assert client.post("/api/sessions/rin", json={"session_id": "s1"}).status_code == 201
    error = refused(client.request(method, path, json={"top_k": 3}), 422)
    assert f"{method} " in error["message"] and "takes no request body" in error["message"]
    assert client.get("/api/sessions/rin/s1/episodes").json()["ended_at"] is None
    for empty in (b"", b"{}", b" {} \n"):
        reply = client.request(
            "GET", "/api/memories/rin", content=empty, headers={"content-type": "application/json"}
        )
        assert reply.status_code == 200, (empty, reply.text)


def test_who_may_ask_comes_before_the_body(
    server: LiveServer, rin: tuple[httpx.Client, str]
) -> None:
    client, key = rin
    assert (
        refused(
            httpx.request("DELETE", f"{server.url}/api/memories/rin/{key}", json={"purge": True}),
            401,
        )["code"]
        == "unauthorized"
    )
    assert (
        refused(client.request("GET", "/api/memories/kai", json={"x": 1}), 403)["code"]
        == "forbidden"
    )
