"""Session 44's walk through the docs as a new user: what the docs state a user gets, held
through real HTTP. A bound is said as the docs write it ("at most 600", "at most 1"), never as
Python prints a float bound ("600.0", "1.0")."""

from __future__ import annotations

import pytest
from omoide_testing import LiveServer


@pytest.mark.parametrize(
    ("method", "path", "sent", "message"),
    [
        pytest.param(
            "GET",
            "/api/jobs/rin/wait",
            {"params": {"timeout": "601"}},
            "timeout must be at most 600, got 601",
            id="jobs-wait-timeout",
        ),
        pytest.param(
            "GET",
            "/api/search/rin",
            {"params": {"q": "tea", "min_importance": "2"}},
            "min_importance must be at most 1, got 2",
            id="search-min-importance",
        ),
        pytest.param(
            "GET",
            "/api/search/rin",
            {"params": {"q": "tea", "importance_weight": "-1"}},
            "importance_weight must be at least 0, got -1",
            id="search-importance-weight",
        ),
        pytest.param(
            "POST",
            "/api/memories/rin",
            {"json": {"content": "Ken likes tea.", "importance": 2}},
            "importance must be at most 1, got 2",
            id="memory-importance",
        ),
    ],
)
def test_a_float_bound_is_told_as_the_docs_write_it(
    server: LiveServer, method: str, path: str, sent: dict, message: str
) -> None:
    key = server.create_persona("rin")
    with server.client(key) as rin:
        refused = rin.request(method, path, **sent)
        assert refused.status_code == 422, refused.text
        assert refused.json()["error"]["message"] == message


def test_a_whitespace_body_asks_for_nothing(server: LiveServer) -> None:
    """docs/api.md: "No body, whitespace and `{}` ask for nothing and are accepted." A body of
    spaces sent as JSON (curl -d ' ', a client that writes a blank line) was refused as "not
    valid JSON: the text is empty" on every route; it is read as no body: a route that takes
    none answers, one whose body is optional opens with its defaults, one that needs a body
    says it is required."""
    key = server.create_persona("rin")
    json_type = {"content-type": "application/json"}
    with server.client(key) as rin:
        for blank in (b" ", b"  \n", b"\r\n\t"):
            begun = rin.post("/api/context/rin/session", content=blank, headers=json_type)
            assert begun.status_code == 201, (blank, begun.text)
            session = begun.json()["session_id"]
            ended = rin.post(f"/api/sessions/rin/{session}/end", content=blank, headers=json_type)
            assert ended.status_code == 200, (blank, ended.text)
            listed = rin.request("GET", "/api/memories/rin", content=blank, headers=json_type)
            assert listed.status_code == 200, (blank, listed.text)
            opened = rin.post("/api/sessions/rin", content=blank, headers=json_type)
            assert opened.status_code == 201, (blank, opened.text)
            needed = rin.post("/api/memories/rin", content=blank, headers=json_type)
            assert needed.status_code == 422, (blank, needed.text)
            assert needed.json()["error"]["message"] == "request body is required"
