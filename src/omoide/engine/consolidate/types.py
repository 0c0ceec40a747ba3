"""Types of episode consolidation, shared by the offline engine and the LLM one (pure).

A closed episode arrives as :class:`EventText` turns; a consolidator returns a
:class:`Consolidation`: notes (K_fact, K_pref, K_profile in the spec's words) that each cite the
exact events they came from, and profile updates from the user's explicit self-identification.
Nothing here does work; see :mod:`omoide.engine.consolidate.offline` and ``omoide.llm.consolidate``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Protocol

__all__ = [
    "Consolidation",
    "Consolidator",
    "EventText",
    "NoteDraft",
    "NoteKind",
    "ProfileUpdate",
]


class NoteKind(StrEnum):
    FACT = "fact"
    PREFERENCE = "preference"
    PROFILE = "profile"


@dataclass(frozen=True)
class EventText:
    event_id: int
    speaker: str
    role: str  # "user" | "assistant" | "other"
    text: str  # the words said, nothing else
    timestamp: datetime | None = None
    image_caption: str | None = None  # what a shared image showed (event metadata)


@dataclass(frozen=True)
class NoteDraft:
    content: str
    kind: NoteKind
    source_event_ids: tuple[int, ...]  # exactly the events whose words the note carries
    importance: float  # 0..1
    tags: tuple[str, ...] = ()


@dataclass(frozen=True)
class ProfileUpdate:
    key: str  # "name" | "nickname" | "preferred_address"
    value: str
    source_event_id: int


@dataclass(frozen=True)
class Consolidation:
    notes: tuple[NoteDraft, ...]
    profile: tuple[ProfileUpdate, ...]


class Consolidator(Protocol):
    """Both engines: one closed episode in, its notes and profile updates out."""

    def consolidate(
        self, events: Sequence[EventText], *, max_notes: int | None = None
    ) -> Consolidation:
        """Fewer notes than events (for two or more events), each citing its source events."""
        ...
