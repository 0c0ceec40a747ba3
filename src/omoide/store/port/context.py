"""What a persona's context is built from besides its memories: named blocks and the
bi-temporal user and persona state."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Protocol

from omoide.model import Block, BlockPatch, StateEntry, StateKind


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
