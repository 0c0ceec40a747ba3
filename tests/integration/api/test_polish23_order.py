"""Session 23's probe: what a request is told first. An unknown route is a 404 and a missing or
wrong key a 401/403 before the body is judged (422); an oversized body is still a 413 at once.
Through real HTTP on both stores."""

from __future__ import annotations

import pytest
from omoide_testing import LiveServer

BAD_JSON = b'{"content": "Ken likes tea.",'


@pytest.mark.parametrize(
    "body, content_type",
    [
        (BAD_JSON, "application/json"),
        (b'{"content": NaN}', "application/json"),
        (b"content=Ken+likes+tea", "application/x-www-form-urlencoded"),
    ],
)
def test_a_refused_body_is_judged_after_the_route_and_the_key(
    server: LiveServer, body: bytes, content_type: str
) -> None:
    """A body the guard refuses used to be answered 422 before routing and login: a typo'd
    route said 'request body: not valid JSON' instead of 404, and no key at all got 422
    instead of 401. Now: 404, 401, 403, then 422 for the caller who may write."""
    key = server.create_persona("rin")
    other = server.create_persona("kai")
    headers = {"content-type": content_type}
    with server.client(key) as rin:
        unknown = rin.post("/api/memorys/rin", content=body, headers=headers)
        assert unknown.status_code == 404, unknown.text
        assert rin.put("/api/memories/rin", content=body, headers=headers).status_code == 405
        assert rin.post("/v1/chat/complete", content=body, headers=headers).status_code == 404
        refused = rin.post("/api/memories/rin", content=body, headers=headers)
        assert refused.status_code == 422, refused.text
        assert refused.json()["error"]["code"] == "invalid_input"
    with server.client() as anonymous:
        nobody = anonymous.post("/api/memories/rin", content=body, headers=headers)
        assert nobody.status_code == 401, nobody.text
        assert (
            anonymous.post("/v1/chat/completions", content=body, headers=headers).status_code == 401
        )
    with server.client(other) as kai:
        assert kai.post("/api/memories/rin", content=body, headers=headers).status_code == 403
    with server.client(key) as rin:  # nothing was written by any of them
        assert rin.get("/api/memories/rin").json()["memories"] == []


def test_the_refusal_still_names_the_field(server: LiveServer) -> None:
    key = server.create_persona("rin")
    with server.client(key) as rin:
        reply = rin.post(
            "/api/memories/rin",
            content=b'{"content": "a\\u0000b"}',
            headers={"content-type": "application/json"},
        )
    assert reply.status_code == 422 and reply.json()["error"]["field"] == "content", reply.text


def test_an_oversized_body_is_still_a_413_before_anything(server: LiveServer) -> None:
    big = b'{"content": "' + b"x" * (server.omoide.settings.max_body_bytes + 10) + b'"}'
    with server.client() as anonymous:
        for path in ("/api/memories/rin", "/api/nowhere"):
            reply = anonymous.post(path, content=big, headers={"content-type": "application/json"})
            assert reply.status_code == 413, reply.text
