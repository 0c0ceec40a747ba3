"""A :class:`~omoide.model.Memory` for unit tests: every field given a plain default (a current
fact of ``rin``'s, created a month before ``updated_at``), the test naming only the ones it is
about."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

from omoide.model import Memory, MemoryKind, MemoryStatus

__all__ = ["a_memory"]

UPDATED = datetime(2026, 11, 30, 9, tzinfo=UTC)

_BASE = Memory(
    key="mem_1",
    persona="rin",
    content="x",
    kind=MemoryKind.FACT,
    importance=0.5,
    tags=(),
    emotion_type=None,
    emotion_intensity=0.0,
    source="user",
    source_ref=None,
    created_at=UPDATED - timedelta(days=30),
    updated_at=UPDATED,
    access_count=0,
    last_accessed=None,
    valid_from=None,
    valid_until=None,
    superseded_by=None,
    summary_ref=None,
    status=MemoryStatus.ACTIVE,
    metadata={},
    stability=5.0,
    strength=0.5,
    last_decay_at=None,
)


def a_memory(**fields: object) -> Memory:
    """The default memory with ``fields`` replaced."""
    return replace(_BASE, **fields)  # type: ignore[arg-type]
