"""Session 24's probe over MCP (the SDK client, streamable HTTP): a session_id that breaks the
session id pattern was answered "no session"; HTTP names the rule. The tools now tell the rule
too, as HTTP words it, and the user-state key likewise."""

from __future__ import annotations

import anyio
import pytest
from mcp_checks import http_client, ok, tool_error
from omoide_testing import LiveServer

SESSION_RULE = "must be 1-128 ASCII letters, digits or _ . : @ - (no '/' or spaces)"


@pytest.mark.parametrize("tool", ["session_record", "session_end"])
def test_a_malformed_session_id_is_told_the_pattern(server: LiveServer, tool: str) -> None:
    key = server.create_persona("rin")
    turns = {"turns": [{"speaker": "Ken", "content": "hello"}]} if tool == "session_record" else {}

    async def scenario() -> None:
        async with http_client(server.url, key) as client:
            for bad in ("a b", "ses/1", "", "x" * 129):
                message = await tool_error(client, tool, session_id=bad, **turns)
                assert "'session_id'" in message and SESSION_RULE in message, message
                assert "no session" not in message and "^[" not in message, message
            # a well-formed unknown id is still "no session …; start one with session_begin"
            unknown = await tool_error(client, tool, session_id="ses_typo", **turns)
            assert "no session 'ses_typo'" in unknown, unknown
            begun = (await ok(client, "session_begin")).structured_content["session_id"]
            await ok(client, tool, session_id=begun, **turns)

    anyio.run(scenario)


def test_a_malformed_state_key_is_told_the_rule(server: LiveServer) -> None:
    key = server.create_persona("rin")

    async def scenario() -> None:
        async with http_client(server.url, key) as client:
            message = await tool_error(client, "user_state_history", key="first name")
            assert "'key'" in message, message
            assert (
                "must be 1-64 characters of any script (e.g. name or 名前) without spaces"
                in message
            ), message

    anyio.run(scenario)
