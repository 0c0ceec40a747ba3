"""Named memory blocks and the bi-temporal state (spec §Named Memory Blocks, §User State)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any

from omoide.model.memory import UNSET, Unset

__all__ = [
    "DEFAULT_BLOCK_TYPE",
    "DEFAULT_MAX_TOKENS",
    "DEFAULT_PRIORITY",
    "Block",
    "BlockPatch",
    "StateEntry",
    "StateKind",
]

DEFAULT_BLOCK_TYPE = "custom"
DEFAULT_MAX_TOKENS = 500
DEFAULT_PRIORITY = 0


@dataclass(frozen=True)
class Block:
    """A named memory block as stored."""

    persona: str
    block_name: str
    content: str
    block_type: str
    max_tokens: int
    priority: int
    metadata: dict[str, Any]
    created_at: datetime
    updated_at: datetime


@dataclass(frozen=True)
class BlockPatch:
    """A validated write: content is always given; UNSET fields keep the stored value (or the
    default for a new block)."""

    block_name: str
    content: str
    block_type: str | Unset = UNSET
    max_tokens: int | Unset = UNSET
    priority: int | Unset = UNSET
    metadata: dict[str, Any] | Unset = UNSET


class StateKind(StrEnum):
    """Whose state: the user's (name, nickname …) or the persona's own (emotion, mood …)."""

    USER = "user"
    PERSONA = "persona"


@dataclass(frozen=True)
class StateEntry:
    """One row of a state history: ``value`` held from ``valid_from`` until ``valid_until``."""

    key: str
    value: str
    valid_from: datetime
    valid_until: datetime | None  # None: the current value

    @property
    def is_current(self) -> bool:
        return self.valid_until is None
