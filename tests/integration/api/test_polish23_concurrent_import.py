"""Session 23's probe: four identical imports sent at once stored the data once, but their
reports together counted its turns several times. A report counts what its own request wrote,
and what it found already there as skipped. Through real HTTP on both stores."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from omoide_testing import LiveServer, exported_lines

TURNS = [
    {"role": "user", "content": f"Turn {i}: I keep bees on the roof."}
    if i % 2 == 0
    else {"role": "assistant", "content": f"Turn {i}: how many hives?"}
    for i in range(12)
]


def _at_once(server: LiveServer, key: str, send: Any, n: int = 4) -> list[dict[str, Any]]:
    def one(_: int) -> dict[str, Any]:
        with server.client(key) as client:
            reply = send(client)
            assert reply.status_code == 200, reply.text
            return reply.json()

    with ThreadPoolExecutor(n) as pool:
        return list(pool.map(one, range(n)))


def test_identical_chat_imports_at_once_count_each_turn_once(server: LiveServer) -> None:
    key = server.create_persona("rin")
    body = json.dumps({"title": "Bees", "messages": TURNS}).encode()
    reports = _at_once(
        server, key, lambda c: c.post("/api/import/rin", params={"source": "chat"}, content=body)
    )
    assert sum(r["events"] for r in reports) == len(TURNS), reports
    handle = server.omoide.store.sessions("rin")
    stored = handle.events_after(handle.get(reports[0]["session_ids"][0]), 0)
    assert [e.content for e in stored] == [t["content"] for t in TURNS]


def test_identical_export_imports_at_once_count_each_session_once(server: LiveServer) -> None:
    key = server.create_persona("src")
    with server.client(key) as src:
        for s in range(3):
            assert src.post("/api/sessions/src", json={"session_id": f"s{s}"}).status_code == 201
            events = [
                {
                    "speaker": "Ken" if t["role"] == "user" else "Rin",
                    "role": t["role"],
                    "content": f"{t['content']} ({s})",
                }
                for t in TURNS
            ]
            assert src.post(
                f"/api/sessions/src/s{s}/events", json={"events": events}
            ).status_code in (200, 201)
        assert src.post("/api/memories/src", json={"content": "Ken keeps bees."}).status_code == 201
        lines = exported_lines(src, "src")
    body = "\n".join(json.dumps(r) for r in lines).encode()
    sessions = sum(1 for r in lines if r["type"] == "session")
    memories = sum(1 for r in lines if r["type"] == "memory")
    turns = sum(1 for r in lines if r["type"] == "event")
    target = server.create_persona("copy")
    reports = _at_once(
        server,
        target,
        lambda c: c.post(
            "/api/import/copy",
            params={"merge": "true"},
            content=body,
            headers={"content-type": "application/x-ndjson"},
        ),
    )
    assert sum(r["sessions"] for r in reports) == sessions, reports
    assert sum(r["events"] for r in reports) == turns, reports
    assert sum(r["memories"] for r in reports) == memories, reports
    # what a request did not write it reports as skipped: every record is counted once
    assert sum(r["skipped"] for r in reports) == 3 * (sessions + memories), reports
