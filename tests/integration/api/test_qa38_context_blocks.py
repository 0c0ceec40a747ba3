"""Session 38: ``get_context`` with ``context_include_blocks`` on and a block larger than the
whole context budget (a block may hold up to 100,000 tokens, the budget is 2,000 by default).
The block was trimmed last among the blocks, after the stats, the memories and the last
conversation, and took them all with it: the context held the persona, user and session lines
only. It alone is left out now (counted in ``omitted``). Through real HTTP."""

from __future__ import annotations

import pytest
from omoide_testing import LiveServer

pytestmark = pytest.mark.sqlite_only  # the context's assembly, not the store, is under test


def test_a_block_over_the_whole_budget_leaves_the_rest_of_the_context(server: LiveServer) -> None:
    key = server.create_persona("rin")
    with server.client(key) as client:
        on = client.put("/api/settings/rin", json={"context_include_blocks": True})
        assert on.status_code == 200, on.text
        for block in (
            {
                "block_name": "story",
                "content": "長い物語。" * 600,
                "max_tokens": 5000,
                "priority": 9,
            },
            {"block_name": "persona_state", "content": "Rin is cheerful."},
        ):
            assert client.post("/api/blocks/rin", json=block).status_code == 200
        written = client.post("/api/memories/rin", json={"content": "The user keeps bees."})
        assert written.status_code in (200, 201), written.text
        context = client.get("/api/context/rin").json()
    sections = context["sections"]
    assert [b["block_name"] for b in sections["blocks"]] == ["persona_state"]
    assert [m["content"] for m in sections["recent_memories"]] == ["The user keeps bees."]
    assert sections["stats"] is not None
    assert context["omitted"] == {"blocks": 1}
    assert "Rin is cheerful." in context["text"] and "長い物語" not in context["text"]
    assert context["tokens"] <= context["budget_tokens"]
