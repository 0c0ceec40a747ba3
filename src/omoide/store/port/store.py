"""The top-level store: personas, their settings and erasure, and the per-persona handles."""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import datetime
from typing import Any, Protocol

from omoide.model import Erased, Persona
from omoide.store.port.context import BlockHandle, StateHandle
from omoide.store.port.keys import ApiKeyStore
from omoide.store.port.memories import MemoryHandle
from omoide.store.port.sessions import SessionHandle, SessionMetaHandle


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


class Store(PersonaStore, ApiKeyStore, Protocol):
    """One database holding every persona: what :class:`omoide.wiring.Omoide` calls ``store``."""

    def decay_all(self, *, now: datetime, persona: str | None = None) -> int: ...
    def last_decay_at(self) -> datetime | None: ...
    def ping(self) -> None:
        """Raise if the database cannot answer a trivial query (the health check)."""
        ...

    @property
    def scrub_pending(self) -> bool:
        """Whether text an erase of this process removed may still be in the store's files."""
        ...

    def close(self, *, scrub_wait_s: float = 0.0, give_up: threading.Event | None = None) -> None:
        """Close the store, trying an erase's owed scrub for up to ``scrub_wait_s`` first (the
        wait ends early once ``give_up`` is set)."""
        ...
