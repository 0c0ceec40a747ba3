"""Fixtures for the HTTP API tests: persona rin's own client on the ``server`` fixture."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest
from omoide_testing import LiveServer


@pytest.fixture
def rin(server: LiveServer) -> Iterator[httpx.Client]:
    """Persona rin, created on ``server``, and a client holding rin's own key."""
    with server.client(server.create_persona("rin")) as client:
        yield client
