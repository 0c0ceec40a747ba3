"""The Episode tier of one persona as the port gives it: sessions, their turns and episodes,
and the session starts and ends."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from datetime import datetime
from typing import Any, Protocol

import numpy as np

from omoide.model import (
    Episode,
    Event,
    KeywordHit,
    NewEpisode,
    NewEvent,
    OpenedSession,
    Session,
    SessionEnd,
    SessionMark,
    SessionSummary,
)
from omoide.store.port.memories import VectorSearch
from omoide.store.port.work import UnitOfWork


class SessionHandle(Protocol):
    """The Episode tier of one persona: sessions, events, episodes and their vectors."""

    persona_id: int
    persona: str

    def open(
        self, session_id: str, *, started_at: datetime, metadata: dict[str, Any] | None = None
    ) -> tuple[Session, bool]: ...
    def get(self, session_id: str) -> Session: ...
    def numbered(self, base: str) -> list[Session]: ...
    def holding(self, sessions: Sequence[Session], external_id: str) -> set[int]: ...
    def end(
        self,
        session: Session,
        *,
        now: datetime,
        by: SessionEnd = ...,
        after: Callable[[UnitOfWork], None] | None = None,
    ) -> Session: ...
    def end_open(
        self,
        *,
        by: SessionEnd,
        idle_since: datetime | None = None,
        after: Callable[[UnitOfWork, str], None] | None = None,
    ) -> list[str]: ...
    def add_events(
        self,
        session: Session,
        events: Sequence[NewEvent],
        *,
        now: datetime,
        after: Callable[[UnitOfWork], None] | None = None,
        keep_first: bool = False,
    ) -> tuple[int, int]: ...
    def events_after(self, session: Session, seq: int) -> list[Event]: ...
    def events_by_ids(self, ids: Sequence[int]) -> dict[int, Event]: ...
    def events_between(self, session_id: str, first_seq: int, last_seq: int) -> list[Event]: ...
    def events_of_episode(self, episode_id: int) -> list[Event]: ...
    def event_vectors(self, ids: Sequence[int]) -> dict[int, np.ndarray]: ...
    def save_event_vectors(self, events: Sequence[Event], vectors: np.ndarray) -> None: ...
    def add_episodes(
        self,
        session: Session,
        episodes: Sequence[NewEpisode],
        *,
        expected_upto: int,
        now: datetime,
        open_reason: str,
        open_surprise: float,
        after: Callable[[UnitOfWork, list[int]], None] | None = None,
    ) -> list[int]: ...
    def get_episode(self, episode_id: int) -> Episode: ...
    def episodes_of(self, session: Session) -> list[Episode]: ...
    def consolidating(self, episode_id: int, *, now: datetime) -> AbstractContextManager[bool]:
        """A write transaction marking an episode consolidated, at most once: True when this
        call marked it (writes made inside join the transaction), False if it already was."""
        ...

    def notes_of_episode(self, episode_id: int) -> list[str]: ...
    def keyword_events(self, query: str, *, limit: int) -> list[KeywordHit]: ...

    @property
    def event_index(self) -> VectorSearch: ...


class SessionMetaHandle(Protocol):
    """Session starts and ends of one persona (``session_begin``, time since last session,
    the list of its conversations)."""

    def latest(self, limit: int = 1) -> list[SessionMark]: ...
    def page(self, *, limit: int, offset: int = 0) -> list[SessionSummary]: ...
    def begin(
        self, *, now: datetime, first: Callable[[], object] | None = None
    ) -> OpenedSession: ...
