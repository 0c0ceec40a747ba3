"""The dashboard's read models."""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

from omoide.model import JobRow, PersonaSummary, SearchFilters, SessionRow


class OverviewReads(Protocol):
    """The dashboard's read models (counts over every persona, pages, queued jobs)."""

    def persona_summaries(self, persona_id: int | None = None) -> list[PersonaSummary]: ...
    def memory_ids(
        self,
        persona_id: int,
        *,
        before: tuple[str, int] | None,
        limit: int,
        include_tombstoned: bool,
        filters: SearchFilters | None = None,
    ) -> list[tuple[int, str]]: ...
    def sessions(self, persona_id: int, *, limit: int, offset: int) -> list[SessionRow]: ...
    def jobs(self, persona_id: int, status: str, *, limit: int) -> list[JobRow]: ...
    def retry_job(self, persona_id: int, job_id: int, *, now: datetime) -> None: ...
