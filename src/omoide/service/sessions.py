"""Episode tier use cases: sessions and their events, incremental segmentation, consolidation.

Trigger / why / outcome:
- events arrive (HTTP, MCP ``session_record``, chat proxy) → stored idempotently, and a
  ``session.segment`` job is queued in the same transaction; the reply never waits for it.
- the job segments only the turns after the last closed episode (closed episodes are never
  rewritten); every segment but the still-open last one becomes an episode (all of them once
  the session has ended), with its FTS entry and vector, and queues ``episode.consolidate``.
- a session ends by ``session_end``, by ``session_begin`` (which ends the persona's other open
  sessions first) or by the scheduler once it heard no turn for ``session_idle_minutes`` (and a
  chat import ends the conversations it posts); all queue the same final segmentation, so
  nothing said is left unconsolidated, and record how it ended (``model.SessionEnd``) in the
  transaction that ends it.
- consolidation turns an episode into notes through the normal write path (dedup, evolution,
  classification) with ``source = consolidation``, ``source_ref`` = the episode and provenance
  to the exact events; profile facts also update the bi-temporal user state.

The background work (segmentation and consolidation) is ``episode_work.py``'s.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from omoide.clock import Clock
from omoide.embed.base import Embedder
from omoide.engine.consolidate import Consolidator
from omoide.engine.counts import how_many
from omoide.engine.segment import OfflineSegmenter, Segmenter
from omoide.model import (
    Episode,
    OpenedSession,
    Session,
    SessionEnd,
    SessionSummary,
    new_session_id,
)
from omoide.service.chat_pending import PendingRecords
from omoide.service.episode_work import CONSOLIDATE_JOB, SEGMENT_JOB, EpisodeWork
from omoide.service.event_input import check_events
from omoide.service.memories import MemoryService
from omoide.service.settings import SettingsService
from omoide.service.validate import check_happened, check_page, check_session_id
from omoide.store.port import Store, UnitOfWork

__all__ = ["CONSOLIDATE_JOB", "SEGMENT_JOB", "SessionService"]

logger = logging.getLogger(__name__)


class SessionService(EpisodeWork):
    """Sessions and their events: opening, recording, ending, listing (the background work
    they queue: :class:`~omoide.service.episode_work.EpisodeWork`)."""

    def __init__(
        self,
        store: Store,
        embedder: Embedder,
        clock: Clock,
        settings: SettingsService,
        memories: MemoryService,
        consolidator_for: Callable[[Any], Consolidator],
        update_user_state: Callable[..., Any] | None = None,
        on_enqueue: Callable[[], None] | None = None,
        segmenter_for: Callable[[Any], Segmenter] | None = None,
    ) -> None:
        self.store = store
        self.embedder = embedder
        self.clock = clock
        self.settings = settings
        self.memories = memories
        self.consolidator_for = consolidator_for
        self.update_user_state = update_user_state
        self.on_enqueue = on_enqueue
        offline = OfflineSegmenter()
        self.segmenter_for = segmenter_for or (lambda cfg: offline)
        self.pending = PendingRecords()  # chat turns answered, not yet recorded (end_told waits)

    # -- recording -----------------------------------------------------------------------

    def open(
        self, persona: str, *, session_id: Any = None, started_at: Any = None
    ) -> tuple[Session, bool]:
        """Open a session (idempotent for an existing id); returns (session, created)."""
        if session_id is None:
            session_id = new_session_id()
        check_session_id(session_id)
        now = self.clock.now()
        start = check_happened(started_at, "started_at", now) or now
        return self.store.sessions(persona).open(session_id, started_at=start)

    def record(
        self, persona: str, session_id: str, events: Any, *, keep_first: bool = False
    ) -> tuple[int, int]:
        """Append events (idempotent by external_id: a resent turn is a duplicate, another turn
        under a used id a :class:`Conflict` unless ``keep_first``) and queue segmentation."""
        store = self.store.sessions(persona)
        session = store.get(session_id)
        clean = check_events(events, self.clock.now())
        now = self.clock.now()

        def queue(work: UnitOfWork) -> None:
            self._queue(
                work,
                store.persona_id,
                SEGMENT_JOB,
                {"session_id": session_id, "final": session.ended_at is not None},
            )

        accepted, duplicates = store.add_events(
            session, clean, now=now, after=queue, keep_first=keep_first
        )
        if accepted and self.on_enqueue:
            self.on_enqueue()
        return accepted, duplicates

    def end(self, persona: str, session_id: str, *, by: SessionEnd = SessionEnd.CLIENT) -> Session:
        """Close the session: its last segment becomes an episode too; consolidation follows.
        ``by``: how it ended (``session_end`` from a client unless said otherwise); a session
        already ended keeps its end and its cause, and nothing is queued for it again."""
        return self.end_told(persona, session_id, by=by)[0]

    def end_told(
        self, persona: str, session_id: str, *, by: SessionEnd = SessionEnd.CLIENT
    ) -> tuple[Session, bool]:
        """:meth:`end`, and whether this call ended the session (and queued its last
        segmentation): False for one that had already ended.

        Why: ``POST …/end`` answered ``queued: true`` on a session already ended, and queued
        a final segmentation that had nothing left to cut (its end queued one; a turn
        recorded since queues its own, final). Outcome: the end's work is queued once, in the
        transaction that ends the session, and the reply says which call that was. A chat turn
        answered just before is recorded first (:attr:`pending`), so the end includes it."""
        self.pending.wait(persona)
        store = self.store.sessions(persona)
        session = store.get(session_id)
        queued: list[bool] = []

        def queue(work: UnitOfWork) -> None:
            self._queue(
                work, store.persona_id, SEGMENT_JOB, {"session_id": session_id, "final": True}
            )
            queued.append(True)

        ended = store.end(session, now=self.clock.now(), by=by, after=queue)
        if queued and self.on_enqueue:
            self.on_enqueue()
        return ended, bool(queued)

    def end_open(self, persona: str) -> list[str]:
        """End every open session of the persona (``session_begin`` does this first), with the
        same effect as :meth:`end`; returns their ids."""
        return self._end_where(persona, SessionEnd.NEW_SESSION, idle_since=None)

    def begin(self, persona: str, *, now: datetime) -> OpenedSession:
        """Open a session for ``session_begin``: the persona's open sessions are ended (as
        :meth:`end_open`) in the same transaction, so concurrent calls leave one open."""
        store = self.store.sessions(persona)
        ended: list[str] = []

        def queue(work: UnitOfWork, session_id: str) -> None:
            self._queue(
                work, store.persona_id, SEGMENT_JOB, {"session_id": session_id, "final": True}
            )

        def end_others() -> None:
            ended.extend(store.end_open(by=SessionEnd.NEW_SESSION, after=queue))

        opened = self.store.sessions_meta(persona).begin(now=now, first=end_others)
        if ended and self.on_enqueue:  # once committed, so a woken worker sees the jobs
            self.on_enqueue()
        return opened

    def end_idle(self, persona: str) -> list[str]:
        """End the persona's sessions that heard no turn for ``session_idle_minutes``."""
        minutes = self.settings.get(persona).session_idle_minutes
        if minutes <= 0:
            return []
        return self._end_where(
            persona, SessionEnd.IDLE, idle_since=self.clock.now() - timedelta(minutes=minutes)
        )

    def end_idle_sessions(self) -> int:
        """The scheduler's sweep over every persona (one indexed query each); returns how many
        sessions it ended."""
        ended = 0
        for persona in self.store.list_personas():
            ids = self.end_idle(persona.name)
            if ids:
                logger.info("ended %s persona=%s", how_many(len(ids), "idle session"), persona.name)
            ended += len(ids)
        return ended

    def _end_where(self, persona: str, by: SessionEnd, *, idle_since: datetime | None) -> list[str]:
        store = self.store.sessions(persona)

        def queue(work: UnitOfWork, session_id: str) -> None:
            self._queue(
                work, store.persona_id, SEGMENT_JOB, {"session_id": session_id, "final": True}
            )

        ended = store.end_open(by=by, idle_since=idle_since, after=queue)
        if ended and self.on_enqueue:
            self.on_enqueue()
        return ended

    def get(self, persona: str, session_id: str) -> Session:
        return self.store.sessions(persona).get(session_id)

    def list_recent(
        self, persona: str, *, limit: int = 20, offset: int = 0
    ) -> list[SessionSummary]:
        """The persona's conversations, newest first: ``limit`` (1-1000) after ``offset``."""
        check_page(limit, offset)
        return self.store.sessions_meta(persona).page(limit=limit, offset=offset)

    def episodes(self, persona: str, session_id: str) -> list[tuple[Episode, list[str]]]:
        """The session's episodes with the keys of the notes consolidated from each."""
        store = self.store.sessions(persona)
        return [
            (ep, store.notes_of_episode(ep.id)) for ep in store.episodes_of(store.get(session_id))
        ]
