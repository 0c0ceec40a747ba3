"""qa39b: what a memory's page says of its validity window."""

from __future__ import annotations

import re

from omoide_testing import LiveServer


def _page_text(server: LiveServer, key: str, path: str) -> str:
    with server.signed_in(key) as client:
        page = client.get(path)
        assert page.status_code == 200
        return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page.text))


def test_a_fact_that_starts_later_is_not_said_valid_until_now(server: LiveServer) -> None:
    """A memory whose window starts in the future and has no end read "Valid from 9999-12-31
    23:59 UTC until now (open)": valid until now, of a fact that has not begun."""
    key = server.create_persona("rin")
    with server.client(key) as api:
        reply = api.post(
            "/api/memories/rin", json={"content": "Moving to Kyoto", "valid_from": "2999-01-01"}
        )
        memory = reply.json()["memory"]["key"]
    text = _page_text(server, key, f"/p/rin/memories/{memory}")
    assert "not yet valid" in text
    assert "until now" not in text
    assert "Valid from 2999-01-01 00:00 UTC until no end set (open)" in text
