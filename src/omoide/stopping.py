"""A stop signal that comes while a server is already stopping (``omoide serve``, ``omoide mcp``).

A server that stops (Ctrl+C, SIGTERM, its MCP client gone) waits, each wait bounded, for the
jobs its workers run (``JobRunner.stop``: up to ``jobs.STOP_WAIT_S`` in all) and for the scrub
an erase of it owes (``cli_common.close_server``: up to ``SCRUB_WAIT_S``). Another stop signal
meanwhile (a second Ctrl+C) ends those waits at once; the stop goes on without them: what was
written is committed, a job cut short goes back in the queue, a scrub still owed is said, the
store is closed and the process exits 0. Each server's own signal handling (uvicorn's for
``serve``, run by its event loop so that a signal wakes it whenever it comes:
``cli_common.run_until_stopped``; ``api.mcp.stdio_stop.OrderlyStop`` for ``mcp``) calls
:meth:`Hurry.signalled`, and hands :attr:`Hurry.event` to its waits as their ``give_up``.
"""

from __future__ import annotations

import logging
import signal
import threading

__all__ = ["Hurry"]

logger = logging.getLogger(__name__)


class Hurry:
    """Set by a stop signal while the server is already stopping; its waits watch
    :attr:`event`."""

    def __init__(self) -> None:
        self.event = threading.Event()

    def signalled(self, signum: int) -> None:
        """A stop signal while stopping: the stop's waits end now (said once)."""
        if not self.event.is_set():
            logger.info(
                "%s while stopping: no more waiting for running jobs or an erase's scrub",
                signal.Signals(signum).name,
            )
        self.event.set()
