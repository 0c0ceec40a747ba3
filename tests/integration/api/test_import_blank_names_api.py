"""Session 45: an import file's blank name was refused in words of the file checks' own: an
Omoide export's ``speaker`` (or ``key``, ``session_id`` …) "must be non-empty text (got " ")",
a Mem0 memory's "'memory' must be non-empty text", an MCP memory entity's or relation's "needs
a name …"; and one of only invisible characters passed those checks, to be refused later
without the place it was at. Each is refused in the one wording of a blank text
(``NON_BLANK_RULE``), naming the line or memory it is at and what it holds. Real HTTP."""

from __future__ import annotations

import json
from typing import Any

import pytest
from omoide_testing import LiveServer, exported_lines, import_lines, refused

from omoide.service.validate import NON_BLANK_RULE

pytestmark = pytest.mark.sqlite_only  # the import's first pass, before the store, is under test


@pytest.mark.parametrize(
    ("kind", "field", "blank"),
    [
        pytest.param("event", "speaker", " ", id="speaker-space"),
        pytest.param("event", "speaker", "\u200b", id="speaker-invisible"),
        pytest.param("memory", "key", "\u3000", id="key"),
        pytest.param("block", "block_name", "", id="block-name-empty"),
    ],
)
def test_an_exports_blank_name_is_refused_in_the_one_wording_at_its_line(
    server: LiveServer, kind: str, field: str, blank: str
) -> None:
    with server.client(server.create_persona("src")) as client:
        records = exported_lines(client, "src")
    line = next(i for i, r in enumerate(records, 1) if r["type"] == kind)
    records[line - 1][field] = blank
    with server.client(server.create_persona("dst")) as client:
        error = refused(import_lines(client, "dst", records), 422)
    said = f'line {line}: {kind} record: {field} {NON_BLANK_RULE} (got "{blank}")'
    assert error["message"] == said, error
    assert error["line"] == line


@pytest.mark.parametrize(
    ("source", "body", "said"),
    [
        pytest.param(
            "mem0",
            json.dumps([{"memory": "Ken hikes."}, {"memory": " \u200b", "user_id": "u1"}]),
            f"mem0 file: memory 1: 'memory' {NON_BLANK_RULE} (got \" \u200b\")",
            id="mem0",
        ),
        pytest.param(
            "mem0",
            json.dumps([{"memory": 5}]),
            "mem0 file: memory 0: 'memory' must be a string (got 5)",
            id="mem0-number",
        ),
        pytest.param(
            "mcp-memory",
            '{"type": "entity", "name": " ", "entityType": "person", "observations": ["x"]}',
            f'mcp-memory file: line 1: an entity\'s name {NON_BLANK_RULE} (got " ")',
            id="mcp-entity",
        ),
        pytest.param(
            "mcp-memory",
            '{"type": "relation", "from": "Ken", "to": "Mia", "relationType": "\\u200b"}',
            f'mcp-memory file: line 1: a relation\'s relationType {NON_BLANK_RULE} (got "\u200b")',
            id="mcp-relation",
        ),
    ],
)
def test_another_systems_blank_name_is_refused_in_the_one_wording_where_it_is(
    server: LiveServer, source: str, body: Any, said: str
) -> None:
    with server.client(server.create_persona("rin")) as client:
        reply = client.post("/api/import/rin", params={"source": source}, content=body.encode())
        error = refused(reply, 422)
        assert error["message"] == said, error
        assert client.get("/api/memories/rin").json()["memories"] == []
