"""Session 33's walk-through, over real HTTP: a search's ``date_range=`` or ``valid_at=`` sent
empty (a script's unset variable) was no filter at all, answering every memory as if it had
applied, and so was a state history's ``at=``; ``mode=``, ``kind=`` or ``top_k=`` sent empty
were refused. Each is a 422 naming the parameter; leaving it out still means no filter."""

from __future__ import annotations

import pytest
from omoide_testing import LiveServer


@pytest.mark.parametrize(
    ("path", "params", "field"),
    [
        ("/api/search/rin", {"q": "tea", "date_range": ""}, "date_range"),
        ("/api/search/rin", {"q": "tea", "valid_at": ""}, "valid_at"),
        ("/api/user-state/rin/history", {"key": "name", "at": ""}, "at"),
        ("/api/persona-state/rin/history", {"key": "mood", "at": ""}, "at"),
        # blank too (session 41: date_range=%20 was still no filter; MCP refuses it as empty)
        ("/api/search/rin", {"q": "tea", "date_range": " \u200b"}, "date_range"),
    ],
)
def test_an_empty_filter_is_refused(
    server: LiveServer, path: str, params: dict[str, str], field: str
) -> None:
    with server.client(server.create_persona("rin")) as rin:
        reply = rin.get(path, params=params)
        assert reply.status_code == 422, reply.text
        error = reply.json()["error"]
        assert error["field"] == field
        assert error["message"].startswith(f"{field} must not be empty")


def test_a_filter_left_out_is_still_no_filter(server: LiveServer) -> None:
    with server.client(server.create_persona("rin")) as rin:
        assert rin.post("/api/memories/rin", json={"content": "Ken drinks tea"}).status_code == 201
        assert rin.put("/api/user-state/rin", json={"name": "Ken"}).status_code == 200
        found = rin.get("/api/search/rin", params={"q": "tea"})
        assert found.status_code == 200 and found.json()["results"]
        history = rin.get("/api/user-state/rin/history", params={"key": "name"})
        assert [h["value"] for h in history.json()["history"]] == ["Ken"]
