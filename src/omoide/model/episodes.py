"""The Episode tier's vocabulary: sessions, their turns (events) and episodes."""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any

import numpy as np

__all__ = [
    "Episode",
    "Event",
    "NewEpisode",
    "NewEvent",
    "OpenedSession",
    "Session",
    "SessionEnd",
    "SessionMark",
    "SessionSummary",
    "new_session_id",
]


def new_session_id() -> str:
    """A session id: short, random, URL-safe."""
    return "ses_" + secrets.token_hex(8)


class SessionEnd(StrEnum):
    """How a session was ended (stored in ``sessions.ended_by``; NULL for sessions ended
    before it was recorded, shown as unknown)."""

    CLIENT = "client"  # session_end, over HTTP or MCP
    NEW_SESSION = "new_session"  # session_begin ended the persona's other open sessions
    IDLE = "idle"  # the scheduler, after session_idle_minutes without a turn
    IMPORT = "import"  # a chat import ended the conversation it posted


@dataclass(frozen=True)
class Session:
    pk: int
    session_id: str
    started_at: datetime
    ended_at: datetime | None
    segmented_upto_seq: int
    open_reason: str  # why the still-open segment (after segmented_upto_seq) was opened
    open_surprise: float
    ended_by: SessionEnd | None = None  # None while open, or ended before it was recorded


@dataclass(frozen=True)
class NewEvent:
    speaker: str
    role: str
    content: str
    timestamp: datetime
    external_id: str | None = None
    metadata: dict[str, Any] | None = None


@dataclass(frozen=True)
class Event:
    id: int
    session_id: str
    seq: int
    speaker: str
    role: str
    content: str  # the words as posted
    timestamp: datetime
    external_id: str | None
    episode_id: int | None
    metadata: dict[str, Any] = field(default_factory=dict)

    @property
    def text(self) -> str:
        """The turn as text wherever text is used: its words, then an image caption."""
        from omoide.engine.attachments import turn_text  # pure; imported late to keep model leaf

        return turn_text(self.content, self.metadata)


@dataclass(frozen=True)
class NewEpisode:
    first_seq: int
    last_seq: int
    content: str
    topic: str
    surprise: float
    boundary_reason: str
    vector: np.ndarray


@dataclass(frozen=True)
class Episode:
    id: int
    session_id: str
    first_event_id: int
    last_event_id: int
    first_seq: int
    last_seq: int
    content: str
    topic: str
    surprise: float
    boundary_reason: str
    started_at: datetime
    ended_at: datetime
    consolidated_at: datetime | None


@dataclass(frozen=True)
class SessionMark:
    """When a session happened: its start, and its end if it was ended."""

    session_id: str
    started_at: datetime
    ended_at: datetime | None

    @property
    def last_seen(self) -> datetime:
        """The session's end, or its start when it was never ended."""
        return self.ended_at or self.started_at


@dataclass(frozen=True)
class SessionSummary:
    """One conversation as a list shows it: when it began and ended (and how: None while open
    or when it ended before that was recorded), the times of its first and last turn (None
    before the first), and how many turns and episodes it holds."""

    session_id: str
    started_at: datetime
    ended_at: datetime | None
    first_event_at: datetime | None
    last_event_at: datetime | None
    events: int
    episodes: int
    ended_by: SessionEnd | None = None


@dataclass(frozen=True)
class OpenedSession:
    session: SessionMark
    previous: SessionMark | None  # the latest session before this one
