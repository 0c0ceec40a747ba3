"""The vocabulary of Omoide: plain frozen dataclasses and enums shared by every layer.

No behaviour beyond small derived properties and the persona-name check; nothing here imports
the rest of the package but :mod:`omoide.errors`. ``from omoide.model import X`` names every
type, whichever module of this package defines it.
"""

from omoide.model.admin import (
    PERSONA_NAME,
    ApiKeyRecord,
    Erased,
    KeywordHit,
    PersonaSummary,
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
    SessionMark,
    new_session_id,
)
from omoide.model.jobs import PERIODIC_KINDS, Job, JobCounts, JobRow
from omoide.model.memory import (
    UNSET,
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
    SearchFilters,
    SearchHit,
    SearchMode,
    Source,
    Unset,
    VersionChange,
)

__all__ = [
    "DEFAULT_BLOCK_TYPE", "DEFAULT_MAX_TOKENS", "PERIODIC_KINDS", "PERSONA_NAME", "UNSET",
    "ApiKeyRecord", "Block", "BlockPatch", "CreateOutcome", "Episode", "Erased", "Event", "Job",
    "JobCounts", "JobRow", "KeywordHit", "Link", "LinkType", "Memory", "MemoryKind",
    "MemoryStats", "MemoryStatus", "MemoryVersion", "NewEpisode", "NewEvent", "NewMemory",
    "OpenedSession", "Persona", "PersonaSummary", "RecordedEmbedder", "SearchFilters",
    "SearchHit", "SearchMode", "Session", "SessionMark", "SessionRow", "Source", "StaleRow",
    "StateEntry", "StateKind", "Unset", "VersionChange", "check_persona_name", "new_session_id",
]
