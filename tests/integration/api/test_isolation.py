"""Persona isolation is a wall: every persona-scoped endpoint refuses another persona's key,
and every 4xx has the one error shape."""

from __future__ import annotations

import re

import httpx
from omoide_testing import LiveServer


def persona_routes(server: LiveServer) -> list[tuple[str, str]]:
    from omoide.api.http.app import create_app

    paths = create_app(server.omoide, start_workers=False).openapi()["paths"]
    return [
        (method.upper(), path)
        for path, ops in sorted(paths.items())
        if "{persona}" in path
        for method in sorted(ops)
    ]


def test_every_persona_endpoint_refuses_another_personas_key(server: LiveServer) -> None:
    rin_key = server.create_persona("rin")
    server.create_persona("kai")
    with server.client(rin_key) as rin:
        key = rin.post("/api/memories/rin", json={"content": "Rin's diary"}).json()["memory"]["key"]
    routes = persona_routes(server)
    assert len(routes) >= 8
    with server.client(rin_key) as rin:
        for method, path in routes:
            url = re.sub(r"\{persona\}", "kai", path)
            url = re.sub(r"\{[a-z_]+\}", key, url)
            reply = rin.request(
                method,
                url,
                params={"q": "diary", "key": "name"},
                json={"content": "x", "name": "x"},
            )
            assert reply.status_code == 403, (method, path, reply.status_code)
            assert reply.json()["error"]["code"] == "forbidden"


def test_other_personas_memory_is_invisible_even_by_key(server: LiveServer) -> None:
    rin_key = server.create_persona("rin")
    kai_key = server.create_persona("kai")
    with server.client(rin_key) as rin:
        key = rin.post("/api/memories/rin", json={"content": "Rin's diary"}).json()["memory"]["key"]
    with server.client(kai_key) as kai:
        assert kai.get(f"/api/memories/kai/{key}").status_code == 404
        assert kai.get("/api/search/kai", params={"q": "diary"}).json()["results"] == []


def test_every_error_has_the_same_shape(server: LiveServer) -> None:
    key = server.create_persona("rin")
    replies: list[httpx.Response] = []
    with server.client(key) as rin:
        replies += [
            rin.get("/api/memories/kai"),
            rin.get("/api/memories/rin/mem_missing"),
            rin.post("/api/memories/rin", json={"content": ""}),
            rin.get("/api/search/rin", params={"q": "x", "top_k": "many"}),
            rin.get("/api/search/rin"),
            rin.get("/no/such/route"),
            rin.put("/health"),
        ]
    with server.client() as anonymous:
        replies.append(anonymous.get("/api/memories/rin"))
    for reply in replies:
        assert 400 <= reply.status_code < 500, reply.url
        body = reply.json()
        assert set(body) == {"error"}
        assert {"code", "message"} <= set(body["error"])
        assert isinstance(body["error"]["message"], str) and body["error"]["message"]
