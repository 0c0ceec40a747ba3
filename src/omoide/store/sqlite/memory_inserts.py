"""New memories of one persona: one at a time (with the caller's work in the same
transaction) or in bulk for imports, and more source turns for a memory."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from datetime import datetime

import numpy as np

from omoide.clock import iso
from omoide.model import Memory, NewMemory, VersionChange
from omoide.store.port import UnitOfWork
from omoide.store.sqlite.indexes import MEMORY_FTS
from omoide.store.sqlite.memory_sql import (
    INSERT_MEMORY_WITH_ID,
    INSERT_SOURCE,
    INSERT_STRENGTH,
    INSERT_TAG,
    INSERT_VERSION,
    SELECT_MEMORY,
    UPSERT_VECTOR,
    new_key,
    version_row,
)
from omoide.store.sqlite.memory_writes import MemoryWrites
from omoide.store.sqlite.unit_of_work import SqliteUnitOfWork
from omoide.store.vectors import language_of

__all__ = ["MemoryInserts"]


class MemoryInserts(MemoryWrites):
    """Inserts of one persona's memories (mixed into ``MemoryStore``)."""

    def insert(
        self,
        new: NewMemory,
        *,
        vector: np.ndarray,
        stability: float,
        now: datetime,
        changed_by: str = "user",
        after_insert: Callable[[UnitOfWork, Memory], None] | None = None,
        if_revision: int | None = None,
    ) -> Memory | None:
        """Memory + strength + version 1 + FTS + vector (+ sources).

        ``after_insert(unit_of_work, memory)`` runs inside the same transaction (e.g. to enqueue the
        evolution job atomically with the write that causes it). ``if_revision`` is checked under
        SQLite's one writer (PostgreSQL's per-persona lock).
        """
        with self.db.write() as conn:
            if if_revision is not None and self._stored_revision(conn) != if_revision:
                return None
            memory_id, memory = self._insert_row(
                conn, new, vector=vector, stability=stability, now=now, changed_by=changed_by
            )
            if after_insert is not None:
                after_insert(SqliteUnitOfWork(conn), memory)
            index, revision = self._bump(conn)
            index.add([memory_id], vector[None, :], [language_of(new.content)])
            index.revision = revision
        return memory

    def add_sources(self, key: str, event_ids: Sequence[int]) -> None:
        """Record more turns that stated a memory (a conversation repeated it: consolidation
        found its note a duplicate of this one)."""
        if not event_ids:
            return
        with self.db.write() as conn:
            memory_id = int(self._one(conn, key)["id"])
            conn.executemany(
                INSERT_SOURCE,
                [(memory_id, e) for e in event_ids],
            )

    def _new_ids(self, conn: sqlite3.Connection, n: int) -> list[int]:
        """``n`` ids for a bulk insert. Chosen here rather than read back one by one: BEGIN
        IMMEDIATE holds the write lock, so nobody else can take them, and the batch stays one
        executemany."""
        first = int(conn.execute("SELECT COALESCE(MAX(id), 0) + 1 FROM memories").fetchone()[0])
        return list(range(first, first + n))

    def _rows_with_ids(self, conn: sqlite3.Connection, ids: list[int]) -> list[sqlite3.Row]:
        """The rows of a bulk insert (``ids`` from :meth:`_new_ids`: one contiguous run)."""
        return conn.execute(
            SELECT_MEMORY + " WHERE m.persona_id = ? AND m.id BETWEEN ? AND ? ORDER BY m.id",
            (self.persona_id, ids[0], ids[-1]),
        ).fetchall()

    def insert_many(
        self,
        news: Sequence[NewMemory],
        vectors: np.ndarray,
        *,
        stabilities: Sequence[float],
        now: datetime,
        changed_by: str = "user",
    ) -> list[Memory]:
        """Bulk :meth:`insert` for imports: the same rows per memory (memory, strength,
        version 1, sources, FTS, vector), one transaction and one statement per table.

        No dedup and no evolution job: the caller decides what to check and queue. Memories
        come back in input order.
        """
        if not len(news) == len(vectors) == len(stabilities):
            raise ValueError("news, vectors and stabilities must have the same length")
        if not news:
            return []
        matrix = np.asarray(vectors, dtype=np.float32).reshape(len(news), -1)
        with self.db.write() as conn:
            ids = self._new_ids(conn, len(news))
            conn.executemany(
                INSERT_MEMORY_WITH_ID,
                [
                    (memory_id, new_key(), *self._memory_columns(new, now))
                    for memory_id, new in zip(ids, news, strict=True)
                ],
            )
            conn.executemany(
                INSERT_STRENGTH,
                [
                    (memory_id, new.importance, float(stability), iso(now))
                    for memory_id, new, stability in zip(ids, news, stabilities, strict=True)
                ],
            )
            conn.executemany(
                INSERT_SOURCE,
                [
                    (memory_id, e)
                    for memory_id, new in zip(ids, news, strict=True)
                    for e in new.source_event_ids
                ],
            )
            conn.executemany(
                UPSERT_VECTOR,
                [
                    (memory_id, self.model_id, matrix.shape[1], row.tobytes())
                    for memory_id, row in zip(ids, matrix, strict=True)
                ],
            )
            MEMORY_FTS.index(
                conn,
                [(memory_id, new.content) for memory_id, new in zip(ids, news, strict=True)],
                persona_id=self.persona_id,
            )
            conn.executemany(
                INSERT_TAG,
                [
                    (memory_id, self.persona_id, tag)
                    for memory_id, new in zip(ids, news, strict=True)
                    for tag in new.tags
                ],
            )
            rows = self._rows_with_ids(conn, ids)
            memories = self._hydrate(rows, with_links=False)
            conn.executemany(
                INSERT_VERSION,
                [
                    version_row(memory_id, VersionChange.CREATE, changed_by, now, None, memory)
                    for memory_id, memory in zip(ids, memories, strict=True)
                ],
            )
            index, revision = self._bump(conn)
            index.add(ids, matrix, [language_of(new.content) for new in news])
            index.revision = revision
        return memories
