"""Session 25's probe: ``top_k=1_0`` was read as 10 (Python's ``int()`` reads underscores
between digits; pydantic reads a query's text with it) while the settings form refused it. A
numeric query parameter is now read as the settings form reads its numbers, as the JSON number
it writes; anything else is one clear 422 naming the parameter. Real HTTP."""

from __future__ import annotations

import pytest
from omoide_testing import LiveServer


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("top_k", "1_0"),
        ("top_k", "１_０"),
        ("top_k", "%2B5"),
        ("top_k", "1 0"),
        ("min_importance", "0_5"),
        ("min_importance", ".5"),
        ("min_importance", "5."),
        ("min_importance", "nan"),
        ("min_importance", "inf"),
        ("min_importance", "Infinity"),
        ("min_importance", "0x1"),
    ],
)
def test_a_number_python_reads_but_json_does_not_write_is_refused(
    server: LiveServer, name: str, value: str
) -> None:
    key = server.create_persona("rin")
    with server.client(key) as rin:
        refused = rin.get(f"/api/search/rin?q=tea&{name}={value}")
        assert refused.status_code == 422, refused.text
        error = refused.json()["error"]
        assert error["field"] == name
        assert error["message"].startswith(f"query parameter {name!r} must be ")
        assert "digits 0-9" in error["message"]


def test_json_numbers_in_the_query_are_read_as_in_a_body(server: LiveServer) -> None:
    key = server.create_persona("rin")
    with server.client(key) as rin:
        for text in ("Ken lives in Osaka.", "Ken likes tea.", "Ken plays chess."):
            assert rin.post("/api/memories/rin", json={"content": text}).status_code == 201
        for top_k in ("2", "2e0", "%202%20", "2.0"):
            found = rin.get(f"/api/search/rin?q=Ken&mode=keyword&top_k={top_k}")
            assert found.status_code == 200, (top_k, found.text)
            assert len(found.json()["results"]) == 2
        fraction = rin.get("/api/search/rin?q=Ken&top_k=2.5")
        assert fraction.status_code == 422 and fraction.json()["error"]["field"] == "top_k"
        huge = rin.get("/api/memories/rin?offset=1e400")
        assert huge.status_code == 422, huge.text
        assert huge.json()["error"]["field"] == "offset"
        assert "outside" in huge.json()["error"]["message"]


def test_a_refused_number_is_said_after_who_may_ask(server: LiveServer) -> None:
    server.create_persona("rin")
    with server.client(None) as anonymous:
        assert anonymous.get("/api/search/rin?q=tea&top_k=1_0").status_code == 401
    key = server.create_persona("mio")
    with server.client(key) as mio:
        assert mio.get("/api/search/rin?q=tea&top_k=1_0").status_code == 403
        unknown = mio.get("/api/search/mio?q=tea&top_k=1_0&colour=red")
        assert unknown.status_code == 422 and unknown.json()["error"]["field"] == "colour"


@pytest.mark.parametrize(
    ("path", "name", "value"),
    [
        ("/api/search/rin?q=tea", "top_k", "7.5"),
        ("/api/memories/rin?", "limit", "2.5"),
        ("/api/memories/rin?", "offset", "0.5"),
        ("/api/search/rin?q=tea", "top_k", "１．５"),
        ("/api/memories/rin?", "limit", "2.5e0"),
    ],
)
def test_a_fraction_for_an_integer_is_refused_in_the_readers_words(
    server: LiveServer, path: str, name: str, value: str
) -> None:
    """``top_k=7.5`` was pydantic's "Input should be a valid integer, unable to parse string
    as an integer": now the number reader's words, as a path's ``7.5`` and the CLI's."""
    key = server.create_persona("rin")
    with server.client(key) as rin:
        refused = rin.get(f"{path}&{name}={value}")
        assert refused.status_code == 422, refused.text
        error = refused.json()["error"]
        assert error["field"] == name
        assert error["message"].startswith(f"query parameter {name!r} must be an integer")
        assert "valid integer" not in error["message"]
