"""The durable job queue shared by every process on one database."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Protocol

from omoide.model import Job, JobCounts


class JobQueue(Protocol):
    """The durable job queue shared by every process on one database.

    A claim is a lease held by one worker (``Job.worker``) until ``lease_s`` seconds of wall
    time pass without a :meth:`heartbeat`; any process then takes the job back. ``complete``
    and ``fail`` of a worker that lost its lease change nothing.
    """

    def enqueue(
        self,
        *,
        kind: str,
        persona_id: int | None,
        payload: dict[str, Any],
        now: datetime,
        delay_s: float = 0.0,
        max_attempts: int = 5,
    ) -> int: ...
    def enqueue_unique(
        self,
        *,
        kind: str,
        persona_id: int | None,
        payload: dict[str, Any],
        now: datetime,
        delay_s: float = 0.0,
        include_running: bool = True,
    ) -> int | None:
        """Enqueue unless a job of ``kind`` for this persona is open, in one transaction
        (so two processes never both queue it); None when one was open."""
        ...

    def recover(self) -> int: ...
    def claim(
        self,
        *,
        now: datetime,
        persona_id: int | None = None,
        worker: str | None = None,
        lease_s: float | None = None,
    ) -> Job | None: ...
    def heartbeat(self, job: Job, *, lease_s: float | None = None) -> bool: ...
    def release(self, job: Job) -> bool:
        """Put back a job its worker holds but will not finish (a stopping process): pending
        at once, its attempt not counted; False when the worker no longer holds it."""
        ...

    def complete(self, job_id: int, *, now: datetime, worker: str | None = None) -> bool: ...
    def fail(self, job: Job, error: str, *, now: datetime, backoff_s: float) -> str: ...
    def gone(self, job_id: int) -> bool:
        """Whether the job no longer exists: what it worked on (its persona, conversation or
        memory) was erased, and the job with it."""
        ...

    def claim_periodic(self, name: str, *, every_s: float, worker: str) -> bool:
        """Whether this worker runs the periodic duty ``name`` now: true for one caller per
        ``every_s`` seconds across every process sharing the database."""
        ...

    def counts(self, persona_id: int | None = None) -> JobCounts: ...
    def failures(self, persona_id: int, *, limit: int = 20) -> list[dict[str, Any]]: ...
    def has_open(
        self, kind: str, persona_id: int | None, *, include_running: bool = True
    ) -> bool: ...
    def total_depth(self) -> int: ...
