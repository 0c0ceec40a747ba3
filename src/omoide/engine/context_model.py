"""The shapes of the context (pure): its sections and their two orders (display, trim), what
:func:`omoide.engine.context.assemble_context` takes (``ContextInput`` and the lines in it) and
what it gives back (``AssembledContext``). The assembly and its wording are ``context``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta, tzinfo
from enum import StrEnum

from omoide.engine.lang import Lang

__all__ = [
    "DISPLAY_ORDER",
    "TRIM_ORDER",
    "AssembledContext",
    "BlockText",
    "ContextInput",
    "ContextStats",
    "MemoryLine",
    "Section",
    "TurnLine",
]


class Section(StrEnum):
    PERSONA = "persona"
    USER = "user"
    SESSION = "session"
    BLOCKS = "blocks"
    CONVERSATION = "last_conversation"
    RECENT = "recent_memories"
    IMPORTANT = "important_memories"
    STATS = "stats"


DISPLAY_ORDER: tuple[Section, ...] = tuple(Section)
TRIM_ORDER: tuple[Section, ...] = (
    Section.STATS,
    Section.IMPORTANT,
    Section.CONVERSATION,
    Section.RECENT,
    Section.BLOCKS,
    Section.SESSION,
    Section.USER,
    Section.PERSONA,
)


@dataclass(frozen=True)
class MemoryLine:
    key: str
    content: str
    created_at: datetime
    strength: float  # importance × R(t) at the time of the context


@dataclass(frozen=True)
class TurnLine:
    """One turn of a conversation that ended but is not yet consolidated into notes."""

    session_id: str
    event_id: int
    external_id: str | None
    speaker: str
    role: str  # user / assistant / other
    content: str  # the turn as text (its words, then an image caption)
    said_at: datetime


@dataclass(frozen=True)
class BlockText:
    name: str
    content: str
    priority: int
    max_tokens: int


@dataclass(frozen=True)
class ContextStats:
    active: int
    superseded: int
    mean_strength: float  # of current memories, importance × R(t) now
    links: int


@dataclass(frozen=True)
class ContextInput:
    persona: str
    language: Lang
    since_last_session: timedelta | None  # None: this is the first session
    persona_state: Mapping[str, str] = field(default_factory=dict)
    user_state: Mapping[str, str] = field(default_factory=dict)
    recent: Sequence[MemoryLine] = ()  # newest first
    important: Sequence[MemoryLine] = ()  # strongest first
    stats: ContextStats = ContextStats(0, 0, 0.0, 0)
    blocks: Sequence[BlockText] = ()  # highest priority first; empty unless blocks are wanted
    conversation: Sequence[TurnLine] = ()  # in the order said; empty when nothing is pending
    tz: tzinfo = UTC  # for the dates shown next to memories


@dataclass(frozen=True)
class AssembledContext:
    """The context text and, section by section, exactly what it kept."""

    text: str
    tokens: int
    budget_tokens: int
    language: Lang
    user_address: str | None  # None also when the user section was trimmed away
    last_session: str  # e.g. "3 days ago" / "3日ぶり"; "" when the session line was trimmed
    persona_state: dict[str, str]
    user_state: dict[str, str]
    blocks: tuple[BlockText, ...]  # content as shown (cut to max_tokens)
    conversation: tuple[TurnLine, ...]  # as shown (one line, cut), in the order said
    recent: tuple[MemoryLine, ...]  # content as shown (one line, cut)
    important: tuple[MemoryLine, ...]
    stats: ContextStats | None
    omitted: dict[str, int]  # section → items dropped to fit the budget
