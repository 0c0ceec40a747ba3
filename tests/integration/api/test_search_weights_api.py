"""Both search weights at 0 when a persona's override meets a server default: a persona stores
``keyword_weight=0`` (valid then: the server's semantic weight was 0.6), and the server is
restarted with ``OMOIDE_SEMANTIC_WEIGHT=0``. Search then had no ranking signal and every search
of the persona (chat proxy and MCP search too) was a 422 that the persona could not see coming:
``GET /api/settings`` showed both at 0 without a word. The stored override that zeroes the pair
is now set aside, the server's weights apply (and the settings page shows so), and a new ``PUT``
that would zero the pair is a 409 naming both settings and the server default; a PUT of another
setting is taken, as the pair it leaves is the one already set aside."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from omoide_testing import served

from omoide.wiring import Omoide

ADMIN = "omo_admin_test-key"


def test_persona_zero_meets_server_zero(make_app: Callable[..., Omoide], data_dir: Path) -> None:
    first = make_app()
    with served(first, data_dir, ADMIN) as server:
        key = server.create_persona("rin")
        with server.client(key) as client:
            assert client.put("/api/settings/rin", json={"keyword_weight": 0}).status_code == 200
            assert (
                client.post(
                    "/api/memories/rin",
                    json={"content": "The user drinks green tea every morning."},
                ).status_code
                == 201
            )
    first.close()
    second = make_app({"OMOIDE_SEMANTIC_WEIGHT": "0"})
    with served(second, data_dir, ADMIN) as server, server.client(key) as client:
        found = client.get("/api/search/rin", params={"q": "green tea"})
        assert found.status_code == 200, found.text
        assert [r["content"] for r in found.json()["results"]][:1] == [
            "The user drinks green tea every morning."
        ]
        shown = client.get("/api/settings/rin").json()
        effective = shown["settings"]
        assert effective["keyword_weight"] + effective["semantic_weight"] > 0
        assert (effective["keyword_weight"], effective["semantic_weight"]) == (0.4, 0.0)
        # another setting changes as ever: the pair is as it was, and the server's weights
        # still apply (a 409 naming semantic_weight refused a change of the time zone)
        other = client.put("/api/settings/rin", json={"timezone": "Asia/Tokyo"})
        assert other.status_code == 200, other.text
        assert other.json()["settings"]["timezone"] == "Asia/Tokyo"
        assert (
            other.json()["settings"]["keyword_weight"],
            other.json()["settings"]["semantic_weight"],
        ) == (0.4, 0.0)
        again = client.put("/api/settings/rin", json={"keyword_weight": 0})
        assert again.status_code == 409, again.text
        message = again.json()["error"]["message"]
        assert "keyword_weight" in message and "semantic_weight" in message
        assert "OMOIDE_SEMANTIC_WEIGHT" in message
        raised = client.put("/api/settings/rin", json={"keyword_weight": 0.7})
        assert raised.status_code == 200
        assert raised.json()["settings"]["keyword_weight"] == 0.7
