"""A persona and its first API key are one write (session 26): a failure after the persona's
row leaves neither, on both stores, so the name can be created again at once. They were two
transactions: a failure between them left a persona with no key, and a retry got 409."""

from __future__ import annotations

import contextlib
from typing import Any

import httpx
import pytest
from omoide_testing import LiveServer

from omoide.store.sqlite.keys import KeyStore


def test_a_failure_after_the_persona_row_leaves_no_persona_and_no_key(
    server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The key is written, then the write fails before it commits: no persona "kai", no key of
    it; the same request once the fault is gone gives 201 and a key that works. (The client
    sees the 500, or no answer when uvicorn closes the connection first.)"""
    real = KeyStore.add

    def add_then_fail(self: KeyStore, **kwargs: Any) -> Any:
        real(self, **kwargs)
        raise RuntimeError("injected: the server failed after writing the key")

    monkeypatch.setattr(KeyStore, "add", add_then_fail)
    # a connection of its own: uvicorn closes it after the 500
    with server.admin() as admin, contextlib.suppress(httpx.TransportError):
        assert admin.post("/api/personas", json={"name": "kai"}).status_code == 500
    monkeypatch.undo()
    with server.admin() as admin:
        listed = admin.get("/api/personas").json()
        assert "kai" not in str(listed), listed
        assert admin.get("/api/personas/kai/keys").status_code == 404
        assert [p.name for p in server.omoide.store.list_personas()] == []

        created = admin.post("/api/personas", json={"name": "kai"})
        assert created.status_code == 201, created.text
        keys = admin.get("/api/personas/kai/keys").json()["keys"]
    assert len(keys) == 1
    with server.client(created.json()["api_key"]) as kai:
        assert kai.get("/api/memories/kai").status_code == 200


def test_a_taken_name_writes_no_second_key(server: LiveServer) -> None:
    """A second create of a name is a 409 that adds no key to the persona that has it."""
    key = server.create_persona("kai")
    with server.admin() as admin:
        assert admin.post("/api/personas", json={"name": "kai"}).status_code == 409
        keys = admin.get("/api/personas/kai/keys").json()["keys"]
    assert len(keys) == 1
    with server.client(key) as kai:
        assert kai.get("/api/memories/kai").status_code == 200
