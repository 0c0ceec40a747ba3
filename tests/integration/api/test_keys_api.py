"""Key lifecycle through real HTTP: issue, list, revoke (on REST and on MCP at once), last use
written at most once a minute, the admin key replaced, the admin key's minimum length."""

from __future__ import annotations

from pathlib import Path

import anyio
import httpx
import pytest
from mcp_checks import INITIALIZE, http_client, ok
from omoide_testing import LiveServer

from omoide.clock import FixedClock
from omoide.errors import InvalidInput
from omoide.service.auth import hash_key
from omoide.wiring import Omoide

ACCEPT = {"Accept": "application/json, text/event-stream"}


def test_a_persona_issues_lists_and_revokes_its_own_keys(server: LiveServer) -> None:
    first = server.create_persona("rin")
    with server.client(first) as rin:
        issued = rin.post("/api/personas/rin/keys")
        assert issued.status_code == 201, issued.text
        body = issued.json()
        second = body["api_key"]
        assert second != first and body["persona"] == "rin"
        assert body["fingerprint"] == hash_key(second)[:8]
        listed = rin.get("/api/personas/rin/keys").json()["keys"]
    assert [k["key_id"] for k in listed][-1] == body["key_id"]
    assert len(listed) == 2 and all(k["revoked_at"] is None for k in listed)
    assert all(
        set(k) == {"key_id", "fingerprint", "created_at", "last_used_at", "revoked_at"}
        for k in listed
    )
    with server.client(second) as rin2:
        assert rin2.get("/api/memories/rin").status_code == 200
        revoked = rin2.delete(f"/api/personas/rin/keys/{listed[0]['key_id']}")
        assert revoked.status_code == 200, revoked.text
        assert revoked.json()["revoked_at"] is not None
    with server.client(first) as old:
        refused = old.get("/api/memories/rin")
    assert refused.status_code == 401
    assert refused.json()["error"]["code"] == "unauthorized"
    with server.client(second) as rin2:
        assert rin2.get("/api/memories/rin").status_code == 200


def test_keys_of_another_persona_are_out_of_reach(server: LiveServer) -> None:
    rin = server.create_persona("rin")
    server.create_persona("kai")
    with server.admin() as admin:
        kai_key_id = admin.get("/api/personas/kai/keys").json()["keys"][0]["key_id"]
    with server.client(rin) as c:
        assert c.post("/api/personas/kai/keys").status_code == 403
        assert c.get("/api/personas/kai/keys").status_code == 403
        assert c.delete(f"/api/personas/kai/keys/{kai_key_id}").status_code == 403
        # Naming kai's key under rin's own persona finds nothing to revoke.
        missing = c.delete(f"/api/personas/rin/keys/{kai_key_id}")
        assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"
        assert c.delete("/api/personas/rin/keys/0").status_code == 422
        assert c.delete("/api/personas/rin/keys/x").status_code == 422
    with server.admin() as admin:
        assert admin.get("/api/personas/nobody/keys").status_code == 404
    with server.client() as anonymous:
        assert anonymous.get("/api/personas/rin/keys").status_code == 401


def test_the_admin_gives_a_persona_that_lost_its_key_a_new_one(server: LiveServer) -> None:
    lost = server.create_persona("rin")
    with server.admin() as admin:
        old_id = admin.get("/api/personas/rin/keys").json()["keys"][0]["key_id"]
        assert admin.delete(f"/api/personas/rin/keys/{old_id}").status_code == 200
        fresh = admin.post("/api/personas/rin/keys")
    assert fresh.status_code == 201
    with server.client(lost) as c:
        assert c.get("/api/memories/rin").status_code == 401
    new_key = fresh.json()["api_key"]

    async def scenario() -> None:
        async with http_client(server.url, new_key) as client:
            await ok(client, "memory_create", content="I found my key again")

    anyio.run(scenario)


