"""A search's top_k out of range is told in the same words on every interface: HTTP's query
check and MCP's argument check said "must be at most 100, got 500" while ``omoide search
--top-k 500`` (the service's own check) said "must be an integer from 1 to 100". The CLI says
the same rule of the option typed (``Invalid value for '--top-k': must be at most 100, got
500``), as for any bad option value."""

from __future__ import annotations

from pathlib import Path

import anyio
import pytest
from click.testing import CliRunner
from mcp_checks import http_client, tool_error
from omoide_testing import LiveServer

from omoide.cli import main
from omoide.service.search_request import MAX_TOP_K


@pytest.mark.parametrize(
    ("top_k", "rule"),
    [(MAX_TOP_K + 400, f"must be at most {MAX_TOP_K}"), (0, "must be at least 1")],
)
def test_top_k_out_of_range_is_one_message_on_http_mcp_and_the_cli(
    server: LiveServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, top_k: int, rule: str
) -> None:
    said = f"top_k {rule}, got {top_k}"
    key = server.create_persona("rin")
    with server.client(key) as http:
        reply = http.get("/api/search/rin", params={"q": "tea", "top_k": top_k})
    assert reply.status_code == 422
    assert reply.json()["error"]["message"] == said

    async def scenario() -> str:
        async with http_client(server.url, key) as client:
            return await tool_error(client, "memory_search", query="tea", top_k=top_k)

    assert f"'top_k' {rule} (got {top_k})" in anyio.run(scenario)
    monkeypatch.setenv("OMOIDE_EMBEDDER", "hash")
    monkeypatch.setenv("OMOIDE_DATA", str(tmp_path / "cli"))
    runner = CliRunner()
    made = runner.invoke(main, ["persona", "create", "rin"])
    assert made.exit_code == 0, made.output
    cli = runner.invoke(main, ["search", "-p", "rin", "--top-k", str(top_k), "tea"])
    assert cli.exit_code == 2
    assert (
        cli.output.strip().splitlines()[-1]
        == f"Error: Invalid value for '--top-k': {rule}, got {top_k}"
    )
