"""The job runner's periodic scheduler (``omoide.jobs.JobRunner``, which starts and stops it with
its workers): one thread that ticks every ``every_s`` seconds (queue the periodic decay job, end
idle sessions). Every process sharing the database has one, but a tick's duties run in one
process per interval (:meth:`~omoide.store.port.JobQueue.claim_periodic`);
:meth:`Scheduler.tick_now` runs a tick at once, unconditionally. A storage outage is the
runner's :class:`~omoide.job_outage.Outage`, said once for its workers and this thread alike."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from omoide.errors import StorageUnavailable
from omoide.job_outage import Outage
from omoide.store.port import JobQueue

__all__ = ["Scheduler"]

logger = logging.getLogger("omoide.jobs")  # said as the runner's own lines, as before

_TICK_CLAIM = "scheduler-tick"


class Scheduler:
    def __init__(
        self,
        jobs: JobQueue,
        tick: Callable[[], None],
        *,
        every_s: float,
        worker_id: str,
        outage: Outage,
    ) -> None:
        self.jobs = jobs
        self._tick = tick
        self._every_s = every_s
        self._worker_id = worker_id
        self._outage = outage
        self._wake = threading.Event()
        self._forced = False
        self._cond = threading.Condition()
        self._started = 0
        self._done = 0
        self._thread: threading.Thread | None = None

    @property
    def ticks_done(self) -> int:
        """How many of the thread's ticks (its turns, claimed by this process or not) ended."""
        with self._cond:
            return self._done

    def start(self, stop: threading.Event) -> threading.Thread:
        """Start the thread, which ticks until ``stop`` is set (then :meth:`wake` it)."""
        thread = threading.Thread(
            target=self._run, args=(stop,), name="omoide-scheduler", daemon=True
        )
        thread.start()
        self._thread = thread
        return thread

    def wake(self) -> None:
        """Wake the thread now (a stop: it then sees its stop event)."""
        self._wake.set()

    def detach(self) -> None:
        """The runner stopped: a tick asked for from now on runs in the caller's thread."""
        self._thread = None

    def tick_now(self, timeout: float = 30.0) -> bool:
        """Run a tick now instead of at its next interval, and wait until a tick that started
        after this call has finished (tests moving a clock, operators). Without a running
        thread the tick runs in this thread. False on timeout."""
        if self._thread is None or not self._thread.is_alive():
            self._tick()
            return True
        with self._cond:
            wanted = self._started + 1
            self._forced = True
            self._wake.set()
            return self._cond.wait_for(lambda: self._done >= wanted, timeout)

    def _run(self, stop: threading.Event) -> None:
        while not stop.is_set():
            with self._cond:
                self._wake.clear()
                self._started += 1
                forced, self._forced = self._forced, False
            try:
                if forced or self.jobs.claim_periodic(
                    _TICK_CLAIM, every_s=self._every_s, worker=self._worker_id
                ):
                    self._tick()
            except StorageUnavailable as exc:
                self._outage.seen(exc)
            except Exception:
                logger.exception("scheduler tick failed")
            else:
                self._outage.over()
            with self._cond:
                self._done += 1
                self._cond.notify_all()
            self._wake.wait(self._every_s)
