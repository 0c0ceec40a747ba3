"""A stop signal that comes while a server is already stopping (``omoide serve``, ``omoide mcp``).

A server that stops (Ctrl+C, SIGTERM, its MCP client gone) waits, each wait bounded, for the
jobs its workers run (``JobRunner.stop``: up to ``jobs.STOP_WAIT_S`` in all) and for the scrub
an erase of it owes (``cli_common.close_server``: up to ``SCRUB_WAIT_S``). Another stop signal
meanwhile (a second Ctrl+C) ends those waits at once; the stop goes on without them: what was
written is committed, a job cut short goes back in the queue, a scrub still owed is said, the
store is closed and the process exits 0. Each server's own signal handling (uvicorn's for
``serve``, run by its event loop so that a signal wakes it whenever it comes:
``cli_common.run_until_stopped``; ``api.mcp.stdio_stop.OrderlyStop`` for ``mcp``) calls
:meth:`Hurry.signalled`, and hands :attr:`Hurry.event` to its waits as their ``give_up``. The
waits themselves (:func:`joined`, :func:`acquired`) are bounded by a deadline and end once
``give_up`` is set.

The writes a stop makes after those waits (putting back the jobs still running: ``jobs``;
writing the key uses noted: ``service.auth``) run on a thread of their own, each waited for with
a bound of its own and never cut short by ``give_up`` (:class:`DaemonWrite`).
"""

from __future__ import annotations

import logging
import signal
import threading
import time
from collections.abc import Callable

__all__ = ["GIVE_UP_POLL_S", "DaemonWrite", "Hurry", "acquired", "joined"]

logger = logging.getLogger(__name__)

GIVE_UP_POLL_S = 0.05  # how soon a stop's wait sees that it is told to give up


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


def joined(
    thread: threading.Thread, deadline: float | None, give_up: threading.Event | None
) -> bool:
    """Wait for ``thread`` to end until ``deadline`` (``time.monotonic``; None: however long it
    takes), and no longer once ``give_up`` is set (seen within :data:`GIVE_UP_POLL_S`); whether
    it has ended."""
    while thread.is_alive() and not (give_up is not None and give_up.is_set()):
        left = None if deadline is None else deadline - time.monotonic()
        if left is not None and left <= 0:
            break
        poll = GIVE_UP_POLL_S if left is None else min(left, GIVE_UP_POLL_S)
        thread.join(left if give_up is None else poll)
    return not thread.is_alive()


def acquired(lock: threading.RLock, deadline: float, give_up: threading.Event | None) -> bool:
    """``lock`` acquired by ``deadline`` (``time.monotonic``), unless ``give_up`` is set first
    (seen within :data:`GIVE_UP_POLL_S`); whether it was."""
    while True:
        left = max(0.0, deadline - time.monotonic())
        if lock.acquire(timeout=left if give_up is None else min(left, GIVE_UP_POLL_S)):
            return True
        if left <= 0 or (give_up is not None and give_up.is_set()):
            return False


class DaemonWrite:
    """``write`` run on a daemon thread of its own, started at once, and waited for with a bound
    (:meth:`wait`). Why a thread: the write may wait for the database's write lock, which a
    job's handler a stop left may hold for as long as it runs; why a daemon: one still waiting
    when the process ends does not hold up its exit (an executor's worker, before, was joined
    at the exit for as long as its write waited). The job runner's put back
    (``jobs.PUT_BACK_WAIT_S``) and the key-use writer (``auth.KEY_USE_WAIT_S``) are ones."""

    def __init__(self, write: Callable[[], object], *, name: str) -> None:
        self._thread = threading.Thread(target=write, name=name, daemon=True)
        self._thread.start()

    def wait(self, wait_s: float, *, late: Callable[[], None]) -> bool:
        """Whether the write ended within ``wait_s`` seconds (not cut short by a second
        Ctrl+C: quick while the lock is free, it is what a stop cut short still does). If it
        did not, ``late()`` says so (the caller's one line: what is not written, and what
        becomes of it) and this returns without waiting longer; the write goes on."""
        if joined(self._thread, time.monotonic() + wait_s, None):
            return True
        late()
        return False
