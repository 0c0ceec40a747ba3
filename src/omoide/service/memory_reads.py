"""A stored memory as it reads now, the same for every service: its live strength (independent
of the decay job), a recall counted under the persona's settings, its chain of successors."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from omoide.config import PersonaSettings
from omoide.engine.fsrs import current_strength
from omoide.errors import NotFound, StorageFull, StorageUnavailable
from omoide.model import Memory
from omoide.store.port import MemoryHandle

__all__ = ["record_recalls", "successor_chain", "with_live_strength"]

logger = logging.getLogger(__name__)


def with_live_strength(memory: Memory, now: datetime) -> Memory:
    """The memory with ``strength`` computed for ``now`` (independent of the decay job)."""
    value = current_strength(
        memory.importance,
        memory.stability,
        last_accessed=memory.last_accessed,
        created_at=memory.created_at,
        now=now,
    )
    return memory.__class__(**{**memory.__dict__, "strength": value})


def record_recalls(
    memories: MemoryHandle, ids: Sequence[int], *, now: datetime, cfg: PersonaSettings
) -> int:
    """Count a recall of the memories ``ids`` (spec §FSRS) under the persona's recall settings;
    how many were recorded. A recall is the side effect of a read: storage that cannot take
    the write now (a data folder that stopped taking writes, a full disk, a database locked by
    another program) leaves it unrecorded, logged, and the read is answered all the same."""
    try:
        return memories.record_recalls(
            ids,
            now=now,
            factor=cfg.recall_stability_factor,
            cap=cfg.stability_cap_days,
            min_interval_hours=cfg.recall_min_interval_hours,
        )
    except (StorageUnavailable, StorageFull) as exc:
        logger.warning("a recall of %d memories was not recorded: %s", len(ids), exc.message)
        return 0


def successor_chain(
    memories: Any, key: str, fetched: dict[str, tuple[int, Memory]], limit: int = 32
) -> tuple[str, ...] | None:
    """The ``superseded_by`` chain starting at ``key``, up to its current end (None when the
    chain ends in a deleted memory or loops); ``fetched`` caches (row id, memory) by key."""
    chain: list[str] = []
    while key not in chain and len(chain) < limit:
        chain.append(key)
        if key not in fetched:
            try:
                fetched[key] = (memories.id_of(key), memories.get(key, with_links=False))
            except NotFound:
                return None
        memory = fetched[key][1]
        if memory.status != "active":
            return None
        if memory.superseded_by is None:
            return tuple(chain)
        key = memory.superseded_by
    return None
