"""The Note tier's write statements and the values they take, shared by the SQLite store and
the PostgreSQL adapter (standard SQL: PostgreSQL's differences are swapped in by
``store/postgres/memories.py``)."""

from __future__ import annotations

import json
import secrets
from datetime import datetime
from typing import Any

from omoide.clock import iso
from omoide.model import Memory, VersionChange
from omoide.store.sqlite.rows import memory_image

__all__ = [
    "INSERT_CAUSED_VERSION",
    "INSERT_MEMORY",
    "INSERT_MEMORY_WITH_ID",
    "INSERT_SOURCE",
    "INSERT_STRENGTH",
    "INSERT_TAG",
    "INSERT_VERSION",
    "SELECT_MEMORY",
    "UPDATABLE",
    "UPSERT_LINK",
    "UPSERT_VECTOR",
    "new_key",
    "to_column",
    "version_row",
]

SELECT_MEMORY = """
SELECT m.*, s.strength, s.stability, s.last_decay_at
FROM memories m JOIN memory_strength s ON s.memory_id = m.id
"""

INSERT_MEMORY = """
INSERT INTO memories (key, persona_id, content, kind, importance, tags, emotion_type,
    emotion_intensity, source, source_ref, created_at, updated_at, valid_from, valid_until,
    metadata)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
"""

INSERT_MEMORY_WITH_ID = """
INSERT INTO memories (id, key, persona_id, content, kind, importance, tags, emotion_type,
    emotion_intensity, source, source_ref, created_at, updated_at, valid_from, valid_until,
    metadata)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
"""

INSERT_VERSION = """
INSERT INTO memory_versions (memory_id, version, change, changed_by, changed_at, before, after)
VALUES (?, (SELECT COALESCE(MAX(version), 0) + 1 FROM memory_versions WHERE memory_id = ?),
        ?, ?, ?, ?, ?)
"""

# A version row caused by another memory's evolution names that memory (``cause``), so that
# purging it can take back what it contributed (store/sqlite/erase.py).
INSERT_CAUSED_VERSION = """
INSERT INTO memory_versions (memory_id, version, change, changed_by, changed_at, before, after,
    cause)
VALUES (?, (SELECT COALESCE(MAX(version), 0) + 1 FROM memory_versions WHERE memory_id = ?),
        ?, ?, ?, ?, ?, ?)
"""

INSERT_STRENGTH = (
    "INSERT INTO memory_strength (memory_id, strength, stability, last_decay_at) "
    "VALUES (?, ?, ?, ?)"
)
INSERT_SOURCE = "INSERT OR IGNORE INTO memory_sources (memory_id, event_id) VALUES (?, ?)"
INSERT_TAG = "INSERT OR IGNORE INTO memory_tags (memory_id, persona_id, tag) VALUES (?, ?, ?)"

UPSERT_VECTOR = """
INSERT INTO memory_vectors (memory_id, model_id, dim, vector) VALUES (?, ?, ?, ?)
ON CONFLICT (memory_id) DO UPDATE SET model_id = excluded.model_id, dim = excluded.dim,
    vector = excluded.vector
"""

UPSERT_LINK = """
INSERT INTO memory_links (a, b, link_type, weight, co_activation_count, last_activated)
VALUES (?, ?, ?, ?, 1, ?)
ON CONFLICT (a, b, link_type) DO UPDATE SET
    co_activation_count = co_activation_count + 1,
    weight = MIN(?, weight + ? * (1.0 - weight)),
    last_activated = excluded.last_activated
"""

UPDATABLE = {
    "content",
    "kind",
    "tags",
    "emotion_type",
    "emotion_intensity",
    "valid_from",
    "valid_until",
    "metadata",
    "summary_ref",
    "superseded_by",
    "importance",
    "access_count",
    "last_accessed",
}


def version_row(
    memory_id: int,
    change: VersionChange,
    changed_by: str,
    now: datetime,
    before: Memory | None,
    after: Memory,
) -> tuple[Any, ...]:
    """The parameters of :data:`INSERT_VERSION` for one change of a memory: its images
    before (None for a creation) and after, as JSON."""
    return (
        memory_id,
        memory_id,
        change,
        changed_by,
        iso(now),
        None if before is None else json.dumps(memory_image(before), ensure_ascii=False),
        json.dumps(memory_image(after), ensure_ascii=False),
    )


def new_key() -> str:
    """A memory key: short, random, URL-safe."""
    return "mem_" + secrets.token_hex(8)


def to_column(value: Any) -> Any:
    """A Python value as its ``memories`` column holds it (ISO time, JSON list or object)."""
    if isinstance(value, datetime):
        return iso(value)
    if isinstance(value, tuple | list):
        return json.dumps(list(value), ensure_ascii=False)
    if isinstance(value, dict):
        return json.dumps(value, ensure_ascii=False)
    if hasattr(value, "value") and isinstance(getattr(value, "value", None), str):
        return str(value)
    return value
