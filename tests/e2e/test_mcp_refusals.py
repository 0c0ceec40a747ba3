"""What the SDK's own client shows when /mcp refuses a request before the SDK reads it (session
30): a wrong key, the admin key, a body over the limit. The refusal was the API's error body,
which the client cannot read as JSON-RPC and showed as "Server returned an error response"; it
is a JSON-RPC error now, whose message the client shows and whose ``data.code`` is the API's."""

from __future__ import annotations

from typing import Any

import anyio
import pytest
from mcp.shared.exceptions import MCPError
from mcp_checks import http_client, ok
from omoide_testing import LiveServer


def _refusal(error: BaseException) -> MCPError:
    """The one MCPError inside what the client raised (the SDK's task groups wrap it)."""
    while isinstance(error, BaseExceptionGroup):
        assert len(error.exceptions) == 1, error
        error = error.exceptions[0]
    assert isinstance(error, MCPError), repr(error)
    return error


def _shown(url: str, key: str, call: Any = None) -> MCPError:
    async def scenario() -> None:
        async with http_client(url, key) as client:
            if call is not None:
                await call(client)

    with pytest.raises(BaseException) as raised:  # an ExceptionGroup or the MCPError
        anyio.run(scenario)
    return _refusal(raised.value)


@pytest.mark.sqlite_only
@pytest.mark.parametrize(
    ("key", "says", "code"),
    [
        ("omo_p_not-a-real-key", "unknown or revoked API key", "unauthorized"),
        (None, "persona's API key", "forbidden"),  # the admin key
    ],
)
def test_a_refused_key_is_told_to_the_sdk_client(
    server: LiveServer, key: str | None, says: str, code: str
) -> None:
    error = _shown(server.url, key or server.admin_key)
    assert says in error.error.message, error.error
    assert error.error.data == {"code": code}
    assert "Server returned an error response" not in str(error)


@pytest.mark.sqlite_only
def test_a_call_over_the_body_limit_is_told_to_the_sdk_client(server: LiveServer) -> None:
    key = server.create_persona("rin")

    async def too_big(client: Any) -> None:
        await ok(client, "memory_create", content="tea")  # the session works before
        await client.call_tool("memory_create", {"content": "x" * 1_100_000})

    error = _shown(server.url, key, too_big)
    assert error.error.message == (
        "request body is larger than 1,000,000 bytes (the server's limit, OMOIDE_MAX_BODY_BYTES)"
    ), error.error
    assert error.error.data == {"code": "payload_too_large"}
