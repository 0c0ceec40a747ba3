"""MCP end-to-end fixtures: the SDK's own client over stdio, spawning a real ``omoide mcp``
child process the way a desktop client does. The checks both transports run live in
``tests/support/mcp_checks.py``; tests are plain functions that drive one async scenario with
anyio.run.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from pathlib import Path

import pytest
from mcp.client import Client
from mcp_checks import stdio_params

Connect = Callable[[], contextlib.AbstractAsyncContextManager[Client]]


@pytest.fixture
def connect_stdio(data_dir: Path, persona: str, store_environ: dict[str, str]) -> Connect:
    """Spawn ``omoide mcp --persona rin --data <tmp>`` (on the test's store) and connect the
    SDK client to it."""
    return lambda: Client(stdio_params(data_dir, persona, store_environ), read_timeout_seconds=30)
