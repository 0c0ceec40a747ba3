"""The Note tier's vocabulary: memories, their links, versions, search filters and hits."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any

__all__ = [
    "MEMORY_FIELDS",
    "UNSET",
    "VERSIONED_FIELDS",
    "CreateOutcome",
    "Link",
    "LinkType",
    "Memory",
    "MemoryKind",
    "MemoryStats",
    "MemoryStatus",
    "MemoryVersion",
    "NewMemory",
    "Persona",
    "SearchFilters",
    "SearchHit",
    "SearchMode",
    "Source",
    "Unset",
    "VersionChange",
    "memory_values",
    "never_held_window",
    "valid_between",
]


class Unset:
    """Sentinel type: "not given" in a PATCH, as opposed to an explicit ``None``."""

    _instance: Unset | None = None

    def __new__(cls) -> Unset:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "UNSET"

    def __bool__(self) -> bool:
        return False


UNSET = Unset()


class MemoryStatus(StrEnum):
    ACTIVE = "active"
    TOMBSTONED = "tombstoned"


class MemoryKind(StrEnum):
    NOTE = "note"
    FACT = "fact"
    PREFERENCE = "preference"
    PROFILE = "profile"
    EVENT = "event"
    INSTRUCTION = "instruction"


class SearchMode(StrEnum):
    HYBRID = "hybrid"
    SEMANTIC = "semantic"
    KEYWORD = "keyword"


class LinkType(StrEnum):
    SEMANTIC = "SEMANTIC"


class VersionChange(StrEnum):
    CREATE = "create"
    UPDATE = "update"
    EXTEND = "extend"
    SUPERSEDE = "supersede"
    DELETE = "delete"


@dataclass(frozen=True)
class Persona:
    id: int
    name: str
    created_at: datetime


@dataclass(frozen=True)
class Memory:
    """A Note-tier memory with its FSRS state, as stored."""

    key: str
    persona: str
    content: str
    kind: MemoryKind
    importance: float
    tags: tuple[str, ...]
    emotion_type: str | None
    emotion_intensity: float
    source: str
    source_ref: str | None
    created_at: datetime
    updated_at: datetime
    access_count: int
    last_accessed: datetime | None
    valid_from: datetime | None
    valid_until: datetime | None
    superseded_by: str | None
    summary_ref: str | None
    status: MemoryStatus
    metadata: dict[str, Any]
    stability: float
    strength: float
    last_decay_at: datetime | None
    evolved_at: datetime | None = None  # set once write-path step 4 has run
    sources: tuple[Source, ...] = ()
    links: tuple[Link, ...] = ()

    def valid_at(self, when: datetime) -> bool:
        """Spec semantics: valid_from <= t < valid_until, NULL bounds open."""
        return valid_between(self.valid_from, self.valid_until, when)

    def closed_at(self, when: datetime) -> bool:
        """A past fact at ``when``: superseded, or its validity window has ended."""
        return closed_fact(self.superseded_by, self.valid_until, when)

    def closed_since(self) -> datetime | None:
        """When this fact stopped being current (:func:`closed_time`)."""
        return closed_time(self.superseded_by, self.valid_until, self.updated_at)

    def never_held(self) -> bool:
        """A fact contradicted before it began (:func:`never_held_window`)."""
        return never_held_window(self.valid_from, self.valid_until)


def valid_between(
    valid_from: datetime | None, valid_until: datetime | None, when: datetime
) -> bool:
    """valid_from <= when < valid_until, NULL bounds open (:meth:`Memory.valid_at`)."""
    if valid_from is not None and valid_from > when:
        return False
    return valid_until is None or valid_until > when


def never_held_window(valid_from: datetime | None, valid_until: datetime | None) -> bool:
    """A fact contradicted before it began (a plan given up): evolution closes it where it
    would have started, an empty window (the API refuses one that a user gives). The one
    rule: every rendering asks it, through :meth:`Memory.never_held` or, from a rendered
    memory's times, here (``api.mcp.text``, which the CLI's text uses too)."""
    return valid_from is not None and valid_until is not None and valid_until <= valid_from


def closed_fact(superseded_by: str | None, valid_until: datetime | None, when: datetime) -> bool:
    """A past fact at ``when``: superseded, or its validity window has ended."""
    return superseded_by is not None or (valid_until is not None and valid_until <= when)


def closed_time(
    superseded_by: str | None, valid_until: datetime | None, updated_at: datetime
) -> datetime | None:
    """When a closed fact stopped being current: its validity end, or for a superseded one the
    write that superseded it (its ``updated_at``) when that came first. Why: a plan
    contradicted before its start keeps that start, ahead of now, as its ``valid_until``
    (:meth:`Memory.never_held`), and search's "closed last first" tie order put it before
    every fact closed after it was. None when the fact has no end."""
    if superseded_by is None:
        return valid_until
    return updated_at if valid_until is None else min(valid_until, updated_at)


@dataclass(frozen=True)
class RankFacts:
    """What ranking a search candidate needs of a memory, before it is read whole: whether it
    is active, its live strength's inputs, its key (the tie-break), whether it is closed and
    since when."""

    key: str
    status: MemoryStatus
    importance: float
    stability: float
    created_at: datetime
    last_accessed: datetime | None
    superseded_by: str | None
    valid_until: datetime | None
    updated_at: datetime

    def closed_at(self, when: datetime) -> bool:
        return closed_fact(self.superseded_by, self.valid_until, when)

    def closed_since(self) -> datetime | None:
        return closed_time(self.superseded_by, self.valid_until, self.updated_at)


VERSIONED_FIELDS = (
    "content",
    "kind",
    "importance",
    "tags",
    "emotion_type",
    "emotion_intensity",
    "valid_from",
    "valid_until",
    "superseded_by",
    "summary_ref",
    "status",
    "metadata",
)
"""What a version row's before/after image records: every field a change can touch."""

