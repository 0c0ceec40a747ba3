"""Session 24's probe: the search score ranks within one query (min-max cosine: the weakest
candidate considered scores 0), so in a small persona the last result showed 0.000 in the JSON,
the MCP text and the CLI, and a reader took it for irrelevant. Every rendering now shows the
raw cosine (``similarity``) beside the score, and the docs say what each means."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import pytest
from click.testing import CliRunner
from mcp_checks import http_client, ok
from omoide_testing import LiveServer

from omoide.cli import main

FACTS = [
    "The user lives in Tokyo with two cats.",
    "The user's favourite food is ramen.",
    "The user works as a nurse at a hospital.",
    "The user plays the saxophone.",
    "The user's sister is called Aiko.",
]
QUERY = "where does the user live"


def _rin_with_facts(server: LiveServer) -> tuple[str, list[dict[str, Any]]]:
    """rin's key once FACTS are stored, and the API's results for QUERY."""
    key = server.create_persona("rin")
    with server.client(key) as rin:
        for fact in FACTS:
            assert rin.post("/api/memories/rin", json={"content": fact}).status_code == 201
        return key, rin.get("/api/search/rin", params={"q": QUERY, "top_k": 5}).json()["results"]


def test_every_rendering_shows_the_similarity_beside_the_score(server: LiveServer) -> None:
    key, results = _rin_with_facts(server)
    with server.client(key) as rin:
        assert results[-1]["score"] == 0.0  # the weakest candidate of this query
        assert all(isinstance(r["similarity"], float) for r in results), results
        keyword = rin.get("/api/search/rin", params={"q": "Tokyo", "mode": "keyword"}).json()
        assert isinstance(keyword["results"][0]["similarity"], float)  # found by words, still

    async def scenario() -> None:
        async with http_client(server.url, key) as client:
            found = await ok(client, "memory_search", query=QUERY, top_k=5)
            text = found.content[0].text  # type: ignore[union-attr]
            lines = text.splitlines()[1:]
            assert len(lines) == 5 and all(" · similarity " in line for line in lines), text
            last = results[-1]
            assert f"(score 0.000 · similarity {last['similarity']:.3f}" in lines[-1], text

    anyio.run(scenario)


@pytest.mark.sqlite_only
def test_the_cli_prints_score_then_similarity(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OMOIDE_EMBEDDER", "hash")
    monkeypatch.setenv("OMOIDE_DATA", str(tmp_path / "data"))
    runner = CliRunner()
    assert runner.invoke(main, ["persona", "create", "rin"]).exit_code == 0
    for fact in FACTS:
        assert runner.invoke(main, ["memory", "add", "-p", "rin", fact]).exit_code == 0
    lines = runner.invoke(main, ["search", "-p", "rin", QUERY, "--top-k", "5"]).output.splitlines()
    assert len(lines) == 5, lines
    score, similarity, memory_key = lines[-1].split()[:3]
    assert score == "0.000" and float(similarity) != 0.0 and memory_key.startswith("mem_")


def test_the_dashboard_search_shows_the_similarity_beside_the_score(server: LiveServer) -> None:
    import re

    key, hits = _rin_with_facts(server)
    with server.signed_in(key) as client:
        found = client.get("/p/rin/memories", params={"q": QUERY})
    shown = re.findall(r"similarity (-?[0-9.]+)</span>", found.text)
    assert len(shown) == len(FACTS), found.text[:2000]
    assert f"{hits[0]['similarity']:.3f}" in shown
