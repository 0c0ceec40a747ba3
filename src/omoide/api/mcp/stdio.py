"""stdio MCP for desktop clients (Claude Desktop, Claude Code): one persona, one process.

stdout belongs to the protocol: logs go to stderr (configured by the CLI entry point), and the
job runner works in this process so that evolution and decay happen while the client is open.
"""

from __future__ import annotations

import functools
import logging

import anyio

from omoide.api.mcp.server import build_mcp_server, fixed_persona
from omoide.api.mcp.stdio_stop import OrderlyStop
from omoide.wiring import Omoide

__all__ = ["run_stdio"]

logger = logging.getLogger(__name__)


def run_stdio(omoide: Omoide, persona: str, stopping: OrderlyStop) -> None:
    """Serve MCP on stdin/stdout for ``persona``, an existing one (the caller has checked:
    ``omoide mcp``, before any protocol traffic), until the client closes the pipe or a
    SIGTERM or SIGINT arrives (``stdio_stop``), under ``stopping``, the
    :class:`~omoide.api.mcp.stdio_stop.OrderlyStop` ``omoide mcp`` runs in: it builds the
    protocol loop's event loop (:meth:`~OrderlyStop.new_loop`), and its handlers are put back
    once the loop's are gone (:meth:`~OrderlyStop.hold`). The job runner is stopped then (the
    jobs mid-run waited for until a signal sets ``stopping.hurry``: ``omoide mcp``'s second
    Ctrl+C), and the caller closes ``omoide`` (``omoide mcp``: waiting for an erase's owed
    scrub, ``cli_common.close_server``)."""
    server = build_mcp_server(omoide, fixed_persona(persona))
    omoide.runner.start()
    logger.info("MCP stdio server for persona %s (data: %s)", persona, omoide.settings.data_dir)
    try:
        anyio.run(
            functools.partial(server.run_stdio_async, after_signals=stopping.hold),
            backend_options={"loop_factory": stopping.new_loop},
        )
    finally:
        omoide.runner.stop(give_up=stopping.hurry.event)
