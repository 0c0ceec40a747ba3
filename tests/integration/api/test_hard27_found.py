"""Found by session 27's probe of every route, through real HTTP: an unknown path and a method
a path does not take were answered in the router's bare words ("Not Found", "Method Not
Allowed"); they now say which path or method, and where the routes are listed."""

from __future__ import annotations

from omoide_testing import LiveServer


def test_an_unknown_path_and_a_wrong_method_say_what_is_wrong(server: LiveServer) -> None:
    key = server.create_persona("rin")
    with server.client(key) as rin:
        unknown = rin.get("/api/memorys/rin")
        assert unknown.status_code == 404
        assert unknown.json()["error"] == {
            "code": "not_found",
            "message": "no route /api/memorys/rin: the API's routes are "
            "listed at /docs (OpenAPI: /openapi.json)",
        }
        wrong = rin.put("/api/memories/rin", json={"content": "tea"})
        assert wrong.status_code == 405 and wrong.headers["allow"] == "GET, HEAD, POST"
        assert wrong.json()["error"]["message"] == (
            "PUT is not allowed on /api/memories/rin; it takes GET, HEAD, POST"
        )
        # a route's own 404 keeps its words
        missing = rin.get("/api/memories/rin/mem_0123456789abcdef")
        assert missing.status_code == 404
        assert "mem_0123456789abcdef" in missing.json()["error"]["message"]
