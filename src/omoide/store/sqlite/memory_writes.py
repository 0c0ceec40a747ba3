"""The Note tier's write primitives for one persona, shared by every write: a new memory's
rows, a column change with its version row, a memory's tags, the vector index after a delete.

:class:`MemoryWrites` is the base of the write mixins of
:class:`~omoide.store.sqlite.memories.MemoryStore` (``memory_inserts``, ``memory_edits``,
``memory_evolution``: one module each so each stays small); it uses the reads and the
vector-index bookkeeping of that class. Every statement carries the persona's id.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

import numpy as np

from omoide.clock import iso
from omoide.model import Memory, NewMemory, VersionChange
from omoide.store.sqlite.db import Database
from omoide.store.sqlite.indexes import MEMORY_FTS
from omoide.store.sqlite.memory_sql import (
    INSERT_CAUSED_VERSION,
    INSERT_MEMORY,
    INSERT_SOURCE,
    INSERT_STRENGTH,
    INSERT_TAG,
    INSERT_VERSION,
    SELECT_MEMORY,
    UPSERT_VECTOR,
    new_key,
    to_column,
    version_row,
)
from omoide.store.sqlite.rows import iso_or_none, memory_from_row
from omoide.store.vectors import VectorIndex

__all__ = ["MemoryWrites"]


class MemoryWrites:
    """The write primitives of one persona's memories (the base of ``MemoryStore``'s writes)."""

    db: Database
    persona_id: int
    persona: str
    model_id: str

    if TYPE_CHECKING:

        def _one(self, conn: sqlite3.Connection, key: str) -> sqlite3.Row: ...
        def _hydrate(self, rows: Sequence[sqlite3.Row], *, with_links: bool) -> list[Memory]: ...
        def _bump(self, conn: sqlite3.Connection) -> tuple[VectorIndex, int]: ...
        def _stored_revision(self, conn: sqlite3.Connection) -> int: ...
        def get(self, key: str, *, with_links: bool = True) -> Memory: ...

    def _insert_row(
        self,
        conn: sqlite3.Connection,
        new: NewMemory,
        *,
        vector: np.ndarray,
        stability: float,
        now: datetime,
        changed_by: str,
    ) -> tuple[int, Memory]:
        """The rows of one new memory inside the caller's transaction (index not bumped)."""
        key = new_key()
        cur = conn.execute(INSERT_MEMORY, (key, *self._memory_columns(new, now)))
        memory_id = int(cur.lastrowid or 0)
        conn.execute(
            INSERT_STRENGTH,
            (memory_id, new.importance, stability, iso(now)),
        )
        conn.executemany(
            INSERT_SOURCE,
            [(memory_id, e) for e in new.source_event_ids],
        )
        self._write_tags(conn, memory_id, new.tags)
        self._write_vector(conn, memory_id, vector)
        MEMORY_FTS.index(conn, [(memory_id, new.content)], persona_id=self.persona_id)
        memory = self._hydrate([self._one(conn, key)], with_links=False)[0]
        conn.execute(
            INSERT_VERSION,
            version_row(memory_id, VersionChange.CREATE, changed_by, now, None, memory),
        )
        return memory_id, memory

    def _write_vector(self, conn: sqlite3.Connection, memory_id: int, vector: np.ndarray) -> None:
        """Store (or replace) one memory's vector under the store's model, as float32."""
        conn.execute(
            UPSERT_VECTOR,
            (
                memory_id,
                self.model_id,
                int(vector.shape[0]),
                np.asarray(vector, dtype=np.float32).tobytes(),
            ),
        )

    def _memory_columns(self, new: NewMemory, now: datetime) -> tuple[Any, ...]:
        """The ``memories`` columns after ``key`` for a new row, as :data:`INSERT_MEMORY`."""
        return (
            self.persona_id,
            new.content,
            str(new.kind),
            new.importance,
            json.dumps(list(new.tags), ensure_ascii=False),
            new.emotion_type,
            new.emotion_intensity,
            new.source,
            new.source_ref,
            iso(new.created_at or now),
            iso(now),
            iso_or_none(new.valid_from),
            iso_or_none(new.valid_until),
            json.dumps(new.metadata, ensure_ascii=False),
        )

    def drop_from_index(self, conn: sqlite3.Connection, ids: Sequence[int]) -> None:
        """Inside a write that hard-deleted ``ids``: take them out of the vector index."""
        index, revision = self._bump(conn)
        index.remove(list(ids))
        index.revision = revision

    def versioned_update(
        self,
        conn: sqlite3.Connection,
        memory_id: int,
        changes: dict[str, Any],
        *,
        now: datetime,
        change: VersionChange,
        changed_by: str,
    ) -> None:
        """Column changes with a version row, inside the caller's transaction."""
        self._versioned_update(
            conn, memory_id, changes, now=now, change=change, changed_by=changed_by
        )

    def _versioned_update(
        self,
        conn: sqlite3.Connection,
        memory_id: int,
        changes: dict[str, Any],
        *,
        now: datetime,
        change: VersionChange,
        changed_by: str,
        cause: str | None = None,
    ) -> str | None:
        """Apply ``changes`` to one memory and record the version; the memory's key, or None
        when it is not this persona's."""
        row = conn.execute(
            SELECT_MEMORY + " WHERE m.id = ? AND m.persona_id = ?", (memory_id, self.persona_id)
        ).fetchone()
        if row is None:
            return None
        before = memory_from_row(row, self.persona)
        columns = {k: to_column(v) for k, v in changes.items()}
        columns["updated_at"] = iso(now)
        assignments = ", ".join(f"{c} = ?" for c in columns)
        conn.execute(
            f"UPDATE memories SET {assignments} WHERE id = ?", (*columns.values(), memory_id)
        )
        if "tags" in changes:
            self._write_tags(conn, memory_id, changes["tags"])
        after = memory_from_row(
            conn.execute(SELECT_MEMORY + " WHERE m.id = ?", (memory_id,)).fetchone(), self.persona
        )
        conn.execute(
            INSERT_VERSION if cause is None else INSERT_CAUSED_VERSION,
            (
                *version_row(memory_id, change, changed_by, now, before, after),
                *(() if cause is None else (cause,)),
            ),
        )
        return before.key

    def _write_tags(self, conn: sqlite3.Connection, memory_id: int, tags: Sequence[str]) -> None:
        """Keep ``memory_tags`` (the indexed copy used by tag filters) equal to ``tags``."""
        conn.execute("DELETE FROM memory_tags WHERE memory_id = ?", (memory_id,))
        conn.executemany(
            INSERT_TAG,
            [(memory_id, self.persona_id, t) for t in tags],
        )
