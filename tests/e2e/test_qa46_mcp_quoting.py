"""A name the client chose, or a place in an argument made of its keys, is quoted in a tool
error as HTTP's refusals name it (``engine.errors.named``/``spelled``): its control characters,
DEL, C1 and bidirectional controls escaped as JSON escapes them (qa46b). MCP wrote
``argument 'metadata.a‮b'`` with the U+202E raw, and ``unknown argument`` in Python's repr
(``"it's\\x7f"``); HTTP wrote a path of the client's keys raw as well."""

from __future__ import annotations

from typing import Any

import pytest
from mcp_checks import in_process_tool_error
from omoide_testing import LiveServer

_TURN = {"speaker": "Ken", "content": "hi"}


@pytest.mark.parametrize(
    ("tool", "arguments", "said"),
    [
        pytest.param(
            "memory_search",
            {"query": "tea", "it's\x7f": 1},
            "unknown argument 'it's\\u007f'; memory_search takes query",
            id="unknown-argument-del",
        ),
        pytest.param(
            "memory_search",
            {"query": "tea", "a\u202eb\n": 1},
            "unknown argument 'a\\u202eb\\n'",
            id="unknown-argument-bidi",
        ),
        pytest.param(
            "memory_create",
            {"content": "tea", "metadata": {"a\u202eb\n": "x\x00"}},
            "argument 'metadata.a\\u202eb\\n' holds a NUL character",
            id="nul-under-a-key",
        ),
        pytest.param(
            "session_record",
            {"session_id": "s1", "turns": [{**_TURN, "x\u0085\u202e": 1}]},
            "invalid argument 'turns[0].x\\u0085\\u202e' is not a field this takes",
            id="schema-clause",
        ),
        pytest.param(
            "memory_create",
            {"content": "tea", "metadata": {"x\u202e": {"\u00e9": 1, "e\u0301": 2}}},
            "metadata.x\\u202e names the key 'é' twice once its Unicode is normalised",
            id="nfc-twice",
        ),
    ],
)
def test_a_tool_error_quotes_the_clients_names_as_http_does(
    server: LiveServer, tool: str, arguments: dict[str, Any], said: str
) -> None:
    server.create_persona("rin")
    message = in_process_tool_error(server.omoide, "rin", tool, **arguments)
    assert said in message, message
    for raw in ("\u202e", "\n", "\x7f", "\x85", "\\x"):
        assert raw not in message, message


def test_http_names_a_path_of_the_clients_keys_escaped_and_keeps_the_field_whole(
    server: LiveServer,
) -> None:
    server.create_persona("rin")
    with server.admin() as admin:
        nul = admin.post(
            "/api/memories/rin", json={"content": "tea", "metadata": {"a\u202eb\n": "x\x00"}}
        )
        unknown = admin.post("/api/memories/rin", json={"content": "tea", "a\u202eb\n": 1})
    assert nul.status_code == unknown.status_code == 422
    error = nul.json()["error"]
    assert error["message"].startswith("metadata.a\\u202eb\\n holds a NUL character"), error
    assert error["field"] == "metadata.a\u202eb\n"
    error = unknown.json()["error"]
    assert error["message"].startswith("a\\u202eb\\n is not a field this takes"), error
    assert error["field"] == "a\u202eb\n"
