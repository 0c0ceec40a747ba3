"""A server's stop waits for the jobs its workers are running within one deadline for them all
(``JobRunner.stop``), or until told to give up (a second Ctrl+C); a job still running then is
put back in the queue, its attempt not counted, and runs on the next start: nothing is lost.

Before: each worker thread was joined with a 10 s timeout of its own, one after another, so a
stop with jobs mid-run waited up to 10 s per thread; a job it left was still ``running`` under
a lease, taken back only once the lease ran out (and, on its last attempt, marked failed
"worker lost")."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterator

import pytest

from omoide.clock import FixedClock
from omoide.jobs import JobRunner
from omoide.model import Job
from omoide.wiring import Omoide

SLOW = "test.slow"
WORKERS = 6  # a stop that gave each its own 1 s deadline took 6 s


class Held:
    """A handler that runs until :attr:`release` is set; counts its starts and its ends."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.started: list[int] = []
        self.ended: list[int] = []
        self._lock = threading.Lock()

    def __call__(self, job: Job) -> None:
        with self._lock:
            self.started.append(job.id)
        self.release.wait(30)
        with self._lock:
            self.ended.append(job.id)

    def wait_started(self, count: int) -> None:
        deadline = time.monotonic() + 30
        while len(self.started) < count:
            assert time.monotonic() < deadline, self.started
            time.sleep(0.01)


@pytest.fixture
def held() -> Iterator[Held]:
    handler = Held()
    yield handler
    handler.release.set()  # the handlers the stop left behind end with the test


def _queued(app: Omoide, clock: FixedClock, count: int) -> list[int]:
    return [
        app.jobs.enqueue(kind=SLOW, persona_id=None, payload={}, now=clock.now())
        for _ in range(count)
    ]


def _rows(app: Omoide, ids: list[int]) -> list[tuple[str, int]]:
    conn = app.store.db.conn()
    return [
        tuple(conn.execute("SELECT status, attempts FROM jobs WHERE id = ?", (i,)).fetchone())
        for i in ids
    ]


def test_stop_waits_one_deadline_for_every_worker_when_jobs_run_on(
    app: Omoide, clock: FixedClock, held: Held, caplog: pytest.LogCaptureFixture
) -> None:
    ids = _queued(app, clock, WORKERS)
    runner = JobRunner(app.jobs, clock, {SLOW: held}, workers=WORKERS, tick=lambda: None)
    runner.start()
    held.wait_started(WORKERS)
    threads = list(runner._threads)  # the workers and the scheduler, ended by the stop
    started = time.monotonic()
    with caplog.at_level(logging.INFO, logger="omoide.jobs"):
        assert runner.stop(timeout=1.0) is False  # jobs were left running
    took = time.monotonic() - started
    # one deadline, where one per worker took 6 s; the margin is a loaded machine's (the stop
    # includes the put back's write, waited for up to PUT_BACK_WAIT_S)
    assert 1.0 <= took < 3.5, took
    # back in the queue at once, the stop not counted as an attempt
    assert _rows(app, ids) == [("pending", 0)] * WORKERS
    left = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert left == [
        f"stopped with {WORKERS} jobs still running (ids {', '.join(map(str, ids))}): put back "
        "in the queue, they run again on the next start"
    ]

    # the next start runs them (here a runner in this process; another process alike)
    done = Held()
    done.release.set()
    after = JobRunner(app.jobs, clock, {SLOW: done})
    assert after.run_until_idle() == WORKERS
    assert sorted(done.ended) == ids
    assert _rows(app, ids) == [("done", 1)] * WORKERS

    # the handlers the stop left end later: they record nothing and say nothing (their threads
    # end once their jobs do: all they would write or say is behind them then)
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="omoide.jobs"):
        held.release.set()
        for thread in threads:
            thread.join(30)
            assert not thread.is_alive(), thread.name
    assert sorted(held.ended) == ids
    assert _rows(app, ids) == [("done", 1)] * WORKERS
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.INFO] == []


def test_stop_ends_its_wait_at_once_when_told_to_give_up(
    app: Omoide, clock: FixedClock, held: Held
) -> None:
    """``give_up`` (set by a second Ctrl+C) ends the wait before its deadline."""
    ids = _queued(app, clock, 1)
    runner = JobRunner(app.jobs, clock, {SLOW: held}, workers=2)
    runner.start()
    held.wait_started(1)
    give_up = threading.Event()
    threading.Timer(0.3, give_up.set).start()
    started = time.monotonic()
    assert runner.stop(timeout=20.0, give_up=give_up) is False
    assert time.monotonic() - started < 10.0  # the give up's 0.3 s (and a write), not the 20 s
    assert _rows(app, ids) == [("pending", 0)]


def test_stop_waits_for_a_job_that_ends_within_the_deadline(
    app: Omoide, clock: FixedClock, held: Held
) -> None:
    ids = _queued(app, clock, 1)
    runner = JobRunner(app.jobs, clock, {SLOW: held}, workers=2, tick=lambda: None)
    runner.start()
    held.wait_started(1)
    threading.Timer(0.3, held.release.set).start()
    assert runner.stop(timeout=20.0) is True
    assert _rows(app, ids) == [("done", 1)]


def test_a_runner_stopped_without_waiting_still_runs_jobs_in_its_own_thread(
    app: Omoide, clock: FixedClock, held: Held
) -> None:
    """``run_until_idle`` (the CLI, tests) on a runner whose stop did not wait: the job put
    back is run, once."""
    ids = _queued(app, clock, 1)
    runner = JobRunner(app.jobs, clock, {SLOW: held}, workers=1)
    runner.start()
    held.wait_started(1)
    assert runner.stop(timeout=0.2) is False
    ran: list[int] = []
    runner.handlers[SLOW] = lambda job: ran.append(job.id)
    assert runner.run_until_idle(max_jobs=5) == 1
    assert (ran, _rows(app, ids)) == (ids, [("done", 1)])


def test_a_thread_a_stop_gave_up_on_ends_with_its_job_after_a_restart(
    app: Omoide, clock: FixedClock, held: Held
) -> None:
    """Session 46: a start cleared the one stop event its threads watched, so a worker a stop
    had given up on (its handler still running) went on, once its job ended, as an extra
    worker beside the new ones."""
    _queued(app, clock, 1)
    runner = JobRunner(app.jobs, clock, {SLOW: held}, workers=1, poll_s=0.01)
    runner.start()
    held.wait_started(1)
    left = [t for t in threading.enumerate() if t.name == "omoide-worker-0"]
    assert runner.stop(timeout=0.2) is False  # the job put back; its handler runs on
    runner.handlers[SLOW] = lambda job: None
    runner.start()  # runs the job put back, in a new thread
    held.release.set()
    for thread in left:
        thread.join(5)
        assert not thread.is_alive()  # before: it polled the queue on, as a second worker
    assert runner.stop(timeout=5.0) is True
