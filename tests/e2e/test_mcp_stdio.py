"""MCP over stdio, as Claude Desktop / Claude Code run it: ``omoide mcp --persona rin --data …``
as a child process, driven by the SDK's own client.

The tool checks are ``mcp_checks``' own, which ``test_mcp_http.py`` runs on both stores; here
the transport is what is tested, so they run on SQLite only, and the whole scenario
(:func:`test_mcp_stdio_client_begins_stores_searches_renames_and_sees_blocks`) on both stores:
``omoide mcp`` on PostgreSQL once, end to end. Each test spawns a process (seconds each)."""

from __future__ import annotations

import time
from pathlib import Path

import anyio
import pytest
from click.testing import CliRunner
from mcp_checks import (
    check_context_tools,
    check_done_when,
    check_episode_tools,
    check_memory_tools,
    check_tool_list,
)

from omoide.cli import main
from omoide.wiring import Omoide


@pytest.mark.sqlite_only
def test_mcp_stdio_exits_1_with_a_clear_error_when_the_persona_is_unknown(
    data_dir: Path, persona: str, store_environ: dict[str, str]
) -> None:
    done = CliRunner().invoke(
        main,
        ["mcp", "--persona", "nobody", "--data", str(data_dir)],
        env={"OMOIDE_EMBEDDER": "hash", **store_environ},
    )
    assert done.exit_code == 1
    assert done.stdout == ""
    assert "unknown persona 'nobody'" in done.stderr
    assert "omoide persona create nobody" in done.stderr
    assert done.exception is None or isinstance(done.exception, SystemExit)


@pytest.mark.sqlite_only
def test_mcp_stdio_memory_tools_work_and_fail_cleanly_and_jobs_run_in_process(
    connect_stdio, app: Omoide, persona: str
) -> None:  # type: ignore[no-untyped-def]
    async def scenario() -> None:
        async with connect_stdio() as client:
            await check_memory_tools(client)
            await _jobs_drained(app, persona)  # evolution ran in the MCP process

    anyio.run(scenario)


@pytest.mark.sqlite_only
def test_mcp_stdio_episode_tools_work_and_fail_cleanly(
    connect_stdio, app: Omoide, persona: str
) -> None:  # type: ignore[no-untyped-def]
    async def scenario() -> None:
        async with connect_stdio() as client:
            await check_episode_tools(client, lambda: _idle(app, persona))

    anyio.run(scenario)


@pytest.mark.sqlite_only
def test_mcp_stdio_lists_exactly_the_tools_and_context_tools_work_and_fail_cleanly(
    connect_stdio,
) -> None:  # type: ignore[no-untyped-def]
    async def scenario() -> None:
        async with connect_stdio() as client:  # one child process for both checks
            await check_tool_list(client)
            await check_context_tools(client)

    anyio.run(scenario)


def test_mcp_stdio_client_begins_stores_searches_renames_and_sees_blocks(
    connect_stdio, app: Omoide, persona: str
) -> None:  # type: ignore[no-untyped-def]
    async def scenario() -> None:
        async with connect_stdio() as client:
            await check_done_when(client, app, persona)

    anyio.run(scenario)


async def _idle(app: Omoide, persona: str, timeout: float = 30.0) -> None:
    persona_id = app.store.get_persona(persona).id
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        counts = app.jobs.counts(persona_id)
        if counts.pending + counts.running == 0:
            return
        await anyio.sleep(0.05)
    raise AssertionError("the MCP process did not drain its jobs")


async def _jobs_drained(app: Omoide, persona: str, timeout: float = 15.0) -> None:
    persona_id = app.store.get_persona(persona).id
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        counts = app.jobs.counts(persona_id)
        if counts.pending + counts.running == 0:
            assert (counts.done, counts.failed) == (2, 0)  # one evolution per stored memory
            return
        await anyio.sleep(0.05)
    raise AssertionError("the stdio server did not run its background jobs")
