"""Background work: worker threads over the durable job queue, and the periodic scheduler
(``omoide.scheduler``, started and stopped with them).

Jobs never delay a reply: a write enqueues in its own transaction and returns; workers in the
server process pick the job up (woken at once by :meth:`JobRunner.notify`, else by polling).
A failing handler is retried with exponential backoff and finally marked failed with its error,
visible at ``GET /api/jobs/{persona}``. A job whose persona, conversation or memory is erased
while it runs is discarded: erasure deletes the job, the handler's error (it finds its rows
gone) is not a failure, and one INFO line says so. Handlers must be idempotent: a job
interrupted by a crash is run again — by any live process once its lease expires, or at once
after a restart.

Each claim is a lease of ``lease_s`` seconds held by this runner's worker id; while a handler
runs, a heartbeat thread renews it every third of the lease. A runner that lost a lease (it
hung past expiry and another process took the job back) records nothing for that job.

A stop (:meth:`JobRunner.stop`) waits for the jobs mid-run within one deadline for every thread
(:data:`STOP_WAIT_S`), or until told to give up (a server's second Ctrl+C). A job still running
then is put back in the queue, its attempt not counted, and runs again on the next start; its
handler, left to end in its thread, records nothing, and that thread then ends (a later
:meth:`JobRunner.start` runs threads of its own). Putting it back is a write, waited for up to
:data:`PUT_BACK_WAIT_S` (the write lock may be held by one of those very handlers): a job not
put back by then stays leased and runs again once its lease runs out.

The scheduler thread ticks every ``tick_every_s`` (:class:`~omoide.scheduler.Scheduler`);
:meth:`JobRunner.tick_now` runs a tick at once, unconditionally.

While storage is unavailable (:class:`~omoide.errors.StorageUnavailable`: PostgreSQL down or
refusing, a SQLite file locked or failing), one WARNING line says so for the whole outage, not
one per poll; the workers then poll ever less often (:data:`OUTAGE_FIRST_WAIT_S`, doubling, at
most :data:`OUTAGE_MAX_WAIT_S` apart), and one INFO line says when storage serves again. Any
other exception a worker meets is logged with its traceback, as before.
"""

from __future__ import annotations

import logging
import os
import secrets
import socket
import threading
import time
from collections.abc import Callable

from omoide.clock import Clock
from omoide.embed.fair import mark_background_thread
from omoide.engine.counts import how_many
from omoide.errors import StorageUnavailable
from omoide.job_outage import OUTAGE_FIRST_WAIT_S, OUTAGE_MAX_WAIT_S, Outage
from omoide.model import Job
from omoide.scheduler import Scheduler
from omoide.stopping import DaemonWrite, joined
from omoide.store.port import JobQueue

__all__ = [
    "DEFAULT_LEASE_S",
    "OUTAGE_FIRST_WAIT_S",
    "OUTAGE_MAX_WAIT_S",
    "PUT_BACK_WAIT_S",
    "STOP_WAIT_S",
    "Handler",
    "JobRunner",
    "new_worker_id",
]

logger = logging.getLogger(__name__)

Handler = Callable[[Job], None]

_MAX_BACKOFF_S = 300.0
DEFAULT_LEASE_S = 60.0
# How long a stop waits, in all, for the jobs its workers are running (JobRunner.stop).
STOP_WAIT_S = 10.0
# How long a stop then waits to put the jobs still running back in the queue (a write).
PUT_BACK_WAIT_S = 2.0


