"""An unexpected error under /mcp answers as JSON-RPC (session 32): a 500 whose body is a
JSON-RPC error (id null, -32603, plain words, no trace), not the HTTP API's JSON error body,
which an MCP client does not read. Through a real uvicorn server."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp_checks import INITIALIZE
from omoide_testing import LiveServer

from omoide.api.mcp import http as mcp_http

ACCEPT = {"Accept": "application/json, text/event-stream"}


def _fail(*_: Any, **__: Any) -> Any:
    raise RuntimeError("injected: a secret detail /tmp/x.db")


async def _fail_async(*_: Any, **__: Any) -> Any:
    _fail()


@pytest.mark.parametrize("where", ["key lookup", "SDK"])
def test_an_unexpected_error_under_mcp_is_a_json_rpc_internal_error(
    server: LiveServer, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    key = server.create_persona("rin")
    if where == "key lookup":  # before the SDK: the endpoint's own Bearer check
        monkeypatch.setattr(mcp_http, "persona_for_key", _fail)
    else:  # inside the SDK's transport
        monkeypatch.setattr(StreamableHTTPSessionManager, "handle_request", _fail_async)
    with httpx.Client(base_url=server.url, timeout=30) as client:
        reply = client.post(
            "/mcp", json=INITIALIZE, headers={**ACCEPT, "Authorization": f"Bearer {key}"}
        )
    assert reply.status_code == 500
    assert reply.headers["content-type"].startswith("application/json")
    assert reply.json() == {
        "jsonrpc": "2.0",
        "id": None,
        "error": {"code": -32603, "message": "internal error; see the server log"},
    }
    assert "Traceback" not in reply.text and "injected" not in reply.text
    monkeypatch.undo()
    # the fault gone, /mcp answers again
    with httpx.Client(base_url=server.url, timeout=30) as client:
        again = client.post(
            "/mcp", json=INITIALIZE, headers={**ACCEPT, "Authorization": f"Bearer {key}"}
        )
    assert again.status_code == 200, again.text


def test_an_unexpected_error_in_the_api_keeps_the_api_error_body(
    server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    key = server.create_persona("rin")
    monkeypatch.setattr(server.omoide.search, "search", _fail)
    with httpx.Client(
        base_url=server.url, timeout=30, headers={"Authorization": f"Bearer {key}"}
    ) as client:
        reply = client.get("/api/search/rin", params={"q": "tea"})
    assert reply.status_code == 500
    assert reply.json()["error"]["code"] == "internal"
    assert "jsonrpc" not in reply.json()
