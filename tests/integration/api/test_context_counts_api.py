"""Session 45: ``GET /api/context/{persona}`` (what ``get_context`` returns) closed on "1 active
memories (0 superseded), mean strength …, 1 links.": the counts are said singular for exactly
one and plural otherwise (``engine.counts``), as the MCP tools' text says them. Through real
HTTP, the link written by an import of an export file."""

from __future__ import annotations

import pytest
from omoide_testing import LiveServer, exported_lines, import_lines

pytestmark = pytest.mark.sqlite_only  # words, the same on either store


def _stats_line(server: LiveServer, key: str, persona: str) -> str:
    with server.client(key) as client:
        reply = client.get(f"/api/context/{persona}")
    assert reply.status_code == 200, reply.text
    return str(reply.json()["text"]).splitlines()[-1]


def test_context_stats_say_one_memory_and_one_link_in_the_singular(server: LiveServer) -> None:
    key = server.create_persona("src")
    with server.client(key) as client:
        one = client.post("/api/memories/src", json={"content": "Ken hikes on Sundays."})
        assert one.status_code == 201, one.text
    line = _stats_line(server, key, "src")
    assert line.startswith("1 active memory (0 superseded), mean strength "), line
    assert line.endswith(", 0 links."), line
    with server.client(key) as client:
        records = exported_lines(client, "src")  # writes a second memory
    a, b = (r["key"] for r in records if r["type"] == "memory")
    link = {
        "type": "link",
        "a": a,
        "b": b,
        "link_type": "SEMANTIC",
        "weight": 0.4,
        "co_activation_count": 1,
        "last_activated": None,
    }
    end = records.pop()
    into = server.create_persona("dst")
    with server.client(into) as client:
        lines = [*records, link, {**end, "records": end["records"] + 1}]
        reply = import_lines(client, "dst", lines)
        assert reply.status_code == 200, reply.text
    line = _stats_line(server, into, "dst")
    assert line.startswith("2 active memories (0 superseded), mean strength "), line
    assert line.endswith(", 1 link."), line
