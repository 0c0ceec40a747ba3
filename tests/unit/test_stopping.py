"""``stopping.DaemonWrite``: a write a stop makes on a daemon thread of its own, waited for with a
bound (the job runner's put back, ``jobs.PUT_BACK_WAIT_S``; the key-use writer,
``auth.KEY_USE_WAIT_S``). A write that ends in time is done and says nothing; one that does not
is said once, and the stop returns without waiting for it, which goes on."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterator

import pytest

from omoide.stopping import DaemonWrite

logger = logging.getLogger("test.stopping")


@pytest.fixture
def go_on() -> Iterator[threading.Event]:
    event = threading.Event()
    yield event
    event.set()  # the write a test held ends with the test


def _say_late() -> None:
    logger.warning("not written in time")


def test_a_write_that_ends_in_time_is_done_and_says_nothing(
    caplog: pytest.LogCaptureFixture,
) -> None:
    written: list[int] = []
    write = DaemonWrite(lambda: written.append(42), name="test-write")
    with caplog.at_level(logging.WARNING):
        assert write.wait(5.0, late=_say_late) is True
    assert written == [42]
    assert caplog.records == []


def test_a_write_past_its_bound_is_said_once_and_not_waited_for(
    go_on: threading.Event, caplog: pytest.LogCaptureFixture
) -> None:
    ended = threading.Event()

    def write() -> None:  # a write waiting for a lock held past the bound
        go_on.wait(30)
        ended.set()

    held = DaemonWrite(write, name="test-held-write")
    started = time.monotonic()
    with caplog.at_level(logging.WARNING):
        assert held.wait(0.2, late=_say_late) is False
    assert 0.2 <= time.monotonic() - started < 10.0  # the bound, not the write's 30 s
    assert [r.getMessage() for r in caplog.records] == ["not written in time"]
    assert not ended.is_set()
    # the write goes on, on its daemon thread, and ends once what held it lets go
    go_on.set()
    assert ended.wait(5)
    assert held.wait(5.0, late=_say_late) is True
    assert len(caplog.records) == 1


def test_the_write_runs_on_a_daemon_thread_of_its_own() -> None:
    seen: list[threading.Thread] = []
    write = DaemonWrite(lambda: seen.append(threading.current_thread()), name="test-daemon")
    assert write.wait(5.0, late=_say_late)
    assert [(t.name, t.daemon) for t in seen] == [("test-daemon", True)]
    assert seen[0] is not threading.current_thread()
