"""MCP's text for a search that found nothing names what was searched: memory_search's notes
(and excerpts) are "memories", episode_search's are "episodes"."""

from __future__ import annotations

from omoide.api.mcp.text import episode_search_text, search_text


def test_an_empty_search_names_the_kind_searched() -> None:
    empty = {"query": "the harbour ferry", "mode": "hybrid", "results": []}
    assert search_text(empty) == "No memories match “the harbour ferry”."
    assert episode_search_text(empty) == "No episodes match “the harbour ferry”."
