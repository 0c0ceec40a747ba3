"""An MCP tool's metadata is read once per process; each server's tool calls its own function."""

from __future__ import annotations

import anyio

from omoide.api.mcp.tool_templates import tool_for


def _tools_of(owner: str, top_k: int = 5):
    async def search(query: str, top_k: int = top_k) -> str:
        """Search the owner's memories."""
        return f"{owner}:{query}:{top_k}"

    return search


def test_two_servers_share_the_metadata_and_keep_their_own_function() -> None:
    first = tool_for(_tools_of("rin"), name="search", title="Search")
    second = tool_for(_tools_of("kai"), name="search", title="Search")
    assert first.fn_metadata is second.fn_metadata  # read once
    assert first.parameters == second.parameters and first.fn is not second.fn

    async def both() -> list[str]:
        return [await tool.run({"query": "tea"}, context=None) for tool in (first, second)]  # type: ignore[arg-type]

    assert anyio.run(both) == ["rin:tea:5", "kai:tea:5"]


def test_another_default_or_option_is_read_again() -> None:
    five = tool_for(_tools_of("rin"), name="search", title="Search")
    nine = tool_for(_tools_of("rin", top_k=9), name="search", title="Search")
    assert five.parameters["properties"]["top_k"]["default"] == 5
    assert nine.parameters["properties"]["top_k"]["default"] == 9
    retitled = tool_for(_tools_of("rin"), name="search", title="Find")
    assert retitled.title == "Find" and five.title == "Search"
