"""The vocabulary of Omoide: plain frozen dataclasses and enums shared by every layer.

No behaviour beyond small derived properties and the persona-name check; nothing here imports
the rest of the package but :mod:`omoide.errors`. ``from omoide.model import X`` names every
type, whichever module of this package defines it.
"""

from omoide.model.admin import (
    PERSONA_NAME,
    ApiKeyRecord,
    Erased,
    KeyInfo,
    KeywordHit,
    PersonaSummary,
    Purged,
    RecordedEmbedder,
    SessionRow,
    StaleRow,
    check_persona_name,
)
from omoide.model.blocks import (
    DEFAULT_BLOCK_TYPE,
    DEFAULT_MAX_TOKENS,
    Block,
    BlockPatch,
    StateEntry,
    StateKind,
)
from omoide.model.episodes import (
    Episode,
    Event,
    NewEpisode,
    NewEvent,
    OpenedSession,
    Session,
    SessionEnd,
    SessionMark,
    SessionSummary,
    new_session_id,
)
from omoide.model.jobs import PERIODIC_KINDS, Job, JobCounts, JobRow
from omoide.model.memory import (
    MEMORY_FIELDS,
    UNSET,
    VERSIONED_FIELDS,
    CreateOutcome,
    Link,
    LinkType,
    Memory,
    MemoryKind,
    MemoryStats,
    MemoryStatus,
    MemoryVersion,
    NewMemory,
    Persona,
    RankFacts,
    SearchFilters,
    SearchHit,
    SearchMode,
    Source,
    Unset,
    VersionChange,
    memory_values,
    valid_between,
)

__all__ = [
    "DEFAULT_BLOCK_TYPE", "DEFAULT_MAX_TOKENS", "MEMORY_FIELDS", "PERIODIC_KINDS", "PERSONA_NAME",
    "UNSET", "VERSIONED_FIELDS",
    "ApiKeyRecord", "Block", "BlockPatch", "CreateOutcome", "Episode", "Erased", "Event", "Job",
    "JobCounts", "JobRow", "KeyInfo", "KeywordHit", "Link", "LinkType", "Memory", "MemoryKind",
    "MemoryStats", "MemoryStatus", "MemoryVersion", "NewEpisode", "NewEvent", "NewMemory",
    "OpenedSession", "Persona", "PersonaSummary", "Purged", "RankFacts", "RecordedEmbedder",
    "SearchFilters", "SearchHit", "SearchMode", "Session", "SessionEnd", "SessionMark",
    "SessionRow",
    "SessionSummary", "Source",
    "StaleRow", "StateEntry", "StateKind", "Unset", "VersionChange", "check_persona_name",
    "memory_values", "new_session_id", "valid_between",
]
