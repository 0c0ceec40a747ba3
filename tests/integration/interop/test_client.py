"""``omoide.client`` against a live server: every route, sync and async, errors as the
server's own exception classes."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, date, datetime, timedelta, timezone
from pathlib import Path

import pytest
from omoide_testing import LiveServer

from omoide.client import AsyncClient, Client
from omoide.errors import (
    Conflict,
    Forbidden,
    InvalidInput,
    LLMNotConfigured,
    NotFound,
    Unauthorized,
)

# Every HTTP route (method, path template) and the client method that calls it.
ROUTES = {
    ("POST", "/api/personas"): "create_persona",
    ("GET", "/api/personas"): "list_personas",
    ("DELETE", "/api/personas/{name}"): "delete_persona",
    ("POST", "/api/memories/{persona}"): "create_memory",
    ("GET", "/api/memories/{persona}"): "list_memories",
    ("GET", "/api/memories/{persona}/{key}"): "get_memory",
    ("PATCH", "/api/memories/{persona}/{key}"): "update_memory",
    ("DELETE", "/api/memories/{persona}/{key}"): "delete_memory",
    ("GET", "/api/memories/{persona}/{key}/history"): "memory_history",
    ("GET", "/api/memories/{persona}/{key}/links"): "memory_links",
    ("GET", "/api/stats/{persona}"): "stats",
    ("GET", "/api/search/{persona}"): "search",
    ("POST", "/api/sessions/{persona}"): "open_session",
    ("GET", "/api/sessions/{persona}"): "list_sessions",
    ("POST", "/api/sessions/{persona}/{session_id}/events"): "record_events",
    ("POST", "/api/sessions/{persona}/{session_id}/end"): "end_session",
    ("GET", "/api/sessions/{persona}/{session_id}/episodes"): "session_episodes",
    ("DELETE", "/api/sessions/{persona}/{session_id}"): "delete_session",
    ("GET", "/api/user-state/{persona}"): "get_state",
    ("PUT", "/api/user-state/{persona}"): "update_state",
    ("GET", "/api/user-state/{persona}/history"): "state_history",
    ("GET", "/api/persona-state/{persona}"): "get_state",
    ("PUT", "/api/persona-state/{persona}"): "update_state",
    ("GET", "/api/persona-state/{persona}/history"): "state_history",
    ("GET", "/api/blocks/{persona}"): "list_blocks",
    ("GET", "/api/blocks/{persona}/{block_name}"): "get_block",
    ("POST", "/api/blocks/{persona}"): "write_block",
    ("DELETE", "/api/blocks/{persona}/{block_name}"): "delete_block",
    ("GET", "/api/context/{persona}"): "get_context",
    ("POST", "/api/context/{persona}/session"): "begin_session",
    ("PUT", "/api/context/{persona}"): "update_context",
    ("GET", "/api/settings/{persona}"): "get_settings",
    ("PUT", "/api/settings/{persona}"): "update_settings",
    ("GET", "/api/jobs/{persona}"): "jobs",
    ("GET", "/api/jobs/{persona}/wait"): "wait_for_jobs",
    ("GET", "/health"): "health",
    ("GET", "/metrics"): "metrics",
    ("GET", "/v1/models"): "models",
    ("GET", "/v1/models/{model}"): "get_model",
    ("POST", "/v1/chat/completions"): "chat_completion",
    ("GET", "/api/export/{persona}"): "export_lines",
    ("POST", "/api/import/{persona}"): "import_file",
    ("POST", "/api/personas/{name}/keys"): "issue_key",
    ("GET", "/api/personas/{name}/keys"): "list_keys",
    ("DELETE", "/api/personas/{name}/keys/{key_id}"): "revoke_key",
}


def test_every_route_has_a_client_method(server: LiveServer) -> None:
    from omoide.api.http.app import create_app

    schema = create_app(server.omoide, start_workers=False).openapi()
    served = {
        (method.upper(), path)
        for path, operations in schema["paths"].items()
        for method in operations
        if path.startswith(("/api/", "/v1/", "/health", "/metrics"))
    }
    assert served == set(ROUTES)
    for name in set(ROUTES.values()):
        assert getattr(Client, name).__doc__, name
        assert getattr(AsyncClient, name).__doc__, name


def test_sync_client_covers_the_api(server: LiveServer, tmp_path: Path) -> None:
    with Client(server.url, server.admin_key) as admin:
        key = admin.create_persona("rin").api_key
        assert [p.name for p in admin.list_personas().personas] == ["rin"]
        assert "omoide_" in admin.metrics()
        spare = admin.issue_key("rin")
        assert spare.persona == "rin" and spare.api_key
        assert spare.key_id in [k.key_id for k in admin.list_keys("rin").keys]
        assert admin.revoke_key("rin", spare.key_id).revoked_at is not None
    with Client(server.url, spare.api_key) as revoked, pytest.raises(Unauthorized):
        revoked.list_memories("rin")
    with Client(server.url, key) as c:
        assert c.health().status == "ok"
        made = c.create_memory(
            "rin",
            "The user lives in Tokyo with two cats",
            tags=["home"],
            importance=0.7,
            metadata={"from": "client"},
        )
        assert made.status == "created" and made.memory is not None
        memory_key = made.memory.key
        assert made.memory.metadata == {"from": "client"}
        assert c.create_memory("rin", "The user lives in Tokyo with two cats").status == "duplicate"
        assert c.get_memory("rin", memory_key).tags == ["home"]
        assert c.update_memory("rin", memory_key, tags=["home", "pets"]).tags == ["home", "pets"]
        assert [v.change for v in c.memory_history("rin", memory_key).versions] == [
            "create",
            "update",
        ]
        assert c.memory_links("rin", memory_key).links == []
        assert c.list_memories("rin", limit=5).memories[0].key == memory_key
        hits = c.search("rin", "where does the user live", tags=["home"], top_k=3)
        assert hits.results[0].key == memory_key
        assert c.stats("rin").active == 1
        assert c.open_session("rin", "s1").created is True
        assert (
            c.record_events(
                "rin",
                "s1",
                [
                    {
                        "speaker": "Rin",
                        "role": "user",
                        "content": "I like hiking",
                        "external_id": "1",
                    }
                ],
            ).accepted
            == 1
        )
        assert c.end_session("rin", "s1").queued is True
        assert c.wait_for_jobs("rin", timeout=30).drained is True
        assert c.jobs("rin").pending == 0
        assert c.session_episodes("rin", "s1").session_id == "s1"
        listed = c.list_sessions("rin", limit=5).sessions
        assert [(x.session_id, x.status, x.events) for x in listed] == [("s1", "ended", 1)]
        assert c.update_state("rin", {"name": "Rin"}).changed == ["name"]
        assert c.get_state("rin").state == {"name": "Rin"}
        assert c.update_state("rin", {"mood": "calm"}, whose="persona").changed == ["mood"]
        assert c.get_state("rin", "persona").state == {"mood": "calm"}
        assert c.state_history("rin", "name").history[0].value == "Rin"
        assert c.state_history("rin", "mood", whose="persona").history[0].value == "calm"
        assert c.write_block("rin", "persona", "You are Haru.", priority=3).ok is True
        assert [b.block_name for b in c.list_blocks("rin").blocks] == ["persona"]
        assert c.get_block("rin", "persona").content == "You are Haru."
        assert "The user lives in Tokyo" in c.get_context("rin").text
        assert c.update_context("rin", user_info={"city": "Tokyo"})
        assert c.begin_session("rin").session_id
        assert c.update_settings("rin", dedup_threshold=0.9).overrides == {"dedup_threshold": 0.9}
        assert c.get_settings("rin").settings["dedup_threshold"] == 0.9
        assert c.models().object == "list"
        assert c.get_model("omoide") == c.models().data[0]
        with pytest.raises(NotFound):
            c.get_model("gpt-4o")
        with pytest.raises(LLMNotConfigured):
            c.chat_completion([{"role": "user", "content": "hi"}])
        exported = tmp_path / "rin.jsonl"
        assert c.export_to("rin", exported) == len(list(c.export_lines("rin")))
        assert json.loads(exported.read_text().splitlines()[0])["type"] == "header"
        with pytest.raises(Conflict):
            c.import_file("rin", exported.read_bytes().replace(b'"s1"', b'"s2"'))
        assert c.delete_block("rin", "persona").ok is True
        assert c.delete_session("rin", "s1", with_notes=True).status == "erased"
        assert c.delete_memory("rin", memory_key).status == "tombstoned"
        assert c.delete_memory("rin", memory_key, purge=True).status == "purged"
        with pytest.raises(NotFound) as missing:
            c.get_memory("rin", memory_key)
        assert (missing.value.status, missing.value.code) == (404, "not_found")
        with pytest.raises(InvalidInput, match="importance"):
            c.create_memory("rin", "x", importance=3)
        with pytest.raises(Forbidden):
            c.list_personas()
    with Client(server.url, server.admin_key) as admin:
        other = admin.create_persona("copy").api_key
        with Client(server.url, other) as c:
            assert c.import_file("copy", exported).memories >= 1
        assert admin.delete_persona("copy").status == "erased"
    with Client(server.url, "omo_p_wrong") as nobody, pytest.raises(Unauthorized):
        nobody.stats("rin")


def test_async_client(server: LiveServer) -> None:
    key = server.create_persona("rin")

    async def scenario() -> None:
        async with AsyncClient(server.url, key) as c:
            made = await c.create_memory("rin", "The user plays the cello", tags=["music"])
            found = await c.search("rin", "what instrument", tags=["music"])
            assert made.memory is not None and found.results[0].key == made.memory.key
            lines = [line async for line in c.export_lines("rin")]
            assert json.loads(lines[-2])["type"] == "memory"
            assert json.loads(lines[-1]) == {"type": "end", "records": len(lines) - 2}
            assert (await c.import_file("rin", "".join(lines).encode())).memories == 0
            with pytest.raises(NotFound):
                await c.get_memory("rin", "mem_nothing")
            with pytest.raises(Forbidden):  # another persona's data, with this key
                async for _ in c.export_lines("nobody-here"):
                    pass

    asyncio.run(scenario())


def test_the_client_sends_aware_datetimes_and_refuses_naive_ones(server: LiveServer) -> None:
    """A datetime given to the client failed inside httpx ("not JSON serializable") in a body
    and went out as "2026-05-01 09:00:00" in a query; an aware one is sent as ISO-8601 with its
    offset, a naive one is refused before anything is sent, as the server would refuse it."""
    key = server.create_persona("rin")
    tokyo = timezone(timedelta(hours=9))
    with Client(server.url, key) as c:
        made = c.create_memory(
            "rin", "Ken moved to Kyoto.", valid_from=datetime(2026, 5, 1, 9, 0, tzinfo=tokyo)
        )
        assert made.memory is not None
        assert made.memory.valid_from == "2026-05-01T00:00:00+00:00"
        assert c.search("rin", "Kyoto", valid_at=datetime(2026, 6, 1, tzinfo=UTC)).results
        assert c.open_session("rin", "s1", started_at=date(2026, 11, 29)).session_id == "s1"
        with pytest.raises(ValueError, match=r"valid_until.*no UTC offset"):
            c.update_memory("rin", made.memory.key, valid_until=datetime(2026, 7, 1))
        with pytest.raises(ValueError, match=r"events\[0\].timestamp.*no UTC offset"):
            c.record_events(
                "rin",
                "s1",
                [{"speaker": "Ken", "content": "hi", "timestamp": datetime(2026, 11, 29, 9)}],
            )
        assert c.get_memory("rin", made.memory.key).valid_until is None
