"""A plan contradicted before it began (evolution closes it at its planned start: an empty
window ahead of now) over real HTTP: search ranks it among closed facts by when it was given
up, and every surface says it never held (MCP/CLI text, dashboard), not "valid until" its
planned start."""

from __future__ import annotations

from datetime import timedelta

import httpx
from omoide_testing import LiveServer

from omoide.api.mcp.text import past_mark


def _add(client: httpx.Client, content: str, **fields: object) -> dict:
    reply = client.post("/api/memories/rin", json={"content": content, **fields})
    assert reply.status_code == 201, reply.text
    return reply.json()["memory"]


def _close(server: LiveServer, old: dict, new: dict, *, at_start: bool = False) -> None:
    """What evolution writes when ``new`` contradicts ``old``: at ``old``'s own start when it
    had not begun (``service/evolution._close_time``), else when ``new`` was said."""
    memories = server.omoide.store.memories("rin")
    stored = memories.get(old["key"])
    until = stored.valid_from if at_start else memories.get(new["key"]).created_at
    memories.update(
        old["key"],
        {"valid_until": until, "superseded_by": new["key"]},
        now=server.omoide.clock.now(),
        changed_by="test",
    )


def test_a_plan_given_up_ranks_by_when_and_reads_as_never_held(
    server: LiveServer, rin: httpx.Client
) -> None:
    clock = server.omoide.clock
    start = (clock.now() + timedelta(days=90)).date().isoformat()
    early = _add(rin, "zebra note one")
    plan = _add(rin, "zebra note two", valid_from=start)
    late = _add(rin, "zebra note three")
    successors = []
    for old, at_start in ((early, False), (plan, True), (late, False)):
        clock.advance(hours=1)  # type: ignore[attr-defined]
        successors.append(_add(rin, f"answer {len(successors)}"))
        _close(server, old, successors[-1], at_start=at_start)

    reply = rin.get("/api/search/rin", params={"q": "zebra note", "mode": "keyword", "top_k": 6})
    assert reply.status_code == 200, reply.text
    closed = [r for r in reply.json()["results"] if not r["current"]]
    assert [r["key"] for r in closed] == [late["key"], plan["key"], early["key"]]
    assert len({r["score"] for r in closed}) == 1  # a tie: the order is the closing order
    shown = next(r for r in closed if r["key"] == plan["key"])
    assert shown["current"] is False and shown["valid_until"] == shown["valid_from"]
    assert "never held: cancelled before its planned start" in past_mark(shown)

    with server.signed_in(server.admin_key) as browser:
        page = browser.get(f"/p/rin/memories/{plan['key']}")
        assert page.status_code == 200
        assert "never held: cancelled before its planned start" in page.text
        listed = browser.get("/p/rin/memories")
        assert listed.text.count("never held") == 1
