"""``omoide serve``'s stop signals (``cli_common.run_until_stopped``) are seen at once, whenever
they come: a second Ctrl+C while the app closes (an erase's owed scrub waited for, in a worker
thread) ends that wait at once, even while the event loop sleeps with nothing else to wake it.

Before (session 46, one fresh-clone CI run in many): uvicorn's handlers were Python-level ones
(``signal.signal``), which run in the main thread once it runs Python code again. A signal
whose C handler ran as the loop's thread went to sleep (after its last check of pending
signals), or in another thread, was seen only when the loop next woke: once the close had ended,
its wait run for the full 10 s. Here the second signal is sent to the closing thread itself
(``pthread_kill``), which leaves the loop asleep every time, as that race did."""

from __future__ import annotations

import asyncio
import signal
import threading
import time
from typing import Any

import pytest
from omoide_testing import free_port

from omoide.cli_common import run_until_stopped
from omoide.stopping import Hurry

pytestmark = pytest.mark.sqlite_only  # no store is involved

WAIT_S = 5.0  # the close's wait for the second signal (the owed scrub's, 10 s in omoide serve)


def test_a_second_stop_signal_ends_the_close_s_wait_while_the_loop_sleeps() -> None:
    hurry = Hurry()
    served = threading.Event()
    closing = threading.Event()
    closer: list[int] = []
    waited: list[float] = []

    def close() -> None:  # what ``close_server`` does: wait, until told to give up
        closer.append(threading.get_ident())
        closing.set()
        began = time.monotonic()
        hurry.event.wait(WAIT_S)
        waited.append(time.monotonic() - began)

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        assert scope["type"] == "lifespan"  # no request is made
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
                served.set()
            elif message["type"] == "lifespan.shutdown":
                await asyncio.to_thread(close)  # off the loop, as create_app's on_shutdown
                await send({"type": "lifespan.shutdown.complete"})
                return

    main = threading.get_ident()
    before = signal.getsignal(signal.SIGINT)

    def ctrl_c_twice() -> None:
        assert served.wait(30)
        signal.pthread_kill(main, signal.SIGINT)  # the first: the server stops
        assert closing.wait(30)
        time.sleep(0.2)  # the loop is asleep: it waits for the close, in its thread
        signal.pthread_kill(closer[0], signal.SIGINT)  # the second, its C handler run there

    signalling = threading.Thread(target=ctrl_c_twice, daemon=True)
    signalling.start()
    run_until_stopped(
        app, hurry=hurry, host="127.0.0.1", port=free_port(), log_level="warning", lifespan="on"
    )
    signalling.join(5)
    assert hurry.event.is_set()
    assert waited and waited[0] < WAIT_S / 2, waited  # before: WAIT_S, the wait's full length
    assert signal.getsignal(signal.SIGINT) is before  # put back
