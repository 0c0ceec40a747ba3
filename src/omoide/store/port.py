"""The storage port: what services, jobs, the API and the CLI may ask of a store.

Each :class:`typing.Protocol` here describes the methods the SQLite adapter
(:mod:`omoide.store.sqlite`) already has, under the same names and signatures, so any adapter
that has them (PostgreSQL next) can be wired in :mod:`omoide.wiring` without touching a
service. Only :mod:`omoide.wiring` names an adapter; everything above it names these.

The transaction boundary: every write method of a handle is one transaction. Work that must
commit with it (queueing the job the write causes) is given as a callback that receives a
:class:`UnitOfWork` — the open transaction — never a driver connection.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager
from datetime import datetime, timedelta
from typing import Any, Protocol

import numpy as np

from omoide.model import (
    ApiKeyRecord,
    Block,
    BlockPatch,
    Episode,
    Erased,
    Event,
    Job,
    JobCounts,
    JobRow,
    KeyInfo,
    KeywordHit,
    Link,
    Memory,
    MemoryStats,
    MemoryVersion,
    NewEpisode,
    NewEvent,
    NewMemory,
    OpenedSession,
    Persona,
    PersonaSummary,
    RankFacts,
    RecordedEmbedder,
    SearchFilters,
    Session,
    SessionEnd,
    SessionMark,
    SessionRow,
    SessionSummary,
    StaleRow,
    StateEntry,
    StateKind,
)
from omoide.model.transfer import ExistingRows

__all__ = [
    "ApiKeyStore",
    "BlockHandle",
    "JobQueue",
    "KeyHandle",
    "MemoryHandle",
    "OverviewReads",
    "PersonaDumpHandle",
    "PersonaRestoreHandle",
    "PersonaStore",
    "SessionHandle",
    "SessionMetaHandle",
    "StateHandle",
    "Store",
    "TransferStore",
    "UnitOfWork",
    "VectorModelStore",
    "VectorSearch",
    "VectorTableRef",
]


class UnitOfWork(Protocol):
    """The write transaction a handle method is running. What is done through it commits or
    rolls back with that write (a job exists if and only if the write that caused it did)."""

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


# -- per-persona handles ---------------------------------------------------------------------


class VectorSearch(Protocol):
    """What services ask of a persona's vectors (memories or turns). The SQLite adapter keeps an
    in-memory :class:`~omoide.store.vectors.VectorIndex`; another adapter may answer from its
    database. Similarities are cosines of unit vectors; ``language`` is the script id that
    :func:`~omoide.store.centring.language_of` gave the row's text."""

    def get(self, memory_id: int) -> np.ndarray | None: ...
    def search(
        self,
        query: np.ndarray,
        *,
        limit: int,
        allowed: np.ndarray | None = None,
        centred_for: str | None = None,
    ) -> list[tuple[int, float]]: ...
    def language(self, memory_id: int) -> int | None: ...
    def similarities(self, query: np.ndarray, ids: Iterable[int]) -> dict[int, float]: ...


