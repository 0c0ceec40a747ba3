"""MCP over stdio: a line that is not a JSON-RPC message is answered (the SDK dropped it after a
debug log, and the client waited for nothing). A parse error (-32700) for a line that is not
JSON, an invalid request naming the field for JSON that is no message, with ``"id": null``
unless the line's id could be read; a blank line is skipped, and the session serves on. A line
whose bytes are not UTF-8 is a parse error that says so (it read as "expected a value")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from mcp_checks import OPENING_LINES, stdio_answers


@pytest.mark.sqlite_only
def test_lines_that_are_not_messages_are_answered_and_the_session_serves_on(
    data_dir: Path, persona: str, store_environ: dict[str, str]
) -> None:
    answers = stdio_answers(
        data_dir,
        persona,
        store_environ,
        [
            "hello",
            "",
            '{"jsonrpc": "2.0", "id": 1',
            "[]",
            '{"jsonrpc": "2.0", "id": 7, "method": 5}',
            *OPENING_LINES,
            '{"jsonrpc": "2.0", "id": 2, "method": "tools/list"}',
        ],
        expected=6,
    )
    errors = [a for a in answers if "error" in a]
    assert [(e["id"], e["error"]["code"]) for e in errors] == [
        (None, -32700),
        (None, -32700),
        (None, -32600),
        (7, -32600),
    ]
    assert errors[0]["error"]["message"].startswith(
        "Parse error: not valid JSON: expected a value (a string in double quotes, a number, "
        "an object, an array, true, false or null) (line 1, column 1): each line is one "
        "JSON-RPC message"
    )
    assert errors[1]["error"]["message"].startswith(
        "Parse error: not valid JSON: the text ends before the JSON value is complete"
    )
    assert "a JSON array (a batch) is not accepted" in errors[2]["error"]["message"]
    assert errors[3]["error"]["message"] == "'method' must be a string, e.g. \"tools/list\" (got 5)"
    results = {a["id"]: a["result"] for a in answers if "result" in a}
    assert results[1]["serverInfo"]["name"] == "omoide"  # the session opened after them
    assert "memory_search" in {tool["name"] for tool in results[2]["tools"]}
    assert all("pydantic" not in json.dumps(a) for a in answers)


@pytest.mark.sqlite_only
def test_a_line_that_is_not_utf8_is_refused_as_such_and_the_session_serves_on(
    data_dir: Path, persona: str, store_environ: dict[str, str]
) -> None:
    latin1 = '{"jsonrpc": "2.0", "id": 3, "method": "tools/list", "params": {"q": "café"}}'
    answers = stdio_answers(
        data_dir,
        persona,
        store_environ,
        [
            b"\xff\xfe{",
            latin1.encode("latin-1"),
            *OPENING_LINES,
            '{"jsonrpc": "2.0", "id": 2, "method": "tools/list"}',
        ],
        expected=4,
    )
    errors = [a for a in answers if "error" in a]
    assert [(e["id"], e["error"]["code"]) for e in errors] == [(None, -32700), (None, -32700)]
    assert errors[0]["error"]["message"].startswith(
        "Parse error: not UTF-8 (byte 0); it is UTF-16 (it starts with a UTF-16 byte order "
        "mark): save or send it as UTF-8: each line is one JSON-RPC message in UTF-8"
    )
    assert errors[1]["error"]["message"].startswith(
        f"Parse error: not UTF-8 (byte {latin1.index('é')}): each line is one JSON-RPC "
        "message in UTF-8, e.g. "
    )
    assert all("expected a value" not in e["error"]["message"] for e in errors)
    results = {a["id"]: a["result"] for a in answers if "result" in a}
    assert "memory_search" in {tool["name"] for tool in results[2]["tools"]}
