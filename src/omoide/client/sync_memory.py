"""The synchronous client's methods on a persona's memories: notes, search, sessions and their
turns, user and persona state (mixed into :class:`omoide.client.sync.Client`, which adds the
connection, personas, blocks, context, settings, jobs and export/import).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from omoide.client import calls
from omoide.client.call import Call, When

if TYPE_CHECKING:
    from omoide.api.http import schemas as s

__all__ = ["MemoryCalls"]

T = TypeVar("T")


class MemoryCalls:
    """One method per memory, search, session and state route of the HTTP API."""

    def _run(self, call: Call[T]) -> T:
        raise NotImplementedError  # the client's own: one request, its answer

    # -- memories ----------------------------------------------------------------------------

    def create_memory(
        self,
        persona: str,
        content: str,
        *,
        importance: float | None = None,
        tags: Sequence[str] | None = None,
        kind: str | None = None,
        emotion_type: str | None = None,
        emotion_intensity: float | None = None,
        valid_from: When | None = None,
        valid_until: When | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> s.CreateReply:
        """Store a memory. ``status`` is ``created`` (with ``memory``) or ``duplicate`` (with
        ``duplicate_of``: the current memory it repeats)."""
        return self._run(
            calls.create_memory(
                persona,
                content,
                importance=importance,
                tags=list(tags) if tags else None,
                kind=kind,
                emotion_type=emotion_type,
                emotion_intensity=emotion_intensity,
                valid_from=valid_from,
                valid_until=valid_until,
                metadata=dict(metadata) if metadata is not None else None,
            )
        )

    def list_memories(
        self, persona: str, *, limit: int = 20, offset: int = 0, include_deleted: bool = False
    ) -> s.MemoryList:
        """Recent memories, newest first: ``{"memories": [...]}``."""
        return self._run(
            calls.list_memories(
                persona, limit=limit, offset=offset, include_deleted=include_deleted
            )
        )

    def get_memory(self, persona: str, key: str) -> s.MemoryOut:
        """One memory (the read counts as a recall and strengthens it)."""
        return self._run(calls.get_memory(persona, key))

    def update_memory(self, persona: str, key: str, **changes: Any) -> s.MemoryOut:
        """Change fields (content, tags, kind, emotion_*, valid_*, metadata); a version is
        kept. ``importance`` cannot change."""
        return self._run(calls.update_memory(persona, key, changes))

    def delete_memory(
        self, persona: str, key: str, *, purge: bool = False
    ) -> s.MemoryOut | s.PurgeReply:
        """Tombstone (history kept), or with ``purge`` erase it from the data folder."""
        return self._run(calls.delete_memory(persona, key, purge=purge))

    def memory_history(self, persona: str, key: str) -> s.HistoryReply:
        """Every version, oldest first: ``{"versions": [...]}``."""
        return self._run(calls.memory_history(persona, key))

    def memory_links(self, persona: str, key: str) -> s.LinksReply:
        """Links to related memories: ``{"links": [...]}``."""
        return self._run(calls.memory_links(persona, key))

    def stats(self, persona: str) -> s.StatsOut:
        """Memory statistics of the persona."""
        return self._run(calls.stats(persona))

    def search(
        self,
        persona: str,
        query: str,
        *,
        top_k: int | None = None,
        mode: str | None = None,
        tags: Sequence[str] | None = None,
        date_range: str | None = None,
        valid_at: When | None = None,
        min_importance: float | None = None,
        kind: str | None = None,
        importance_weight: float | None = None,
        include_episodes: bool | None = None,
    ) -> s.SearchReply:
        """Hybrid (or ``semantic`` / ``keyword``) search with filters applied before the top-k
        cut: ``{"results": [{type, key|id, content, score, …}]}``."""
        return self._run(
            calls.search(
                persona,
                query,
                top_k=top_k,
                mode=mode,
                tags=tags,
                date_range=date_range,
                valid_at=valid_at,
                min_importance=min_importance,
                kind=kind,
                importance_weight=importance_weight,
                include_episodes=include_episodes,
            )
        )

    # -- sessions ----------------------------------------------------------------------------

    def open_session(
        self, persona: str, session_id: str | None = None, started_at: When | None = None
    ) -> s.SessionOpened:
        """Open a conversation (idempotent for an existing id): ``{session_id, created}``."""
        return self._run(calls.open_session(persona, session_id, started_at))

    def record_events(
        self, persona: str, session_id: str, events: Sequence[Mapping[str, Any]]
    ) -> s.EventsReply:
        """Append turns ``{speaker, role, content, timestamp?, external_id?, metadata?}``;
        a turn re-sent with its ``external_id`` is skipped (another turn under a used id is
        a 409): ``{accepted, duplicates}``."""
        return self._run(calls.record_events(persona, session_id, events))

    def list_sessions(self, persona: str, *, limit: int = 20, offset: int = 0) -> s.SessionList:
        """The persona's conversations, newest first, each open or ended with its first and
        last turn's time and its turn and episode counts: ``{"sessions": [...]}``."""
        return self._run(calls.list_sessions(persona, limit=limit, offset=offset))

    def end_session(self, persona: str, session_id: str) -> s.SessionEndReply:
        """End a conversation: its last episode and the consolidation are queued
        (``queued``); a conversation that had already ended says so (``already_ended``)."""
        return self._run(calls.end_session(persona, session_id))

    def session_episodes(self, persona: str, session_id: str) -> s.EpisodesReply:
        """The session's episodes with their notes."""
        return self._run(calls.session_episodes(persona, session_id))

    def delete_session(
        self, persona: str, session_id: str, *, with_notes: bool = False
    ) -> s.SessionErased:
        """Erase a conversation (and with ``with_notes`` the notes made from it)."""
        return self._run(calls.delete_session(persona, session_id, with_notes=with_notes))

    # -- state -------------------------------------------------------------------------------

    def get_state(self, persona: str, whose: str = "user") -> s.StateReply:
        """Current ``user`` or ``persona`` state: ``{"state": {key: value}}``."""
        return self._run(calls.get_state(persona, whose))

    def update_state(
        self, persona: str, values: Mapping[str, Any], whose: str = "user"
    ) -> s.StateChanged:
        """Set state values (the old ones are closed, never lost): ``{"changed": [...]}``."""
        return self._run(calls.update_state(persona, whose, values))

    def state_history(
        self, persona: str, key: str, *, whose: str = "user", at: When | None = None
    ) -> s.StateHistory:
        """Every value a state key had (or, with ``at``, the one valid then)."""
        return self._run(calls.state_history(persona, whose, key, at))