class MemoryHandle(Protocol):
    """The Note tier of one persona: memories, their vectors, links and versions."""

    persona_id: int
    persona: str

    @property
    def vectors(self) -> VectorSearch: ...

    def get(self, key: str, *, with_links: bool = True) -> Memory: ...
    def id_of(self, key: str) -> int: ...
    def by_ids(self, ids: Sequence[int]) -> dict[int, Memory]: ...
    def rank_facts(self, ids: Sequence[int]) -> dict[int, RankFacts]: ...
    def list_recent(
        self,
        *,
        limit: int,
        offset: int = 0,
        include_tombstoned: bool = False,
        only_current: bool = False,
    ) -> list[Memory]: ...
    def allowed_ids(self, filters: SearchFilters) -> np.ndarray: ...
    def keyword_search(self, query: str, *, limit: int) -> list[KeywordHit]: ...
    def common_words(self, words: Sequence[str], *, share: float, least: int) -> frozenset[str]:
        """Those of ``words`` that at least ``share`` of the active notes hold (and at least
        ``least``); each word's answer kept for one revision, ``share`` and ``least``."""
        ...

    def history(self, key: str) -> list[MemoryVersion]: ...
    def links(self, key: str) -> list[Link]: ...
    def stats(self) -> MemoryStats: ...

    def revision(self) -> int:
        """The persona's memory revision now; every write that adds, changes or removes a
        memory's vector or its indexed words moves it in its own transaction."""
        ...

    def insert(
        self,
        new: NewMemory,
        *,
        vector: np.ndarray,
        stability: float,
        now: datetime,
        changed_by: str = "user",
        after_insert: Callable[[UnitOfWork, Memory], None] | None = None,
        if_revision: int | None = None,
    ) -> Memory | None:
        """One new memory, in one transaction; with ``if_revision``, only while the persona's
        revision is still that one, checked inside the write under the persona's write lock
        (None, nothing written, when it moved: the caller decides again)."""
        ...

    def insert_many(
        self,
        news: Sequence[NewMemory],
        vectors: np.ndarray,
        *,
        stabilities: Sequence[float],
        now: datetime,
        changed_by: str = "user",
    ) -> list[Memory]: ...
    def update(
        self,
        key: str,
        changes: dict[str, Any],
        *,
        now: datetime,
        changed_by: str,
        vector: np.ndarray | None = None,
    ) -> Memory: ...
    def tombstone(self, key: str, *, now: datetime, changed_by: str = "user") -> Memory: ...
    def add_sources(self, key: str, event_ids: Sequence[int]) -> None: ...
    def record_recalls(
        self,
        ids: Iterable[int],
        *,
        now: datetime,
        factor: float,
        cap: float,
        min_interval_hours: float,
    ) -> int: ...
    def apply_evolution(
        self,
        new_key: str,
        *,
        now: datetime,
        neighbour_ids: Sequence[int],
        link_increment: float,
        link_cap: float,
        extends: Sequence[tuple[int, tuple[str, ...], float]],
        supersedes: Sequence[tuple[int, datetime]],
        remainders: Sequence[tuple[NewMemory, np.ndarray, float]] = (),
        judged: Sequence[int] | None = None,
        ended_by: tuple[int, datetime] | None = None,
    ) -> bool:
        """Evolution's effects on the memory ``new_key``, at most once (False if already
        applied): the exactly-once guarantee of evolution jobs lives here. ``judged``: the
        classified candidates, nearest first: only the nearest of them still open is closed,
        if ``supersedes`` holds it (``engine.candidates.closable``), and an empty one closes
        nothing; ``None`` (a direct caller) closes every memory of ``supersedes`` still open.
        ``ended_by``:
        (successor id, valid_until) when the new memory itself is closed by that successor (a
        superseded fact stated again, dated before the change that replaced it)."""
        ...


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


class BlockHandle(Protocol):
    """The named memory blocks of one persona."""

    def list_blocks(self) -> list[Block]: ...
    def get(self, name: str) -> Block: ...
    def upsert(
        self, patch: BlockPatch, *, now: datetime, check: Callable[[Block], None]
    ) -> Block: ...
    def delete(self, name: str) -> None: ...


class StateHandle(Protocol):
    """The bi-temporal user and persona state of one persona."""

    def current(self, kind: StateKind) -> dict[str, StateEntry]: ...
    def keys(self, kind: StateKind) -> list[str]: ...
    def history(self, kind: StateKind, key: str) -> list[StateEntry]: ...
    def valid_at(self, kind: StateKind, key: str, when: datetime) -> StateEntry | None: ...
    def apply(
        self,
        changes: Mapping[StateKind, Mapping[str, str | None]],
        *,
        now: datetime,
        source_session: str | None = None,
    ) -> dict[StateKind, list[str]]: ...


# -- the top-level store ---------------------------------------------------------------------


class PersonaStore(Protocol):
    """Personas, their settings, erasure, and the per-persona handles."""

    def create_persona(self, name: str, *, now: datetime, key_hash: str | None = None) -> Persona:
        """A new persona; with ``key_hash``, its first API key, in one transaction."""
        ...

    def get_persona(self, name: str) -> Persona: ...
    def list_personas(self) -> list[Persona]: ...
    def active_memory_counts(self) -> dict[str, int]: ...
    def persona_settings(self, name: str) -> dict[str, Any]: ...
    def update_persona_settings(
        self,
        name: str,
        changes: dict[str, Any],
        *,
        check: Callable[[dict[str, Any]], None] | None = None,
    ) -> dict[str, Any]: ...
    def purge_memory(self, name: str, key: str, *, now: datetime) -> Erased: ...
    def erase_session(
        self, name: str, session_id: str, *, with_notes: bool, now: datetime
    ) -> Erased: ...
    def delete_persona(self, name: str) -> Erased: ...

    def memories(self, name: str) -> MemoryHandle: ...
    def sessions(self, name: str) -> SessionHandle: ...
    def sessions_meta(self, name: str) -> SessionMetaHandle: ...
    def blocks(self, name: str) -> BlockHandle: ...
    def state(self, name: str) -> StateHandle: ...


