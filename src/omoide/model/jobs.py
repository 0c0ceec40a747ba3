"""The durable job queue's vocabulary: a claimed job, counts, and the dashboard's job rows."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

__all__ = ["PERIODIC_KINDS", "Job", "JobCounts", "JobRow"]

# Maintenance that is always queued for later (the next decay run). It is reported as
# ``scheduled``, not ``pending``, so "pending + running == 0" means "the work I caused is done".
PERIODIC_KINDS = ("decay",)


@dataclass(frozen=True)
class Job:
    id: int
    persona_id: int | None
    persona: str | None
    kind: str
    payload: dict[str, Any]
    attempts: int
    max_attempts: int
    created_at: datetime
    worker: str | None = None  # the worker holding the claim (its lease), None if unclaimed


@dataclass(frozen=True)
class JobCounts:
    pending: int
    running: int
    failed: int
    done: int
    scheduled: int


@dataclass(frozen=True)
class JobRow:
    id: int
    kind: str
    status: str
    attempts: int
    max_attempts: int
    last_error: str | None
    created_at: datetime
    run_after: datetime
    finished_at: datetime | None

    @property
    def shown_status(self) -> str:
        """Periodic maintenance waiting for its time is "scheduled", not work in the queue."""
        return (
            "scheduled" if self.status == "pending" and self.kind in PERIODIC_KINDS else self.status
        )
