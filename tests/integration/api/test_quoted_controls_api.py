"""Session 45: a refusal that quotes what the caller sent (``no memory '…'``, a ``date_range``
or ``mode`` it cannot read, …) wrote DEL, the C1 controls and the bidirectional overrides raw
(JSON's quoting escapes U+0000-U+001F only), so a key or a query ending in U+202E reversed the
rest of the message where it is shown. Each is written as JSON writes a C0 control
(``\\u202e``), through the one quoting of ``engine.errors``, as the 404's path already was.
Real HTTP and the MCP SDK's client over /mcp."""

from __future__ import annotations

from typing import Any

import anyio
import httpx
import pytest
from mcp_checks import http_client, tool_error
from omoide_testing import LiveServer, refused

pytestmark = pytest.mark.sqlite_only  # the messages' words, the same on either store

_RAW = "\x7f\x85\x9f\u202a\u202e\u2066\u2069"


def _no_raw_control(message: str) -> None:
    assert not any(c in message for c in _RAW), ascii(message)


@pytest.mark.parametrize(
    ("path", "params", "status", "said"),
    [
        pytest.param(
            "/api/memories/rin/k%7F%C2%85%E2%80%AE",
            {},
            404,
            "no memory 'k\\u007f\\u0085\\u202e' for persona 'rin'",
            id="no-memory",
        ),
        pytest.param(
            "/api/search/rin",
            {"q": "tea", "date_range": "last\x7f week\u202e"},
            422,
            'cannot read "last\\u007f week\\u202e" as a date range',
            id="date_range",
        ),
        pytest.param(
            "/api/search/rin",
            {"q": "tea", "mode": "hybrid\u2066"},
            422,
            'got "hybrid\\u2066"',
            id="mode",
        ),
        pytest.param(
            "/api/search/rin",
            {"q": "tea", "valid_at": "2026\x85"},
            422,
            '"2026\\u0085"',
            id="valid_at",
        ),
    ],
)
def test_a_refusal_quoting_the_request_escapes_del_c1_and_bidi_controls(
    rin: httpx.Client, path: str, params: dict[str, str], status: int, said: str
) -> None:
    error = refused(rin.get(path, params=params), status)
    assert said in error["message"], error
    _no_raw_control(error["message"])


@pytest.mark.parametrize(
    ("tool", "arguments", "said"),
    [
        pytest.param(
            "memory_read",
            {"key": "k\x85\u202e"},
            "no memory 'k\\u0085\\u202e' for persona 'rin'",
            id="no-memory",
        ),
        pytest.param(
            "memory_search",
            {"query": "tea", "date_range": "x\u202e"},
            'cannot read "x\\u202e" as a date range',
            id="date_range",
        ),
        pytest.param(
            "memory_search",
            {"query": "tea", "mode": "keyword\x7f"},
            '(got "keyword\\u007f")',
            id="mode",
        ),
    ],
)
def test_a_tool_error_quoting_an_argument_escapes_del_c1_and_bidi_controls(
    server: LiveServer, tool: str, arguments: dict[str, Any], said: str
) -> None:
    key = server.create_persona("rin")

    async def scenario() -> str:
        async with http_client(server.url, key) as client:
            return await tool_error(client, tool, **arguments)

    message = anyio.run(scenario)
    assert said in message, message
    _no_raw_control(message)
