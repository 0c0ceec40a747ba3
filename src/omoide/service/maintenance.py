"""Maintenance use cases shared by the HTTP routes and the CLI: persona lists with counts, job
reports, decay, the scheduler's decay queueing, health and metrics counts.

Everything here goes through the storage port, so the routes and the CLI never touch a store.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from omoide.clock import Clock
from omoide.model import JobCounts, Persona
from omoide.service.settings import SettingsService
from omoide.store.port import JobQueue, Store

__all__ = ["DECAY_JOB", "JobReport", "MaintenanceService", "MetricCounts", "PersonaCount"]

DECAY_JOB = "decay"


@dataclass(frozen=True)
class PersonaCount:
    name: str
    created_at: datetime
    memories: int  # active memories


@dataclass(frozen=True)
class JobReport:
    persona: str
    counts: JobCounts
    failures: list[dict[str, Any]]

    def as_dict(self) -> dict[str, Any]:
        """The reply of ``GET /api/jobs/{persona}`` (and of ``omoide jobs status --json``)."""
        counts = self.counts
        return {
            "persona": self.persona,
            "pending": counts.pending,
            "running": counts.running,
            "failed": counts.failed,
            "done": counts.done,
            "scheduled": counts.scheduled,
            "failures": self.failures,
        }


@dataclass(frozen=True)
class MetricCounts:
    memories: dict[str, int]  # active memories per persona
    job_depth: int  # jobs pending or running (scheduled maintenance excluded)


class MaintenanceService:
    def __init__(
        self, store: Store, jobs: JobQueue, settings: SettingsService, clock: Clock
    ) -> None:
        self.store = store
        self.jobs = jobs
        self.settings = settings
        self.clock = clock

    def require_persona(self, name: str) -> Persona:
        """The persona (InvalidInput for a bad name, NotFound for an unknown one)."""
        return self.store.get_persona(name)

    def personas(self) -> list[PersonaCount]:
        """Every persona, by name, with its active memory count."""
        counts = self.store.active_memory_counts()
        return [
            PersonaCount(p.name, p.created_at, counts.get(p.name, 0))
            for p in self.store.list_personas()
        ]

    def job_report(self, persona: str) -> JobReport:
        persona_id = self.store.get_persona(persona).id
        return JobReport(persona, self.jobs.counts(persona_id), self.jobs.failures(persona_id))

    def decay(self, persona: str | None = None) -> int:
        """Recompute FSRS strength now for every memory (of ``persona`` only, when given)."""
        return self.store.decay_all(now=self.clock.now(), persona=persona)

    def schedule_decay(self) -> int:
        """Make sure each persona has its next decay job queued (the scheduler's tick); the
        check and the insert are one transaction, so processes sharing the database never
        queue two."""
        queued = 0
        for persona in self.store.list_personas():
            interval = self.settings.get(persona.name).decay_interval_hours
            if (
                self.jobs.enqueue_unique(
                    kind=DECAY_JOB,
                    persona_id=persona.id,
                    payload={},
                    now=self.clock.now(),
                    delay_s=interval * 3600,
                )
                is not None
            ):
                queued += 1
        return queued

    def run_decay_job(self, persona: str | None, persona_id: int | None) -> int:
        """The decay job: decay now, then queue the next run (a re-run after a crash, or a
        job taken back after its lease expired, does not queue a second one)."""
        n = self.store.decay_all(now=self.clock.now(), persona=persona)
        if persona is not None:
            interval = self.settings.get(persona).decay_interval_hours
            self.jobs.enqueue_unique(
                kind=DECAY_JOB,
                persona_id=persona_id,
                payload={},
                now=self.clock.now(),
                delay_s=interval * 3600,
                include_running=False,
            )
        return n

    def health(self) -> None:
        """Raise if the database does not answer."""
        self.store.ping()

    def metric_counts(self) -> MetricCounts:
        return MetricCounts(self.store.active_memory_counts(), self.jobs.total_depth())
