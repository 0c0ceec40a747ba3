"""Found by hand in session 13's probe, through real HTTP on both stores."""

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


def test_a_json_body_sent_without_a_content_type_is_read_as_json(rin: httpx.Client) -> None:
    """docs/api.md says a body is JSON with ``Content-Type: application/json`` or none; with
    none, FastAPI (strict content type) read it as bytes and answered a misleading 422
    ('request body: Input should be a valid dictionary')."""
    made = rin.post("/api/memories/rin", content=b'{"content": "Ken likes rain."}')
    assert made.status_code == 201, made.text
    patched = rin.patch(f"/api/memories/rin/{made.json()['memory']['key']}",
                        content=b'{"tags": ["weather"]}')
    assert patched.status_code == 200 and patched.json()["tags"] == ["weather"], patched.text
    refused = rin.post("/api/memories/rin", content=b'{"content": 1}')
    assert refused.status_code == 422 and refused.json()["error"]["field"] == "content"
