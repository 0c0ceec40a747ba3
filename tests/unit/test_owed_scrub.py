"""The one retry rule of an erase's owed scrub (src/omoide/store/owed_scrub.py), with a scripted
"try once" in place of a store's WAL checkpoint or VACUUM (each store's own is tested against a
real SQLite file and a real PostgreSQL: tests/integration/test_erase_under_readers.py,
tests/integration/api/test_pg_erase_vacuum_api.py)."""

from __future__ import annotations

import itertools
import logging
import threading
import time
from collections.abc import Callable

import pytest

from omoide.store.owed_scrub import OwedScrub

EVERY_S = 0.01
DONE = "the owed scrub is done"


class Tries:
    """A "try once" answering from a script (then True), counting its calls and the most that
    ran at the same time."""

    def __init__(self, *answers: bool, during: Callable[[], None] | None = None) -> None:
        self.answers = list(answers)
        self.during = during  # run inside the first try
        self.calls = 0
        self.running = 0
        self.most_at_once = 0
        self.lock = threading.Lock()

    def __call__(self) -> bool:
        with self.lock:
            self.calls += 1
            self.running += 1
            self.most_at_once = max(self.most_at_once, self.running)
        if self.during is not None:
            during, self.during = self.during, None
            during()
        time.sleep(EVERY_S)
        with self.lock:
            self.running -= 1
            return self.answers.pop(0) if self.answers else True


NAMES = itertools.count()


def scrub(tries: Tries) -> tuple[OwedScrub, str]:
    """A scrub, and the name of its thread (one of its own)."""
    name = f"test-scrub-{next(NAMES)}"
    return OwedScrub(tries, every_s=EVERY_S, thread_name=name, done=DONE), name


def wait_until(done: Callable[[], bool], timeout_s: float = 5.0) -> bool:
    deadline = time.monotonic() + timeout_s
    while not done():
        if time.monotonic() > deadline:
            return False
        time.sleep(EVERY_S)
    return True


def threads(name: str) -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == name]


def test_nothing_is_pending_and_nothing_tried_until_a_scrub_is_owed() -> None:
    tries = Tries()
    owed, name = scrub(tries)
    time.sleep(5 * EVERY_S)
    assert (owed.pending, tries.calls, threads(name)) == (False, 0, [])


def test_an_owed_scrub_is_retried_until_a_try_succeeds_then_stops(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, logger="omoide.store.owed_scrub")
    tries = Tries(False, False, False)
    owed, name = scrub(tries)
    owed.owe()
    assert owed.pending
    assert wait_until(lambda: not owed.pending)
    assert tries.calls == 4  # three refused, then done
    assert wait_until(lambda: threads(name) == [])
    time.sleep(5 * EVERY_S)
    assert tries.calls == 4  # nothing is tried once nothing is owed
    assert [r.getMessage() for r in caplog.records] == [DONE]


def test_owing_again_while_retrying_keeps_one_thread() -> None:
    trying, go_on = threading.Event(), threading.Event()

    def first() -> None:  # the thread's first try lasts until the test has looked
        trying.set()
        go_on.wait(10)

    tries = Tries(*[False] * 10, during=first)
    owed, name = scrub(tries)
    owed.owe()
    assert trying.wait(5)
    for _ in range(4):
        owed.owe()
    assert len(threads(name)) == 1
    go_on.set()
    assert wait_until(lambda: not owed.pending)
    assert tries.most_at_once == 1


def test_a_scrub_owed_during_a_successful_try_is_tried_again() -> None:
    """The try read what was owed before an erase owed more: its success is not that
    erase's."""
    owed: OwedScrub
    tries = Tries(True, during=lambda: owed.owe())
    owed, _ = scrub(tries)
    owed.owe()
    assert wait_until(lambda: not owed.pending)
    assert tries.calls == 2


def test_a_scrub_owed_again_after_it_was_done_is_retried_again() -> None:
    tries = Tries()
    owed, _ = scrub(tries)
    owed.owe()
    assert wait_until(lambda: not owed.pending)
    owed.owe()
    assert owed.pending
    assert wait_until(lambda: not owed.pending)
    assert tries.calls == 2


