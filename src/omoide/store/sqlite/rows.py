"""Row ↔ dataclass mapping for the SQLite adapter (no SQL here)."""

from __future__ import annotations

import json
import sqlite3
from datetime import datetime
from typing import Any

from omoide.clock import iso, parse_iso
from omoide.model import (
    VERSIONED_FIELDS,
    Link,
    Memory,
    MemoryKind,
    MemoryStatus,
    Source,
    memory_values,
)

__all__ = ["dt", "dt_or_none", "iso_or_none", "memory_from_row", "memory_image"]


def dt(text: str) -> datetime:
    return parse_iso(text)


def dt_or_none(text: str | None) -> datetime | None:
    return None if text is None else parse_iso(text)


def iso_or_none(when: datetime | None) -> str | None:
    return None if when is None else iso(when)


def memory_from_row(row: sqlite3.Row, persona: str, *, sources: tuple[Source, ...] = (),
                    links: tuple[Link, ...] = ()) -> Memory:
    return Memory(
        key=row["key"],
        persona=persona,
        content=row["content"],
        kind=MemoryKind(row["kind"]),
        importance=row["importance"],
        tags=tuple(json.loads(row["tags"])),
        emotion_type=row["emotion_type"],
        emotion_intensity=row["emotion_intensity"],
        source=row["source"],
        source_ref=row["source_ref"],
        created_at=dt(row["created_at"]),
        updated_at=dt(row["updated_at"]),
        access_count=row["access_count"],
        last_accessed=dt_or_none(row["last_accessed"]),
        valid_from=dt_or_none(row["valid_from"]),
        valid_until=dt_or_none(row["valid_until"]),
        superseded_by=row["superseded_by"],
        summary_ref=row["summary_ref"],
        status=MemoryStatus(row["status"]),
        metadata=json.loads(row["metadata"]),
        stability=row["stability"],
        strength=row["strength"],
        last_decay_at=dt_or_none(row["last_decay_at"]),
        evolved_at=dt_or_none(row["evolved_at"]),
        sources=sources,
        links=links,
    )


def memory_image(memory: Memory) -> dict[str, Any]:
    """The JSON before/after image stored in ``memory_versions``."""
    return memory_values(memory, VERSIONED_FIELDS, iso)