class KeyHandle(Protocol):
    """API keys after creation: issue, list, revoke, last use, the one admin key."""

    def add(
        self, *, key_hash: str, persona_id: int | None, is_admin: bool, now: datetime
    ) -> KeyInfo: ...
    def of_persona(self, persona_id: int) -> list[KeyInfo]: ...
    def revoke(self, persona_id: int, key_id: int, *, now: datetime) -> KeyInfo: ...
    def touch(self, key_id: int, *, now: datetime, every: timedelta) -> bool: ...
    def make_sole_admin(self, key_hash: str, *, now: datetime) -> int: ...


class ApiKeyStore(Protocol):
    def find_api_key(self, key_hash: str) -> ApiKeyRecord | None: ...
    def find_api_key_by_id(self, key_id: int) -> ApiKeyRecord | None: ...
    @property
    def keys(self) -> KeyHandle: ...


class Store(PersonaStore, ApiKeyStore, Protocol):
    """One database holding every persona: what :class:`omoide.wiring.Omoide` calls ``store``."""

    def decay_all(self, *, now: datetime, persona: str | None = None) -> int: ...
    def last_decay_at(self) -> datetime | None: ...
    def ping(self) -> None:
        """Raise if the database cannot answer a trivial query (the health check)."""
        ...

    def close(self) -> None: ...


# -- export / import (bulk rows of one persona) ----------------------------------------------


class PersonaDumpHandle(Protocol):
    """One consistent read snapshot of a persona (a context manager): every row as a plain
    record named by what survives a move between folders (memory key, session id, seq)."""

    def __enter__(self) -> PersonaDumpHandle: ...
    def __exit__(self, *exc: object) -> None: ...
    def settings(self) -> dict[str, Any]: ...
    def blocks(self) -> Iterator[dict[str, Any]]: ...
    def state(self) -> Iterator[dict[str, Any]]: ...
    def sessions(self, *, with_vectors: bool) -> Iterator[tuple[str, dict[str, Any]]]: ...
    def memories(self, *, with_vectors: bool) -> Iterator[dict[str, Any]]: ...
    def links(self) -> Iterator[dict[str, Any]]: ...


class PersonaRestoreHandle(Protocol):
    """Restores exported records into one persona: each method one transaction, skipping what
    is already there. ``after(work, …)`` runs inside it (queueing jobs)."""

    persona_id: int
    persona: str

    def existing(self) -> ExistingRows: ...
    def has_session(self, session_id: str) -> bool: ...
    def session_turns(
        self, session_id: str, first_seq: int, last_seq: int
    ) -> list[tuple[int, str, str, str, str | None]]: ...
    def present_keys(self, keys: Sequence[str]) -> set[str]: ...
    def keys_elsewhere(self, keys: Sequence[str]) -> set[str]: ...
    def restore_blocks(self, records: Sequence[dict[str, Any]]) -> int: ...
    def restore_state(self, records: Sequence[dict[str, Any]]) -> int: ...
    def restore_session(
        self,
        session: dict[str, Any],
        events: Sequence[dict[str, Any]],
        episodes: Sequence[dict[str, Any]],
        event_vectors: Sequence[np.ndarray | None],
        episode_vectors: np.ndarray,
        *,
        after: Callable[[UnitOfWork, list[int]], None] | None = None,
    ) -> bool: ...
    def restore_memories(
        self,
        records: Sequence[dict[str, Any]],
        vectors: np.ndarray,
        *,
        after: Callable[[UnitOfWork, list[str]], None] | None = None,
        if_revision: int | None = None,
    ) -> int | None:
        """How many were inserted; with ``if_revision``, only while the persona's memory
        revision is still that one (None, nothing written, when it moved)."""
        ...

    def restore_links(self, records: Sequence[dict[str, Any]]) -> int: ...


class TransferStore(Protocol):
    """A store that can export and import a persona in bulk (both adapters)."""

    def dump(self, name: str) -> PersonaDumpHandle: ...
    def restore(self, name: str) -> PersonaRestoreHandle: ...


# -- the job queue ---------------------------------------------------------------------------


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


# -- read models and maintenance -------------------------------------------------------------


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


class VectorTableRef(Protocol):
    """One kind of stored vector: ``name`` is "memories", "events" or "episodes"."""

    @property
    def name(self) -> str: ...


class VectorModelStore(Protocol):
    """Which embedder made the stored vectors, and the rows ``omoide reindex`` rewrites."""

    @property
    def tables(self) -> Sequence[VectorTableRef]: ...

    def recorded(self) -> RecordedEmbedder | None: ...
    def record(self, model_id: str, dim: int, *, now: datetime) -> None: ...
    def stored_models(self) -> dict[str, int]: ...
    def other_models(self, model_id: str) -> list[str]: ...
    def stale(self, spec: Any, persona_id: int, model_id: str) -> list[StaleRow]: ...
    def save(
        self, spec: Any, persona_id: int, ids: Sequence[int], vectors: np.ndarray, *, model_id: str
    ) -> None: ...