def test_a_revoked_key_stops_working_on_mcp_at_once(server: LiveServer) -> None:
    key = server.create_persona("rin")
    with server.client(key) as c:
        key_id = c.get("/api/personas/rin/keys").json()["keys"][0]["key_id"]

    async def scenario() -> None:
        async with http_client(server.url, key) as client:
            await ok(client, "memory_create", content="Revocation is immediate")
            with server.admin() as admin:
                assert admin.delete(f"/api/personas/rin/keys/{key_id}").status_code == 200
            with pytest.raises(Exception):  # noqa: B017 - the SDK surfaces the 401 its own way
                await client.call_tool("memory_search", {"query": "revocation"})

    anyio.run(scenario)
    reply = httpx.post(
        f"{server.url}/mcp", json=INITIALIZE, headers={**ACCEPT, "Authorization": f"Bearer {key}"}
    )
    assert reply.status_code == 401


def test_last_use_is_written_at_most_once_a_minute(server: LiveServer, clock: FixedClock) -> None:
    key = server.create_persona("rin")
    store = server.omoide.store

    def last_used() -> str | None:
        server.omoide.auth.flush()
        row = (
            store.db.conn()
            .execute("SELECT last_used_at FROM api_keys WHERE key_hash = ?", (hash_key(key),))
            .fetchone()
        )
        return row[0]

    assert last_used() is None
    with server.client(key) as c:
        c.get("/api/memories/rin")
        first = last_used()
        assert first is not None
        with store.db.trace() as statements:
            clock.advance(seconds=59)
            c.get("/api/memories/rin")
        assert last_used() == first
        assert not any("last_used_at" in s for s in statements)
        clock.advance(seconds=2)
        c.get("/api/memories/rin")
        assert last_used() > first
        shown = c.get("/api/personas/rin/keys").json()["keys"][0]["last_used_at"]
    assert shown is not None


def test_a_replaced_admin_key_stops_working(make_app, data_dir: Path) -> None:
    old, new = "old-admin-key-0123456789", "new-admin-key-9876543210"
    first: Omoide = make_app()
    first.auth.ensure_admin_key(data_dir, old)
    assert first.auth.authenticate(f"Bearer {old}").is_admin
    second: Omoide = make_app()  # the server restarted with another OMOIDE_ADMIN_KEY
    second.auth.ensure_admin_key(data_dir, new)
    assert second.auth.authenticate(f"Bearer {new}").is_admin
    with pytest.raises(Exception, match="revoked"):
        second.auth.authenticate(f"Bearer {old}")
    # Back to the old one: it works again, and the new one stops.
    second.auth.ensure_admin_key(data_dir, old)
    assert second.auth.authenticate(f"Bearer {old}").is_admin
    with pytest.raises(Exception, match="revoked"):
        second.auth.authenticate(f"Bearer {new}")


def test_a_short_admin_key_is_refused(app: Omoide, data_dir: Path) -> None:
    with pytest.raises(InvalidInput, match="at least 16"):
        app.auth.ensure_admin_key(data_dir, "admin")


def test_no_key_text_is_stored_beside_its_hash(server: LiveServer) -> None:
    key = server.create_persona("rin")
    rows = server.omoide.store.db.conn().execute("SELECT prefix FROM api_keys").fetchall()
    assert all(len(r[0]) == 8 for r in rows)
    assert not any(r[0] in key or r[0] in server.admin_key for r in rows)


def test_a_revoked_key_ends_its_dashboard_session(server: LiveServer) -> None:
    key = server.create_persona("rin")
    with server.signed_in(key) as browser:
        assert browser.get("/p/rin").status_code == 200
        with server.client(key) as rin:
            key_id = rin.get("/api/personas/rin/keys").json()["keys"][0]["key_id"]
            assert rin.delete(f"/api/personas/rin/keys/{key_id}").status_code == 200
        after = browser.get("/p/rin")
    assert after.status_code in (303, 401) and "rin" not in after.headers.get("location", "")
