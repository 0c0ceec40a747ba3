"""Session 33's user walk-through, over real HTTP: a ``PATCH`` whose validity crosses the
stored end said "the memory's stored validity is 2026-01-01 00:00:00+00:00 to None" (Python's
text) and named ``valid_until`` when the request gave ``valid_from``."""

from __future__ import annotations

import pytest
from omoide_testing import LiveServer


@pytest.mark.parametrize(
    ("stored", "patch", "field", "says"),
    [
        (
            {"valid_from": "2026-01-01"},
            {"valid_until": "2025-01-01"},
            "valid_until",
            "2026-01-01T00:00:00+00:00 to no end",
        ),
        (
            {"valid_until": "2026-01-01"},
            {"valid_from": "2027-01-01"},
            "valid_from",
            "no start to 2026-01-01T00:00:00+00:00",
        ),
    ],
)
def test_a_validity_crossing_the_stored_end_is_told_in_the_apis_words(
    server: LiveServer, stored: dict[str, str], patch: dict[str, str], field: str, says: str
) -> None:
    with server.client(server.create_persona("rin")) as rin:
        made = rin.post("/api/memories/rin", json={"content": "Ken lives in Kyoto", **stored})
        assert made.status_code == 201, made.text
        key = made.json()["memory"]["key"]
        reply = rin.patch(f"/api/memories/rin/{key}", json=patch)
        assert reply.status_code == 409, reply.text
        error = reply.json()["error"]
        assert error["field"] == field
        assert f"the memory's stored validity is {says}" in error["message"]
        assert "None" not in error["message"]
