"""Found by hand in session 12's probe, through real HTTP on both stores: each answered
differently by SQLite and PostgreSQL, or with a misleading message."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest
from omoide_testing import LiveServer


@pytest.fixture
def rin(server: LiveServer) -> Iterator[httpx.Client]:
    key = server.create_persona("rin")
    with server.client(key) as client:
        yield client


def test_a_negative_zero_is_zero_on_both_stores(rin: httpx.Client) -> None:
    """``"importance": -0.0`` came back as 0.0 from SQLite and -0.0 from PostgreSQL."""
    made = rin.post("/api/memories/rin", json={"content": "Ken likes rain.", "importance": -0.0,
                                               "emotion_intensity": -0.0})
    assert made.status_code == 201, made.text
    key = made.json()["memory"]["key"]
    assert '"importance":0.0' in made.text and "-0.0" not in made.text, made.text
    read = rin.get(f"/api/memories/rin/{key}")
    assert "-0.0" not in read.text, read.text
    patched = rin.patch(f"/api/memories/rin/{key}", json={"emotion_intensity": -0.0})
    assert patched.status_code == 200 and "-0.0" not in patched.text, patched.text
