"""Export and import: bulk rows of one persona, read as one snapshot or restored."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any, Protocol

import numpy as np

from omoide.model.transfer import ExistingRows
from omoide.store.port.work import UnitOfWork


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
