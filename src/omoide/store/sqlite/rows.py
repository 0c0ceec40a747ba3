"""Row ↔ dataclass mapping for the SQLite adapter (no SQL here)."""

from __future__ import annotations

import json
import sqlite3
from datetime import datetime
from typing import Any

from omoide.clock import iso, parse_iso
from omoide.engine.errors import named
from omoide.errors import NotFound
from omoide.model import (
    VERSIONED_FIELDS,
    Link,
    Memory,
    MemoryKind,
    MemoryStatus,
    SessionEnd,
    Source,
    memory_values,
)

__all__ = [
    "bump_persona_counter",
    "dt",
    "dt_or_none",
    "ended_by",
    "iso_or_none",
    "memory_from_row",
    "memory_image",
    "persona_counter",
]


def persona_counter(row: Any, persona: str) -> int:
    """A counter read from (or bumped in) the persona's row: NotFound once the persona was
    erased under a handle still held (a background job's), never a TypeError on None."""
    if row is None:
        raise NotFound(f"persona {named(persona)} was erased", persona=persona)
    return int(row[0])


def memory_revision(conn: Any, persona_id: int, persona: str) -> int:
    """The persona's memory revision as stored (``personas.revision``), read in ``conn``."""
    return persona_counter(
        conn.execute("SELECT revision FROM personas WHERE id = ?", (persona_id,)).fetchone(),
        persona,
    )


def bump_persona_counter(conn: Any, column: str, persona_id: int, persona: str) -> int:
    """Move one of the persona's counters (``revision``, ``event_revision``) on by one inside
    the caller's write; its new value."""
    return persona_counter(
        conn.execute(
            f"UPDATE personas SET {column} = {column} + 1 WHERE id = ? RETURNING {column}",
            (persona_id,),
        ).fetchone(),
        persona,
    )


def dt(text: str) -> datetime:
    return parse_iso(text)


def dt_or_none(text: str | None) -> datetime | None:
    return None if text is None else parse_iso(text)


def ended_by(value: str | None) -> SessionEnd | None:
    """A session's stored end cause; None while open, for one ended before causes were
    recorded (migration 23), or for a cause this version does not know."""
    try:
        return None if value is None else SessionEnd(value)
    except ValueError:
        return None


def iso_or_none(when: datetime | None) -> str | None:
    return None if when is None else iso(when)


def memory_from_row(
    row: sqlite3.Row,
    persona: str,
    *,
    sources: tuple[Source, ...] = (),
    links: tuple[Link, ...] = (),
) -> Memory:
    # One dict first: a sqlite3.Row looks a name up by comparing it with every column name in
    # turn (case-insensitively), ~3 µs for a late column; a search hydrates 50 rows.
    r = dict(zip(row.keys(), row, strict=True))
    return Memory(
        key=r["key"],
        persona=persona,
        content=r["content"],
        kind=MemoryKind(r["kind"]),
        importance=r["importance"],
        tags=_tags(r["tags"]),
        emotion_type=r["emotion_type"],
        emotion_intensity=r["emotion_intensity"],
        source=r["source"],
        source_ref=r["source_ref"],
        created_at=dt(r["created_at"]),
        updated_at=dt(r["updated_at"]),
        access_count=r["access_count"],
        last_accessed=dt_or_none(r["last_accessed"]),
        valid_from=dt_or_none(r["valid_from"]),
        valid_until=dt_or_none(r["valid_until"]),
        superseded_by=r["superseded_by"],
        summary_ref=r["summary_ref"],
        status=MemoryStatus(r["status"]),
        metadata={} if r["metadata"] == "{}" else json.loads(r["metadata"]),
        stability=r["stability"],
        strength=r["strength"],
        last_decay_at=dt_or_none(r["last_decay_at"]),
        evolved_at=dt_or_none(r["evolved_at"]),
        sources=sources,
        links=links,
    )


def _tags(text: str) -> tuple[str, ...]:
    return () if text == "[]" else tuple(json.loads(text))


def memory_image(memory: Memory) -> dict[str, Any]:
    """The JSON before/after image stored in ``memory_versions``."""
    return memory_values(memory, VERSIONED_FIELDS, iso)