def new_worker_id() -> str:
    """A worker id unique across hosts, processes and runners: ``host:pid:random``."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"


class JobRunner:
    def __init__(
        self,
        jobs: JobQueue,
        clock: Clock,
        handlers: dict[str, Handler],
        *,
        workers: int = 1,
        poll_s: float = 0.25,
        backoff_base_s: float = 2.0,
        tick: Callable[[], None] | None = None,
        tick_every_s: float = 60.0,
        lease_s: float = DEFAULT_LEASE_S,
    ) -> None:
        if lease_s <= 0:
            raise ValueError("lease_s must be positive")
        self.jobs = jobs
        self.worker_id = new_worker_id()
        self.lease_s = lease_s
        self.clock = clock
        self.handlers = handlers
        self.workers = workers
        self.poll_s = poll_s
        self.backoff_base_s = backoff_base_s
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        # The claims whose handlers run now, and those a stop put back while they ran (their
        # handlers, left to end, record nothing), by the claim (``id`` of its Job: a job put
        # back may be claimed again while the first handler still runs).
        self._held_lock = threading.Lock()
        self._running: dict[int, Job] = {}
        self._let_go: set[int] = set()
        self._outage = Outage()
        self._scheduler = (
            None
            if tick is None
            else Scheduler(
                jobs, tick, every_s=tick_every_s, worker_id=self.worker_id, outage=self._outage
            )
        )

    def start(self) -> None:
        recovered = self.jobs.recover()
        if recovered:
            logger.info("resuming %s interrupted by a restart", how_many(recovered, "job"))
        # this start's threads watch an event of their own: a thread a stop gave up on (its
        # handler still running) ends with its job, even once a later start runs others
        # (before: the start cleared the one event, and it went on as an extra worker)
        self._stop = stop = threading.Event()
        for n in range(self.workers):
            thread = threading.Thread(
                target=self._loop, args=(stop,), name=f"omoide-worker-{n}", daemon=True
            )
            thread.start()
            self._threads.append(thread)
        if self._scheduler is not None:
            self._threads.append(self._scheduler.start(stop))

    def stop(self, timeout: float = STOP_WAIT_S, *, give_up: threading.Event | None = None) -> bool:
        """Stop the workers and the scheduler, waiting for the jobs mid-run for ``timeout``
        seconds at most in all (one deadline for every thread, not one each), and no longer
        once ``give_up`` is set (a server's second Ctrl+C). A job still running then is put
        back in the queue (``JobQueue.release``: pending, its attempt not counted), to run
        again on the next start, here or in any process sharing the database; its handler is
        left to end in its thread and records nothing. True when every thread had ended."""
        self._stop.set()
        self._wake.set()
        if self._scheduler is not None:
            self._scheduler.wake()
        deadline = time.monotonic() + timeout
        for thread in self._threads:
            joined(thread, deadline, give_up)
        ended = not any(thread.is_alive() for thread in self._threads)
        self._threads.clear()
        if self._scheduler is not None:
            self._scheduler.detach()
        if not ended:
            self._put_back()
        return ended

    def _put_back(self) -> None:
        """Put the jobs still running back in the queue: a write on a thread of its own, waited
        for up to :data:`PUT_BACK_WAIT_S` (``stopping.DaemonWrite``, which says why)."""
        with self._held_lock:
            running = sorted(job.id for job in self._running.values())
        DaemonWrite(self._put_back_now, name="omoide-put-back").wait(
            PUT_BACK_WAIT_S,
            late=lambda: logger.warning(
                "stopped with %s still running (ids %s), not yet put back in the queue: the "
                "database's write lock is held (by one of them, or another process); not waited "
                "for: each runs again on the next start, once its lease of %g s runs out (at once "
                "if this process puts it back before it ends)",
                how_many(len(running), "job"),
                ", ".join(map(str, running)),
                self.lease_s,
            ),
        )

    def _put_back_now(self) -> None:
        """Put the jobs still running back in the queue, and say which. Under ``_held_lock``,
        so that a handler ending meanwhile either ended first (and its job is done) or finds
        its job put back (:meth:`_ended`)."""
        released: list[Job] = []
        with self._held_lock:
            for job in list(self._running.values()):
                try:
                    if self.jobs.release(job):
                        released.append(job)
                        self._let_go.add(id(job))
                except Exception as exc:  # still leased: taken back once the lease runs out
                    logger.warning(
                        "job %d could not be put back (%s): it runs again once its lease runs out",
                        job.id,
                        exc,
                        exc_info=not isinstance(exc, StorageUnavailable),
                    )
        _say_put_back(released)

    def notify(self) -> None:
        """Wake a worker now (called after a write that enqueued work)."""
        self._wake.set()

    def tick_now(self, timeout: float = 30.0) -> bool:
        """Run the scheduler's tick now instead of at its next interval, and wait until a tick
        that started after this call has finished (tests moving a clock, operators). Without
        a running scheduler thread the tick runs in this thread. False on timeout, and
        without a tick."""
        return self._scheduler is not None and self._scheduler.tick_now(timeout)

    def run_once(self, *, persona_id: int | None = None) -> bool:
        """Claim and run one ready job (of ``persona_id`` only, when given); False when none
        is ready."""
        job = self.jobs.claim(
            now=self.clock.now(), persona_id=persona_id, worker=self.worker_id, lease_s=self.lease_s
        )
        if job is None:
            return False
        self._run(job)
        return True

    def run_until_idle(self, *, max_jobs: int = 1_000_000, persona_id: int | None = None) -> int:
        """Run ready jobs in this thread until none is ready (CLI, tests, benchmarks); with
        ``persona_id``, only that persona's jobs."""
        done = 0
        while done < max_jobs and self.run_once(persona_id=persona_id):
            done += 1
        return done

    def _run(self, job: Job) -> None:
        with self._held_lock:
            self._running[id(job)] = job
        handler = self.handlers.get(job.kind)
        started = time.perf_counter()
        done = threading.Event()
        beat = threading.Thread(
            target=self._heartbeat, args=(job, done), name=f"omoide-lease-{job.id}", daemon=True
        )
        beat.start()
        try:
            if handler is None:
                raise LookupError(f"no handler for job kind {job.kind!r}")
            handler(job)
        except Exception as exc:  # a failing job must never kill the worker
            done.set()
            beat.join()
            if self._ended(job):
                return
            backoff = min(_MAX_BACKOFF_S, self.backoff_base_s * 2 ** (job.attempts - 1))
            error = f"{type(exc).__name__}: {exc}"
            status = self.jobs.fail(job, error, now=self.clock.now(), backoff_s=backoff)
            if status == "lost" and self._discarded(job):
                return
            logger.warning(
                "job %d %s persona=%s attempt %d failed (%s): %s",
                job.id,
                job.kind,
                job.persona,
                job.attempts,
                status,
                error[:300],
                exc_info=logger.isEnabledFor(logging.DEBUG),
            )
            return
        finally:
            done.set()
        beat.join()
        if self._ended(job):
            return
        if not self.jobs.complete(job.id, now=self.clock.now(), worker=job.worker):
            if self._discarded(job):
                return
            logger.warning(
                "job %d %s persona=%s finished after its lease was lost",
                job.id,
                job.kind,
                job.persona,
            )
            return
        logger.info(
            "job %d %s persona=%s done in %.0f ms",
            job.id,
            job.kind,
            job.persona,
            (time.perf_counter() - started) * 1000,
        )

    def _ended(self, job: Job) -> bool:
        """``job``'s handler has returned: True when a stop put it back meanwhile (nothing to
        record: it runs again on the next start)."""
        with self._held_lock:
            self._running.pop(id(job), None)
            let_go = id(job) in self._let_go
            self._let_go.discard(id(job))
        if let_go:
            logger.debug("job %d %s ended after the stop put it back", job.id, job.kind)
        return let_go

    def _discarded(self, job: Job) -> bool:
        """True (and one INFO line) when the job's row is gone: its persona, conversation or
        memory was erased while it ran, so whatever the handler did or raised is moot."""
        if not self.jobs.gone(job.id):
            return False
        logger.info(
            "job %d %s persona=%s discarded: its persona, conversation or memory was "
            "erased while it ran",
            job.id,
            job.kind,
            job.persona,
        )
        return True

    def _heartbeat(self, job: Job, done: threading.Event) -> None:
        """Renew ``job``'s lease every third of the lease until ``done`` is set."""
        while not done.wait(self.lease_s / 3):
            if id(job) in self._let_go:  # put back by a stop: no longer this worker's
                return
            try:
                if not self.jobs.heartbeat(job, lease_s=self.lease_s):
                    if not self.jobs.gone(job.id):  # else _run says it was discarded
                        logger.warning("job %d %s lost its lease", job.id, job.kind)
                    return
            except StorageUnavailable as exc:  # the next beat tries again
                self._outage.seen(exc)
            except Exception:
                logger.exception("job %d heartbeat failed", job.id)

    def _loop(self, stop: threading.Event) -> None:
        mark_background_thread()  # its embeddings yield to interactive ones (embed/fair.py)
        failed = 0  # polls in a row that found storage unavailable
        while not stop.is_set():
            try:
                ran = self.run_once()
            except StorageUnavailable as exc:  # an outage: said once, polled ever less often
                self._outage.seen(exc)
                failed += 1
                self._wake.wait(min(OUTAGE_MAX_WAIT_S, OUTAGE_FIRST_WAIT_S * 2 ** (failed - 1)))
                self._wake.clear()
                continue
            except Exception:  # never die
                logger.exception("job worker error")
                ran = False
            else:
                failed = 0
                self._outage.over()
            if not ran:
                self._wake.wait(self.poll_s)
                self._wake.clear()


def _say_put_back(released: list[Job]) -> None:
    """One line for the jobs a stop put back, if any."""
    if released:
        logger.warning(
            "stopped with %s still running (ids %s): put back in the queue, they run "
            "again on the next start",
            how_many(len(released), "job"),
            ", ".join(str(job.id) for job in sorted(released, key=lambda job: job.id)),
        )
