"""Changes to one persona's memories: an edit with its version row, a soft delete, and the
strengthening of a recall (spec §FSRS)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any

import numpy as np

from omoide.clock import iso
from omoide.engine.errors import named
from omoide.errors import Conflict
from omoide.model import Memory, VersionChange
from omoide.store.sqlite.indexes import MEMORY_FTS
from omoide.store.sqlite.memory_sql import INSERT_VERSION, UPDATABLE, version_row
from omoide.store.sqlite.memory_writes import MemoryWrites
from omoide.store.sqlite.rows import memory_from_row
from omoide.store.vectors import language_of

__all__ = ["MemoryEdits"]


class MemoryEdits(MemoryWrites):
    """Edits, deletes and recalls of one persona's memories (mixed into ``MemoryStore``)."""

    def update(
        self,
        key: str,
        changes: dict[str, Any],
        *,
        now: datetime,
        changed_by: str,
        vector: np.ndarray | None = None,
    ) -> Memory:
        """Apply column changes with a version row (before/after images), one transaction."""
        unknown = set(changes) - UPDATABLE
        if unknown:
            raise ValueError(f"not updatable: {sorted(unknown)}")
        with self.db.write() as conn:
            row = self._one(conn, key)
            memory_id = int(row["id"])
            self._versioned_update(
                conn,
                memory_id,
                changes,
                now=now,
                change=VersionChange.UPDATE,
                changed_by=changed_by,
            )
            if "content" in changes and row["status"] == "active":  # the index holds active rows
                MEMORY_FTS.index(
                    conn, [(memory_id, changes["content"])], persona_id=self.persona_id
                )
            if vector is not None:
                self._write_vector(conn, memory_id, vector)
            if vector is not None or "content" in changes:  # new words move it too
                index, revision = self._bump(conn)
                if vector is not None:
                    content = changes.get("content") or self._one(conn, key)["content"]
                    index.add([memory_id], vector[None, :], [language_of(content)])
                index.revision = revision
        return self.get(key)

    def tombstone(self, key: str, *, now: datetime, changed_by: str = "user") -> Memory:
        """Soft delete: status → tombstoned, removed from both indexes; rows and history stay."""
        with self.db.write() as conn:
            row = self._one(conn, key)
            memory_id = int(row["id"])
            before = memory_from_row(row, self.persona)
            if before.status == "tombstoned":  # it exists (a read shows it): not a 404
                raise Conflict(
                    f"memory {named(key)} of persona {named(self.persona)} is already deleted "
                    "(a tombstone, kept with its history); to erase it, delete it "
                    "with purge",
                    persona=self.persona,
                    key=key,
                )
            conn.execute(
                "UPDATE memories SET status = 'tombstoned', updated_at = ? "
                "WHERE id = ? AND persona_id = ?",
                (iso(now), memory_id, self.persona_id),
            )
            MEMORY_FTS.unindex(conn, [memory_id], persona_id=self.persona_id)
            after = memory_from_row(self._one(conn, key), self.persona)
            conn.execute(
                INSERT_VERSION,
                version_row(memory_id, VersionChange.DELETE, changed_by, now, before, after),
            )
            index, revision = self._bump(conn)
            index.remove([memory_id])
            index.revision = revision
        return self.get(key)

    def record_recalls(
        self,
        ids: Iterable[int],
        *,
        now: datetime,
        factor: float,
        cap: float,
        min_interval_hours: float,
    ) -> int:
        """Recall strengthening (spec §FSRS): stability × factor (capped), last_accessed = now,
        access_count + 1 — skipped for memories recalled within ``min_interval_hours``."""
        ids = list(ids)
        if not ids or self.db.read_only:  # a read-only folder (a backup) is read, not changed
            return 0
        cutoff = iso(now - timedelta(hours=min_interval_hours))
        marks = ",".join("?" * len(ids))
        probe = (
            f"SELECT id FROM memories WHERE +persona_id = ? AND id IN ({marks}) "
            "AND (last_accessed IS NULL OR last_accessed <= ?)"
        )
        params = (self.persona_id, *ids, cutoff)
        # Most searches recall memories recalled moments ago: find that out on a read
        # connection, so a search never queues for the write lock behind background work.
        if not self.db.conn().execute(probe, params).fetchone():
            return 0
        with self.db.write() as conn:
            due = [r[0] for r in conn.execute(probe, params)]  # again, under the lock
            if not due:
                return 0
            dmarks = ",".join("?" * len(due))
            conn.execute(
                f"UPDATE memories SET access_count = access_count + 1, last_accessed = ? "
                f"WHERE id IN ({dmarks})",
                (iso(now), *due),
            )
            conn.execute(
                f"UPDATE memory_strength SET stability = MIN(?, stability * ?) "
                f"WHERE memory_id IN ({dmarks})",
                (cap, factor, *due),
            )
        return len(due)
