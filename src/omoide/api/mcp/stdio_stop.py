"""How ``omoide mcp`` stops: its client closes the pipe, or the process is sent SIGTERM or
SIGINT (a service manager, ``kill``, Ctrl+C). Either way the protocol loop ends and
``run_stdio`` returns, so that the caller closes the store the same orderly way
(``cli_common.close_server``: an erase's owed scrub waited for) and the process exits 0.

stdin is read by a daemon thread of its own, one line at a time (the client is held back
while a line waits, as the SDK's reader held it): a stop by signal does not wait for the
client's next line, and the thread still blocked reading when the process ends does not
hold it open (the SDK's reader thread did both: Ctrl+C hung until the client wrote or closed
the pipe, and SIGTERM ended the process at once, its store never closed)."""

from __future__ import annotations

import asyncio
import logging
import signal
import threading
from collections.abc import AsyncIterator
from typing import TextIO

import anyio

__all__ = ["STOP_SIGNALS", "StdinLines", "stop_on_signal"]

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
                try:
                    asyncio.run_coroutine_threadsafe(handed.put(line), loop).result()
                except (RuntimeError, asyncio.CancelledError):
                    return  # the loop is gone (the server stopped): nobody reads any more
                if not line:
                    return

        threading.Thread(target=pump, name="omoide mcp stdin", daemon=True).start()
        while line := await handed.get():
            yield line


async def stop_on_signal(scope: anyio.CancelScope) -> None:
    """Cancel ``scope`` (the protocol loop's) at the first of :data:`STOP_SIGNALS`; logged."""
    with anyio.open_signal_receiver(*STOP_SIGNALS) as received:
        async for signum in received:
            logger.info("MCP stdio server stopping (%s)", signal.Signals(signum).name)
            scope.cancel()
            return
