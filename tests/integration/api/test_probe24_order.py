"""Session 24's probe: who may ask is answered before what is asked, on every route. The admin
routes checked the key inside the route, after the body (a persona key posting
``{"name": 5}`` to ``/api/personas`` was told about the name, not 403); the app-wide checks
(a refused body, an unknown query parameter, a body on a bodiless route) answered 422 before
the key's persona (403 on the keys and chat routes) and before an unknown persona (404); a
header sent twice or not ASCII was answered before routing (401/422 for a typo'd path).
Now: route (404, 405), key (401), persona (403, 404), then the inputs (422). Real HTTP, both
stores."""

from __future__ import annotations

import re

import httpx
import pytest
from omoide_testing import LiveServer, refused

JSON = {"content-type": "application/json"}


@pytest.mark.parametrize(
    "body", [b'{"name": 5}', b'{"name": NaN}', b'{"name": "x", "y": 1}', b"name=x"]
)
def test_a_persona_key_on_an_admin_route_is_a_403_whatever_the_body(
    server: LiveServer, body: bytes
) -> None:
    key = server.create_persona("rin")
    with server.client(key) as rin:
        headers = JSON if body.startswith(b"{") else {"content-type": "text/plain"}
        assert (
            refused(rin.post("/api/personas", content=body, headers=headers), 403)["code"]
            == "forbidden"
        )
        assert refused(rin.delete("/api/personas/bad.name"), 403)["code"] == "forbidden"
    with server.admin() as admin:
        assert (
            refused(admin.post("/api/personas", content=b'{"name": 5}', headers=JSON), 422)["field"]
            == "name"
        )


def test_the_app_wide_checks_come_after_the_persona(server: LiveServer) -> None:
    key = server.create_persona("rin")
    server.create_persona("kai")
    with server.client(key) as rin:
        assert (
            refused(rin.get("/api/personas/kai/keys", params={"x": "1"}), 403)["persona"] == "kai"
        )
        assert (
            refused(rin.request("DELETE", "/api/personas/kai/keys/1", json={"a": 1}), 403)["code"]
            == "forbidden"
        )
        chat = rin.post(
            "/v1/chat/completions",
            content=b'{"messages": NaN}',
            headers={**JSON, "X-Omoide-Persona": "kai"},
        )
        assert refused(chat, 403)["persona"] == "kai"
        assert refused(rin.get("/api/memories/a.b", params={"x": "1"}), 422)["field"] == "persona"
    with server.admin() as admin:
        for reply in (
            admin.post("/api/memories/nobody", content=b'{"content": NaN}', headers=JSON),
            admin.post(
                "/api/memories/nobody", content=b"hi", headers={"content-type": "text/plain"}
            ),
            admin.get("/api/memories/nobody", params={"zzz": "1"}),
            admin.request("GET", "/api/stats/nobody", json={"a": 1}),
            admin.get("/api/personas/nobody/keys", params={"x": "1"}),
        ):
            assert refused(reply, 404)["code"] == "not_found", reply.request.url
        no_persona = admin.post(
            "/v1/chat/completions", content=b"hi", headers={"content-type": "text/plain"}
        )
        assert refused(no_persona, 422)["field"] == "X-Omoide-Persona"
        assert refused(admin.get("/api/memories/rin", params={"zzz": "1"}), 422)["field"] == "zzz"


def test_a_refused_header_is_judged_after_the_route(server: LiveServer) -> None:
    key = server.create_persona("rin")
    twice = [("Authorization", f"Bearer {key}"), ("Authorization", "Bearer omo_p_wrong")]
    foreign = {"X-Omoide-Persona": "日本".encode()}
    with httpx.Client(base_url=server.url) as client:
        assert refused(client.get("/api/nowhere", headers=twice), 404)["code"] == "not_found"
        assert refused(client.get("/api/nowhere", headers=foreign), 404)["code"] == "not_found"
        assert refused(client.get("/api/stats/rin", headers=twice), 401)["code"] == "unauthorized"
        assert refused(client.get("/v1/models", headers=foreign), 401)["code"] == "unauthorized"
        named = refused(
            client.get(
                "/v1/models", headers={**foreign, "Authorization": f"Bearer {server.admin_key}"}
            ),
            422,
        )
        assert named["field"] == "X-Omoide-Persona" and "日本" in named["message"], named
        both = refused(
            client.post(
                "/api/memories/rin",
                content=b'{"content": NaN}',
                headers=[
                    ("Authorization", f"Bearer {key}"),
                    ("X-Omoide-Session", "a"),
                    ("X-Omoide-Session", "b"),
                    ("content-type", "application/json"),
                ],
            ),
            422,
        )
        assert both["field"] == "X-Omoide-Session", both  # the header before the body
        mcp = client.post("/mcp", headers=twice)  # a JSON-RPC error, the API's code in data
        assert mcp.status_code == 401 and mcp.json()["error"]["data"]["code"] == "unauthorized"


def test_health_reads_no_header_and_a_big_body_is_a_413_everywhere(server: LiveServer) -> None:
    """The OpenAPI document now declares 413 on every route and 422 on every API route: both
    happen as declared."""
    twice = [("Authorization", "Bearer a"), ("Authorization", "Bearer b")]
    big = b"x" * (server.omoide.settings.max_body_bytes + 1)
    with httpx.Client(base_url=server.url) as client:
        assert client.get("/health", headers=twice).status_code == 200
        assert (
            refused(client.request("GET", "/health", content=big), 413)["code"]
            == "payload_too_large"
        )
    with server.admin() as admin:
        assert (
            refused(admin.request("GET", "/api/personas", content=big), 413)["code"]
            == "payload_too_large"
        )
        assert refused(admin.get("/api/personas", params={"x": "1"}), 422)["field"] == "x"


def _every_route(server: LiveServer) -> list[tuple[str, str]]:
    from omoide.api.http.app import create_app

    paths = create_app(server.omoide, start_workers=False).openapi()["paths"]
    return [(method.upper(), path) for path, ops in sorted(paths.items()) for method in sorted(ops)]


def _url(path: str, persona: str) -> str:
    url = path.replace("{persona}", persona).replace("{name}", persona)
    return re.sub(r"\{[a-z_]+\}", "1", url)


def test_every_route_answers_who_may_ask_before_a_refused_body_or_query(server: LiveServer) -> None:
    """Every operation of the OpenAPI document, asked by another persona's key with a body
    the guard refuses (NaN) and an unknown query parameter: 403 (or 401/404 where the route
    has no persona), never the 422 of the body or the query. With the admin key and an unknown
    persona: 404 wherever a persona is named."""
    rin = server.create_persona("rin")
    server.create_persona("kai")
    headers = {**JSON, "X-Omoide-Persona": "kai"}
    routes = _every_route(server)
    assert len(routes) >= 40
    with server.client(rin) as client, server.admin() as admin:
        for method, path in routes:
            if path == "/health":
                continue
            reply = client.request(
                method,
                _url(path, "kai"),
                params={"zzz": "1"},
                content=b'{"x": NaN}',
                headers=headers,
            )
            assert reply.status_code == 403, (method, path, reply.text)
            if "{persona}" in path or "{name}" in path:
                unknown = admin.request(
                    method,
                    _url(path, "nobody"),
                    params={"zzz": "1"},
                    content=b'{"x": NaN}',
                    headers=JSON,
                )
                assert unknown.status_code == 404, (method, path, unknown.text)
                assert unknown.json()["error"].get("persona") == "nobody", unknown.text