def test_stop_ends_the_thread_and_leaves_the_scrub_owed() -> None:
    tries = Tries(*[False] * 1000)
    owed, name = scrub(tries)
    owed.owe()
    assert wait_until(lambda: tries.calls >= 2)
    owed.stop()
    assert threads(name) == []
    calls = tries.calls
    owed.owe()  # an erase after the close: owed, but no thread is started
    time.sleep(5 * EVERY_S)
    assert (owed.pending, tries.calls, threads(name)) == (True, calls, [])


def test_settle_tries_an_owed_scrub_here_until_it_succeeds_within_its_wait(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """What a process about to end does (a command that erased): the background thread is
    stopped, and the tries go on in the caller until one succeeds."""
    caplog.set_level(logging.INFO, logger="omoide.store.owed_scrub")
    tries = Tries(*[False] * 5)
    owed, name = scrub(tries)
    owed.owe()
    assert owed.settle(wait_s=5.0) is True
    assert (owed.pending, threads(name)) == (False, [])
    assert tries.calls >= 6 and tries.most_at_once == 1
    assert [r.getMessage() for r in caplog.records] == [DONE]


def test_settle_gives_up_after_its_wait_and_leaves_the_scrub_owed() -> None:
    tries = Tries(*[False] * 1000)  # 20 s of refusals
    owed, name = scrub(tries)
    owed.owe()
    started = time.monotonic()
    assert owed.settle(wait_s=0.2) is False
    assert 0.2 <= time.monotonic() - started < 10.0  # its wait, not until the refusals ran out
    assert (owed.pending, threads(name)) == (True, [])


def test_settle_stops_waiting_once_given_up_and_leaves_the_scrub_owed() -> None:
    """``omoide serve``'s second Ctrl+C: the wait ends then, not at its end (session 44)."""
    tries = Tries(*[False] * 100_000)
    owed, name = scrub(tries)
    owed.owe()
    give_up = threading.Event()
    timer = threading.Timer(0.2, give_up.set)
    started = time.monotonic()  # before the timer's start: 0.2 s at least from here
    timer.start()
    assert owed.settle(wait_s=30.0, give_up=give_up) is False
    timer.join()
    assert 0.2 <= time.monotonic() - started < 15.0  # the give up's 0.2 s, not the 30 s wait
    assert (owed.pending, threads(name)) == (True, [])
    already = Tries(*[False] * 10)
    at_once, _ = scrub(already)
    at_once.owe()
    assert at_once.settle(wait_s=30.0, give_up=give_up) is False  # set before: one try only
    assert at_once.pending


def test_settle_with_no_wait_tries_once_and_with_nothing_owed_tries_nothing() -> None:
    refused = Tries(*[False] * 1000)
    owed, _ = scrub(refused)
    owed.stop()  # no background try: the one try counted is settle's
    owed.owe()
    assert owed.settle(wait_s=0) is False
    assert refused.calls == 1
    idle = Tries()
    nothing, _ = scrub(idle)
    assert nothing.settle(wait_s=5.0) is True
    assert idle.calls == 0


def test_settle_does_not_wait_past_its_wait_or_a_give_up_for_a_try_under_way() -> None:
    """Session 46: settle first joined the retry thread without a bound, so a try of the
    thread under way (a reconnect waits up to SQLite's busy timeout) held a stop past its
    wait, and past a second Ctrl+C."""
    under_way, let_go = threading.Event(), threading.Event()

    def stuck() -> None:
        under_way.set()
        let_go.wait(60)

    tries = Tries(*[False] * 1000, during=stuck)
    owed, name = scrub(tries)
    owed.owe()
    assert under_way.wait(5)
    given_up = threading.Event()
    given_up.set()
    started = time.monotonic()
    assert owed.settle(wait_s=30.0, give_up=given_up) is False
    assert time.monotonic() - started < 10.0  # before: until the try under way ended (60 s)
    started = time.monotonic()
    assert owed.settle(wait_s=0.3) is False  # and no later than its own wait
    assert time.monotonic() - started < 10.0
    assert owed.pending
    let_go.set()
    assert wait_until(lambda: threads(name) == [])  # the thread ends after its try
