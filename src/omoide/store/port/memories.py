"""The Note tier of one persona as the port gives it: memories, their vectors, links and
versions."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from typing import Any, Protocol

import numpy as np

from omoide.model import (
    KeywordHit,
    Link,
    Memory,
    MemoryStats,
    MemoryVersion,
    NewMemory,
    RankFacts,
    SearchFilters,
)
from omoide.store.port.work import UnitOfWork


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
