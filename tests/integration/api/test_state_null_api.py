"""A state key set to null is closed: its current value stops being true, its history stays;
over HTTP (both state routes and PUT /api/context) and MCP's update_context."""

from __future__ import annotations

from typing import Any

import anyio
from mcp.client import Client
from mcp_checks import text_of
from omoide_testing import LiveServer

from omoide.api.mcp import build_mcp_server, fixed_persona


def test_null_closes_a_user_state_key_over_http(server: LiveServer) -> None:
    with server.client(server.create_persona("rin")) as rin:
        assert (
            rin.put("/api/user-state/rin", json={"name": "Rau", "nickname": "Ra"}).status_code
            == 200
        )
        reply = rin.put("/api/user-state/rin", json={"nickname": None})
        assert reply.status_code == 200, reply.text
        assert reply.json()["changed"] == ["nickname"]
        assert rin.get("/api/user-state/rin").json()["state"] == {"name": "Rau"}
        history = rin.get("/api/user-state/rin/history", params={"key": "nickname"}).json()
        assert [(v["value"], v["is_current"]) for v in history["history"]] == [("Ra", False)]
        assert history["history"][0]["valid_until"] is not None
        assert rin.put("/api/user-state/rin", json={"nickname": None}).json()["changed"] == []
        both = rin.put(
            "/api/context/rin",
            json={"user_info": {"name": None}, "persona_state": {"mood": "calm"}},
        )
        assert both.status_code == 200, both.text
        assert rin.get("/api/user-state/rin").json()["state"] == {}
        assert rin.put("/api/persona-state/rin", json={"mood": None}).json()["changed"] == ["mood"]
        assert rin.get("/api/persona-state/rin").json()["state"] == {}


def test_null_closes_a_user_state_key_over_mcp(server: LiveServer) -> None:
    with server.client(server.create_persona("rin")) as rin:
        rin.put("/api/user-state/rin", json={"name": "Rau", "nickname": "Ra", "city": "Oslo"})
    mcp = build_mcp_server(server.omoide, fixed_persona("rin"))

    async def scenario() -> dict[str, Any] | None:
        async with Client(mcp) as client:
            result = await client.call_tool(
                "update_context", {"user_info": {"nickname": None, "city": None}}
            )
            assert not result.is_error, text_of(result)
            return result.structured_content

    changed = anyio.run(scenario)
    assert changed is not None and sorted(changed["changed"]["user_info"]) == ["city", "nickname"]
    assert server.omoide.state.get_current_user_state("rin") == {"name": "Rau"}
    assert [e.value for e in server.omoide.state.get_user_state_history("rin", "city")] == ["Oslo"]
