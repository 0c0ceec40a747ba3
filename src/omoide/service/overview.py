"""Read-only views over a persona for the dashboard: summaries, sessions, turns, jobs.

The store holds all of this; no other service exposed it. Nothing here writes except
:meth:`OverviewService.retry_job`, which puts a failed background job back in the queue.
Authorisation is the caller's (the dashboard checks the principal before calling), exactly as
for every other service.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from omoide.clock import Clock, parse_iso
from omoide.engine.errors import quoted
from omoide.errors import InvalidInput
from omoide.model import (
    Episode,
    Event,
    JobCounts,
    JobRow,
    Memory,
    PersonaSummary,
    SearchFilters,
    Session,
    SessionRow,
)
from omoide.service.memory_reads import with_live_strength
from omoide.store.port import JobQueue, OverviewReads, Store

__all__ = ["EpisodeView", "MemoryPage", "OverviewService", "SessionView"]

JOB_STATUSES = ("pending", "running", "failed", "done")
MAX_PAGE = 500


@dataclass(frozen=True)
class MemoryPage:
    memories: list[Memory]  # newest first
    next_cursor: str | None  # pass as ``before`` for the next (older) page; None at the end


@dataclass(frozen=True)
class EpisodeView:
    episode: Episode
    notes: list[Memory]  # active notes consolidated from it


@dataclass(frozen=True)
class SessionView:
    session: Session
    turns: list[Event]  # one page, in order
    more: bool  # turns after this page exist
    episodes: list[EpisodeView]


def _check_page(limit: int, offset: int = 0) -> None:
    if not 1 <= limit <= MAX_PAGE:
        raise InvalidInput(f"limit must be between 1 and {MAX_PAGE}", field="limit")
    if offset < 0:
        raise InvalidInput("offset must not be negative", field="offset")


def _cursor(text: str | None) -> tuple[str, int] | None:
    """``<created_at>~<id>`` → (created_at, id); 422 for anything else."""
    if not text:
        return None
    stamp, _, row_id = text.rpartition("~")
    try:
        parse_iso(stamp)
    except ValueError:
        stamp = ""
    if not stamp or not row_id.isdigit():
        raise InvalidInput(f"invalid page cursor {quoted(text)}", field="before")
    return stamp, int(row_id)


class OverviewService:
    def __init__(
        self,
        store: Store,
        reads: OverviewReads,
        jobs: JobQueue,
        clock: Clock,
        on_enqueue: Callable[[], None] | None = None,
    ) -> None:
        self.store = store
        self.clock = clock
        self.on_enqueue = on_enqueue
        self.read = reads
        self.jobs_store = jobs

    def persona_summaries(self) -> list[PersonaSummary]:
        """Every persona with its counts (the caller filters what a principal may see)."""
        return self.read.persona_summaries()

    def persona_summary(self, persona: str) -> PersonaSummary:
        """The counts of one persona (index-only where the schema allows)."""
        return self.read.persona_summaries(self.store.get_persona(persona).id)[0]

    def memory_page(
        self,
        persona: str,
        *,
        before: str | None = None,
        limit: int = 50,
        include_deleted: bool = False,
        filters: SearchFilters | None = None,
    ) -> MemoryPage:
        """A page of memories, newest first, with live strength; ``before`` is the cursor a
        previous page returned (keyset pagination: every page costs the same at 100k).
        ``filters`` (a search's, validated by ``SearchService.build_filters``) keep the
        memories a search with them could find: active ones only, as in a search."""
        _check_page(limit)
        memories = self.store.memories(persona)
        searched = filters is not None and not filters.empty  # a search finds active ones only
        rows = self.read.memory_ids(
            memories.persona_id,
            before=_cursor(before),
            limit=limit + 1,
            include_tombstoned=include_deleted and not searched,
            filters=filters,
        )
        found = memories.by_ids([row_id for row_id, _ in rows[:limit]])
        now = self.clock.now()
        page = [
            with_live_strength(found[row_id], now) for row_id, _ in rows[:limit] if row_id in found
        ]
        last = rows[limit - 1] if len(rows) > limit else None
        return MemoryPage(
            memories=page, next_cursor=None if last is None else f"{last[1]}~{last[0]}"
        )

    def sessions(self, persona: str, *, limit: int = 50, offset: int = 0) -> list[SessionRow]:
        _check_page(limit, offset)
        return self.read.sessions(self.store.get_persona(persona).id, limit=limit, offset=offset)

    def session(
        self, persona: str, session_id: str, *, after_seq: int = 0, limit: int = 200
    ) -> SessionView:
        """One session: a page of its turns, and every episode with its notes."""
        _check_page(limit, after_seq)
        sessions = self.store.sessions(persona)
        session = sessions.get(session_id)
        events = sessions.events_after(session, after_seq)
        memories = self.store.memories(persona)
        episodes = []
        for episode in sessions.episodes_of(session):
            notes = [
                memories.get(key, with_links=False) for key in sessions.notes_of_episode(episode.id)
            ]
            episodes.append(EpisodeView(episode=episode, notes=notes))
        return SessionView(
            session=session, turns=events[:limit], more=len(events) > limit, episodes=episodes
        )

    def events(self, persona: str, ids: list[int]) -> list[Event]:
        """Session events by id (a memory's sources), in id order."""
        found = self.store.sessions(persona).events_by_ids(ids)
        return [found[i] for i in sorted(found)]

    def jobs(self, persona: str, status: str, *, limit: int = 20) -> list[JobRow]:
        if status not in JOB_STATUSES:
            raise InvalidInput(f"status must be one of {', '.join(JOB_STATUSES)}", field="status")
        _check_page(limit)
        return self.read.jobs(self.store.get_persona(persona).id, status, limit=limit)

    def job_counts(self, persona: str) -> JobCounts:
        return self.jobs_store.counts(self.store.get_persona(persona).id)

    def retry_job(self, persona: str, job_id: int) -> None:
        """Queue a failed job of this persona again (404 for another persona's job)."""
        self.read.retry_job(self.store.get_persona(persona).id, job_id, now=self.clock.now())
        if self.on_enqueue is not None:
            self.on_enqueue()
