"""Waiting for a persona's background work (``omoide jobs wait``, ``GET /api/jobs/{p}/wait``).

Every wait is scoped by persona: a client waiting for its own evolution or consolidation jobs
never waits behind another persona's backlog. The CLI also runs the persona's ready jobs in its
own process (there may be no server); the HTTP server only watches its workers.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from omoide.errors import InvalidInput
from omoide.jobs import JobRunner
from omoide.model import JobCounts
from omoide.store.port import JobQueue, Store

__all__ = ["MAX_WAIT_S", "QueueService", "QueueState"]

MAX_WAIT_S = 3600.0


@dataclass(frozen=True)
class QueueState:
    """One persona's queue at a moment; ``drained`` when nothing is pending or running."""

    persona: str
    pending: int
    running: int
    failed: int
    done: int
    scheduled: int

    @property
    def drained(self) -> bool:
        return self.pending + self.running == 0

    @classmethod
    def of(cls, persona: str, counts: JobCounts) -> QueueState:
        return cls(
            persona=persona,
            pending=counts.pending,
            running=counts.running,
            failed=counts.failed,
            done=counts.done,
            scheduled=counts.scheduled,
        )


class QueueService:
    def __init__(
        self,
        store: Store,
        jobs: JobQueue,
        runner: JobRunner,
        *,
        sleep: Callable[[float], None] = time.sleep,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self.store = store
        self.jobs = jobs
        self.runner = runner
        self._sleep = sleep
        self._monotonic = monotonic

    def state(self, persona: str) -> QueueState:
        """Counts of the persona's jobs (NotFound for an unknown persona)."""
        return QueueState.of(persona, self.jobs.counts(self.store.get_persona(persona).id))

    def run_ready(self, persona: str) -> int:
        """Run the persona's ready jobs in this process until none is ready; returns how many.
        Other personas' jobs are left to their own workers."""
        return self.runner.run_until_idle(persona_id=self.store.get_persona(persona).id)

    def wait(
        self,
        persona: str,
        *,
        timeout: float,
        run: bool = False,
        poll_s: float = 0.1,
        on_progress: Callable[[QueueState], None] | None = None,
    ) -> QueueState:
        """Wait until the persona's queue is drained or ``timeout`` seconds passed.

        With ``run``, ready jobs of this persona are run here too (the CLI, which may be the
        only process); otherwise the server's workers do the work. ``on_progress`` is called
        with each new state (for a progress line). Returns the last state seen.
        """
        if not 0 <= timeout <= MAX_WAIT_S:
            sent = int(timeout) if float(timeout).is_integer() else timeout
            raise InvalidInput(
                f"timeout must be between 0 and {MAX_WAIT_S:.0f} seconds, got {sent}",
                field="timeout",
            )
        persona_id = self.store.get_persona(persona).id
        deadline = self._monotonic() + timeout
        last: QueueState | None = None
        while True:
            state = QueueState.of(persona, self.jobs.counts(persona_id))
            if on_progress is not None and state != last:
                on_progress(state)
            last = state
            if state.drained or self._monotonic() >= deadline:
                return state
            if not (run and self.runner.run_once(persona_id=persona_id)):
                self._sleep(poll_s)
