"""How ``omoide mcp`` stops: its client closes the pipe, or the process is sent SIGTERM or
SIGINT (a service manager, ``kill``, Ctrl+C). Either way the protocol loop ends and
``run_stdio`` returns, so that the caller closes the store the same orderly way
(``cli_common.close_server``: an erase's owed scrub waited for) and the process exits 0.

stdin is read by a daemon thread of its own, one line at a time (the client is held back
while a line waits, as the SDK's reader held it): a stop by signal does not wait for the
client's next line, and the thread still blocked reading when the process ends does not
hold it open (the SDK's reader thread did both: Ctrl+C hung until the client wrote or closed
the pipe, and SIGTERM ended the process at once, its store never closed).

Outside the protocol loop (the store's build before it, the stop after it) the same signals
are :class:`OrderlyStop`'s: during the build the first one unwinds it (what was opened is
closed) and the command exits 0 (before: SIGTERM killed the process, SIGINT said "Aborted!" and
exited 1); during the stop one ends its waits at once, as a second Ctrl+C does in
``omoide serve`` (:class:`~omoide.stopping.Hurry`: the jobs mid-run put back in the queue, an
owed scrub no longer waited for), and the stop goes on to its end (before: it was only logged,
and the stop waited its full time)."""

from __future__ import annotations

import asyncio
import logging
import signal
import threading
from collections.abc import AsyncIterator, Callable
from types import FrameType, TracebackType
from typing import Any, TextIO

import anyio

from omoide.stopping import Hurry

__all__ = ["STOP_SIGNALS", "OrderlyStop", "StdinLines", "do_nothing", "stop_on_signal"]

logger = logging.getLogger(__name__)

STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)


class StdinLines:
    """The lines of ``stream`` (``""``-terminated like ``readline``), read by a daemon thread
    and handed over one at a time."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def __aiter__(self) -> AsyncIterator[str]:
        return self._read()

    async def _read(self) -> AsyncIterator[str]:
        loop = asyncio.get_running_loop()
        handed: asyncio.Queue[str] = asyncio.Queue(maxsize=1)

        def pump() -> None:
            while True:
                line = self._stream.readline()
                put = handed.put(line)
                try:
                    handing = asyncio.run_coroutine_threadsafe(put, loop)
                except RuntimeError:  # the loop is closed (the server stopped): nobody reads
                    # Trigger: stdin closed (or a line came) once a stop had begun. Why: the
                    # put was never scheduled, and Python warned on stderr that it was never
                    # awaited. Outcome: closed here, unrun.
                    put.close()
                    return
                try:
                    handing.result()
                except (RuntimeError, asyncio.CancelledError):
                    return  # the loop is gone (the server stopped): nobody reads any more
                if not line:
                    return

        threading.Thread(target=pump, name="omoide mcp stdin", daemon=True).start()
        while line := await handed.get():
            yield line


def do_nothing() -> None:
    """The ``after`` of :func:`stop_on_signal` by default: nothing to do once the loop's
    handlers are gone (the server's default ``after_signals``)."""


async def stop_on_signal(scope: anyio.CancelScope, after: Callable[[], None]) -> None:
    """Cancel ``scope`` (the protocol loop's) at the first of :data:`STOP_SIGNALS`; logged.
    Then ``after()``: asyncio has put the default handlers back, and the stop from here on is
    the caller's (``omoide mcp``: its :meth:`OrderlyStop.hold`)."""
    try:
        with anyio.open_signal_receiver(*STOP_SIGNALS) as received:
            async for signum in received:
                logger.info("MCP stdio server stopping (%s)", signal.Signals(signum).name)
                scope.cancel()
                return
    finally:
        after()


class _Stopping(BaseException):
    """Raised by :class:`OrderlyStop`'s handler to unwind what ``omoide mcp`` was doing."""


class OrderlyStop:
    """While entered, SIGTERM and SIGINT stop ``omoide mcp`` in order. The first one unwinds
    what runs (raising an exception that ``with`` blocks and ``finally`` clauses see, as
    Ctrl+C's ``KeyboardInterrupt`` does), and leaving the block ends it quietly, so that the
    command exits 0; after :meth:`hold` (the stop, which must not be cut short), or after
    that first one, a signal ends the stop's waits (:attr:`hurry`, handed to them) and the
    stop goes on. The protocol loop installs its own handlers meanwhile
    (:func:`stop_on_signal`); :meth:`hold` puts these back once it has ended."""

    def __init__(self) -> None:
        self._raising = True
        self._deferring = False  # inside :meth:`new_loop`: a signal owed, not raised
        self._owed: int | None = None
        self._before: dict[int, Any] = {}
        self.hurry = Hurry()

    def __enter__(self) -> OrderlyStop:
        self._before = {signum: signal.getsignal(signum) for signum in STOP_SIGNALS}
        for signum in STOP_SIGNALS:
            signal.signal(signum, self._handle)
        return self

    def hold(self) -> None:
        """From now on a signal ends the stop's waits only (:attr:`hurry`): what runs is let
        finish."""
        self._raising = False
        for signum in STOP_SIGNALS:
            signal.signal(signum, self._handle)

    def new_loop(self) -> asyncio.AbstractEventLoop:
        """The protocol loop's event loop (``run_stdio``'s loop factory), built whole: a first
        signal that lands while it is built unwinds once it is (closed then). Raised inside
        the loop's ``__init__``, it left a loop half built, whose ``__del__`` printed a
        traceback at the exit (a Ctrl+C just as the server started)."""
        self._deferring = True
        try:
            loop = asyncio.new_event_loop()
        finally:
            self._deferring = False
        if self._owed is not None:
            signum, self._owed = self._owed, None
            loop.close()
            self._handle(signum, None)
        return loop

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        if not self._raising:
            self.hurry.signalled(signum)
            return
        if self._deferring:
            self._owed = signum
            return
        self._raising = False
        logger.info("MCP stdio server stopping (%s)", signal.Signals(signum).name)
        raise _Stopping

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> bool:
        self._raising = False
        for signum, handler in self._before.items():
            signal.signal(signum, handler)
        return kind is not None and issubclass(kind, _Stopping)