MEMORY_FIELDS = (
    "key",
    "persona",
    *VERSIONED_FIELDS[:6],
    "source",
    "source_ref",
    "created_at",
    "updated_at",
    "strength",
    "stability",
    "access_count",
    "last_accessed",
    *VERSIONED_FIELDS[6:],
)
"""The memory's JSON fields (HTTP, MCP, CLI), in their order; the versioned ones among them."""


def memory_values(
    memory: Memory, names: tuple[str, ...], stamp: Callable[[datetime], str]
) -> dict[str, Any]:
    """``{name: value}`` for ``names`` as JSON values: enums as their text, tags as a list,
    datetimes through ``stamp`` (the caller's format), ``None`` kept as ``None``."""
    out: dict[str, Any] = {}
    for name in names:
        value = getattr(memory, name)
        if isinstance(value, StrEnum):
            value = str(value)
        elif isinstance(value, tuple):
            value = list(value)
        elif isinstance(value, datetime):
            value = stamp(value)
        out[name] = value
    return out


@dataclass(frozen=True)
class Source:
    """Provenance back to a session event (Episode tier)."""

    event_id: int
    external_id: str | None


@dataclass(frozen=True)
class Link:
    other_key: str
    link_type: LinkType
    weight: float
    co_activation_count: int
    last_activated: datetime | None


@dataclass(frozen=True)
class MemoryVersion:
    version: int
    change: VersionChange
    changed_by: str
    changed_at: datetime
    before: dict[str, Any] | None
    after: dict[str, Any] | None


@dataclass(frozen=True)
class CreateOutcome:
    """Result of memory_create: either a new memory or the duplicate that stopped it."""

    status: str  # "created" | "duplicate"
    memory: Memory | None = None
    duplicate_of: Memory | None = None
    similarity: float | None = None


@dataclass(frozen=True)
class SearchHit:
    """One search result: a note (memory) or an episode."""

    type: str  # "note" | "episode"
    id: str  # memory key, or episode id as text
    content: str
    score: float
    similarity: float | None
    memory: Memory | None = None
    sources: tuple[Source, ...] = ()
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class MemoryStats:
    persona: str
    total: int
    active: int
    tombstoned: int
    superseded: int
    by_kind: dict[str, int]
    mean_strength: float
    links: int
    oldest: datetime | None
    newest: datetime | None


@dataclass(frozen=True)
class NewMemory:
    """A validated memory about to be written."""

    content: str
    kind: MemoryKind = MemoryKind.NOTE
    importance: float = 0.5
    tags: tuple[str, ...] = ()
    emotion_type: str | None = None
    emotion_intensity: float = 0.0
    source: str = "user"
    source_ref: str | None = None
    valid_from: datetime | None = None
    valid_until: datetime | None = None
    metadata: dict[str, Any] = field(default_factory=dict)
    source_event_ids: tuple[int, ...] = ()
    created_at: datetime | None = None  # None → now; set for imports of past conversations


@dataclass(frozen=True)
class SearchFilters:
    """Filters applied before the top-k cut."""

    tags: tuple[str, ...] = ()
    created_from: datetime | None = None  # half-open [created_from, created_until)
    created_until: datetime | None = None
    min_importance: float | None = None
    kind: MemoryKind | None = None
    valid_at: datetime | None = None

    @property
    def empty(self) -> bool:
        return (
            not self.tags
            and self.created_from is None
            and self.created_until is None
            and self.min_importance is None
            and self.kind is None
            and self.valid_at is None
        )
