"""A merge import deduplicates as the same memories posted one after another: two lines of one
file that duplicate each other (same batch) store one memory, as a second POST of the same text
is refused, and a link that named the dropped one goes to the kept one. Real HTTP."""

from __future__ import annotations

import json

import httpx
from omoide_testing import LiveServer

NDJSON = {"content-type": "application/x-ndjson"}
TEXT = "Ken drinks green tea every morning."


def _export_with_a_copy(rin: httpx.Client) -> tuple[bytes, str, str, str]:
    """rin's export with its one memory's line repeated under another key, and a link from
    the copy to a second memory; returns the file, the memory's key, the copy's and the
    second memory's."""
    first = rin.post("/api/memories/rin", json={"content": TEXT})
    other = rin.post("/api/memories/rin", json={"content": "Ken's sister lives in Sapporo."})
    assert first.status_code == 201 and other.status_code == 201, (first.text, other.text)
    key, other_key = first.json()["memory"]["key"], other.json()["memory"]["key"]
    exported = rin.get("/api/export/rin")
    assert exported.status_code == 200
    lines = [json.loads(line) for line in exported.content.splitlines() if line.strip()]
    at = next(i for i, r in enumerate(lines) if r.get("type") == "memory" and r["key"] == key)
    copy = {**lines[at], "key": "mem_00c0ffee00c0ffee"}
    lines.insert(at + 1, copy)
    lines.insert(
        len(lines) - 1,
        {
            "type": "link",
            "a": copy["key"],
            "b": other_key,
            "link_type": "SEMANTIC",
            "weight": 0.5,
            "co_activation_count": 0,
            "last_activated": None,
        },
    )
    lines[-1]["records"] = len(lines) - 2
    return (b"\n".join(json.dumps(r).encode() for r in lines) + b"\n", key, copy["key"], other_key)


def test_two_lines_of_one_batch_that_are_duplicates_store_one(server: LiveServer) -> None:
    with server.client(server.create_persona("rin")) as rin:
        # the same text posted twice: the second is a duplicate (what a merge must match)
        assert rin.post("/api/memories/rin", json={"content": "Rin paints."}).status_code == 201
        again = rin.post("/api/memories/rin", json={"content": "Rin paints."})
        assert again.json()["status"] == "duplicate", again.text
        body, key, copy, other = _export_with_a_copy(rin)
    with server.client(server.create_persona("kai")) as kai:
        assert kai.post("/api/memories/kai", json={"content": "Kai swims."}).status_code == 201
        reply = kai.post("/api/import/kai", params={"merge": True}, content=body, headers=NDJSON)
        assert reply.status_code == 200, reply.text
        report = reply.json()
        assert report["duplicates"] == 1, report
        contents = [
            m["content"]
            for m in kai.get("/api/memories/kai", params={"limit": 50}).json()["memories"]
        ]
        assert contents.count(TEXT) == 1, contents
        moved = report["moved_keys"]  # rin's keys are taken: kai's copies get new ones
        assert kai.get(f"/api/memories/kai/{moved.get(copy, copy)}").status_code == 404
        kept = moved.get(key, key)
        assert kai.get(f"/api/memories/kai/{kept}").status_code == 200
        links = kai.get(f"/api/memories/kai/{kept}/links")
        assert links.status_code == 200, links.text
        # the copy's link went to the memory it duplicates
        assert moved.get(other, other) in links.text
