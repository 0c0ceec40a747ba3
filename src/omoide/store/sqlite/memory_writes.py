"""The Note tier's writes for one persona: every public method is one transaction.

:class:`MemoryWrites` is the write half of :class:`~omoide.store.sqlite.memories.MemoryStore`
(split off so each module stays small); it uses the reads and the vector-index bookkeeping of
that class. Every statement carries the persona's id.
"""

from __future__ import annotations

import json
import secrets
import sqlite3
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

import numpy as np

from omoide.clock import iso
from omoide.engine.candidates import closable
from omoide.errors import Conflict
from omoide.model import LinkType, Memory, NewMemory, VersionChange
from omoide.store.port import UnitOfWork
from omoide.store.sqlite.db import Database
from omoide.store.sqlite.indexes import MEMORY_FTS
from omoide.store.sqlite.jobs import SqliteUnitOfWork
from omoide.store.sqlite.rows import dt_or_none, iso_or_none, memory_from_row, memory_image
from omoide.store.vectors import VectorIndex, language_of

__all__ = ["SELECT_MEMORY", "MemoryWrites", "new_key"]

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

_INSERT_MEMORY_WITH_ID = """
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
_INSERT_CAUSED_VERSION = """
INSERT INTO memory_versions (memory_id, version, change, changed_by, changed_at, before, after,
    cause)
VALUES (?, (SELECT COALESCE(MAX(version), 0) + 1 FROM memory_versions WHERE memory_id = ?),
        ?, ?, ?, ?, ?, ?)
"""

_INSERT_STRENGTH = (
    "INSERT INTO memory_strength (memory_id, strength, stability, last_decay_at) "
    "VALUES (?, ?, ?, ?)"
)
_INSERT_SOURCE = "INSERT OR IGNORE INTO memory_sources (memory_id, event_id) VALUES (?, ?)"
_INSERT_TAG = "INSERT OR IGNORE INTO memory_tags (memory_id, persona_id, tag) VALUES (?, ?, ?)"

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

_UPDATABLE = {
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


def _version_row(
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


class MemoryWrites:
    """Writes of one persona's memories (mixed into ``MemoryStore``)."""

    db: Database
    persona_id: int
    persona: str
    model_id: str
    # The link upsert of evolution (an adapter whose dialect names columns differently swaps
    # the statement, not the method).
    _upsert_link: str = UPSERT_LINK

    if TYPE_CHECKING:

        def _one(self, conn: sqlite3.Connection, key: str) -> sqlite3.Row: ...
        def _hydrate(self, rows: Sequence[sqlite3.Row], *, with_links: bool) -> list[Memory]: ...
        def _bump(self, conn: sqlite3.Connection) -> tuple[VectorIndex, int]: ...
        def _stored_revision(self, conn: sqlite3.Connection) -> int: ...
        def get(self, key: str, *, with_links: bool = True) -> Memory: ...

    # -- writes --------------------------------------------------------------------------

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
                _INSERT_SOURCE,
                [(memory_id, e) for e in event_ids],
            )

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
            _INSERT_STRENGTH,
            (memory_id, new.importance, stability, iso(now)),
        )
        conn.executemany(
            _INSERT_SOURCE,
            [(memory_id, e) for e in new.source_event_ids],
        )
        self._write_tags(conn, memory_id, new.tags)
        conn.execute(
            UPSERT_VECTOR,
            (
                memory_id,
                self.model_id,
                int(vector.shape[0]),
                np.asarray(vector, dtype=np.float32).tobytes(),
            ),
        )
        MEMORY_FTS.index(conn, [(memory_id, new.content)], persona_id=self.persona_id)
        memory = self._hydrate([self._one(conn, key)], with_links=False)[0]
        conn.execute(
            INSERT_VERSION,
            _version_row(memory_id, VersionChange.CREATE, changed_by, now, None, memory),
        )
        return memory_id, memory

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
                _INSERT_MEMORY_WITH_ID,
                [
                    (memory_id, new_key(), *self._memory_columns(new, now))
                    for memory_id, new in zip(ids, news, strict=True)
                ],
            )
            conn.executemany(
                _INSERT_STRENGTH,
                [
                    (memory_id, new.importance, float(stability), iso(now))
                    for memory_id, new, stability in zip(ids, news, stabilities, strict=True)
                ],
            )
            conn.executemany(
                _INSERT_SOURCE,
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
                _INSERT_TAG,
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
                    _version_row(memory_id, VersionChange.CREATE, changed_by, now, None, memory)
                    for memory_id, memory in zip(ids, memories, strict=True)
                ],
            )
            index, revision = self._bump(conn)
            index.add(ids, matrix, [language_of(new.content) for new in news])
            index.revision = revision
        return memories

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
        unknown = set(changes) - _UPDATABLE
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
                conn.execute(
                    UPSERT_VECTOR,
                    (
                        memory_id,
                        self.model_id,
                        int(vector.shape[0]),
                        np.asarray(vector, dtype=np.float32).tobytes(),
                    ),
                )
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
                    f"memory {key!r} of persona {self.persona!r} is already deleted "
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
                _version_row(memory_id, VersionChange.DELETE, changed_by, now, before, after),
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
        if not ids:
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

    def apply_evolution(
        self,
        new_key: str,
        *,
        now: datetime,
        neighbour_ids: Sequence[int],
        link_increment: float,
        link_cap: float,
        extends: Sequence[tuple[int, tuple[str, ...], float]],
        supersedes: Sequence[tuple[int, datetime]],
        remainders: Sequence[tuple[NewMemory, np.ndarray, float]] = (),
        judged: Sequence[int] | None = None,
        ended_by: tuple[int, datetime] | None = None,
    ) -> bool:
        """Step 4 of the write path for ``new_key``, all in one transaction, at most once.

        ``extends``: (old id, merged tags, merged importance); ``supersedes``: (old id,
        valid_until); ``remainders``: (memory, vector, stability) written as new memories —
        the unchanged part of a superseded compound memory. Returns False when this memory was
        already evolved (a re-run after a crash), so the effect is exactly once.

        A memory another memory's evolution closed since this one's was judged (two new facts
        contradicting one old fact, evolved at once by two workers or processes) stays as
        that one closed it: closed once, its remainder written once.

        Which of ``judged`` is still open is read in this transaction: when another evolution
        closed the nearest meanwhile, the next still open is the nearest. ``ended_by`` closes
        the new memory at that change, ``superseded_by`` the successor (:meth:`_end_new`).
        """
        with self.db.write() as conn:
            row = self._one(conn, new_key)
            if row["evolved_at"] is not None:
                return False
            new_id = int(row["id"])
            conn.execute("UPDATE memories SET evolved_at = ? WHERE id = ?", (iso(now), new_id))
            if neighbour_ids:
                marks = ",".join("?" * len(neighbour_ids))
                conn.execute(
                    "UPDATE memories SET access_count = access_count + 1, last_accessed = ?, "
                    f"summary_ref = ? WHERE +persona_id = ? AND id IN ({marks})",
                    (iso(now), new_key, self.persona_id, *neighbour_ids),
                )
                for other in neighbour_ids:
                    for a, b in ((new_id, other), (other, new_id)):
                        conn.execute(
                            self._upsert_link,
                            (
                                a,
                                b,
                                LinkType.SEMANTIC,
                                link_increment,
                                iso(now),
                                link_cap,
                                link_increment,
                            ),
                        )
            for old_id, tags, importance in extends:
                self._versioned_update(
                    conn,
                    old_id,
                    {"tags": tags, "importance": importance},
                    now=now,
                    change=VersionChange.EXTEND,
                    changed_by="evolution",
                    cause=new_key,
                )
            # only what is still there and open: another evolution may have closed it since
            # this one was judged (it stays as that one closed it), or a purge erased it
            still_open = self._present(
                conn,
                "SELECT id FROM memories WHERE persona_id = ? AND superseded_by IS NULL AND id IN",
                list(dict.fromkeys([*(judged or ()), *(old_id for old_id, _ in supersedes)])),
            )
            allowed = (
                set(
                    closable(
                        [i for i in judged if i in still_open], {old_id for old_id, _ in supersedes}
                    )
                )
                if judged is not None
                else still_open
            )
            supersedes = [(old_id, until) for old_id, until in supersedes if old_id in allowed]
            closed = [
                self._versioned_update(
                    conn,
                    old_id,
                    {"valid_until": valid_until, "superseded_by": new_key},
                    now=now,
                    change=VersionChange.SUPERSEDE,
                    changed_by="evolution",
                    cause=new_key,
                )
                for old_id, valid_until in supersedes
            ]
            self._start_successor(
                conn,
                row,
                supersedes,
                closed_key=next((key for key in closed if key is not None), None),
                now=now,
            )
            if ended_by is not None:
                self._end_new(conn, new_id, new_key, ended_by, now=now)
            remainders = self._still_split(conn, remainders, closed)
            if remainders:
                added = [
                    self._insert_row(
                        conn,
                        new,
                        vector=vector,
                        stability=stability,
                        now=now,
                        changed_by="evolution",
                    )[0]
                    for new, vector, stability in remainders
                ]
                index, revision = self._bump(conn)
                index.add(
                    added,
                    np.stack([v for _, v, _ in remainders]),
                    [language_of(new.content) for new, _, _ in remainders],
                )
                index.revision = revision
        return True

    def _start_successor(
        self,
        conn: sqlite3.Connection,
        row: Any,
        supersedes: Sequence[tuple[int, datetime]],
        *,
        closed_key: str | None,
        now: datetime,
    ) -> None:
        """A successor without a start of its own is valid from the moment it closed its
        predecessors (the earliest ``valid_until`` it gave them): left open, a search with
        ``valid_at`` before that moment found it next to the fact it replaced."""
        if not supersedes or row["valid_from"] is not None:
            return
        start = min(until for _, until in supersedes)
        end = dt_or_none(row["valid_until"])
        if end is not None and end <= start:
            return  # never an empty or inverted window
        self._versioned_update(
            conn,
            int(row["id"]),
            {"valid_from": start},
            now=now,
            change=VersionChange.UPDATE,
            changed_by="evolution",
            cause=closed_key,
        )

    def _end_new(
        self,
        conn: sqlite3.Connection,
        new_id: int,
        new_key: str,
        ended_by: tuple[int, datetime],
        *,
        now: datetime,
    ) -> None:
        """Close the memory being evolved at ``ended_by``'s time, superseded by its successor,
        with a version row by evolution, as a closing is. Read in this transaction: nothing
        when the successor is gone (purged or deleted meanwhile), when the new memory was
        closed by another evolution meanwhile, or when the window would be empty."""
        successor_id, until = ended_by
        successor = conn.execute(
            "SELECT key FROM memories WHERE id = ? AND persona_id = ? AND status = 'active'",
            (successor_id, self.persona_id),
        ).fetchone()
        row = conn.execute(
            "SELECT superseded_by, valid_from, valid_until FROM memories WHERE id = ?", (new_id,)
        ).fetchone()
        start = dt_or_none(row["valid_from"])
        if (
            successor is None
            or row["superseded_by"] is not None
            or row["valid_until"] is not None
            or (start is not None and start >= until)
        ):
            return
        self._versioned_update(
            conn,
            new_id,
            {"valid_until": until, "superseded_by": successor["key"]},
            now=now,
            change=VersionChange.SUPERSEDE,
            changed_by="evolution",
            cause=new_key,
        )  # its own evolution

    def _still_split(
        self,
        conn: sqlite3.Connection,
        remainders: Sequence[tuple[NewMemory, np.ndarray, float]],
        closed: Sequence[str | None],
    ) -> list[tuple[NewMemory, np.ndarray, float]]:
        """The remainders of the memories this transaction ``closed`` (their ``source_ref``),
        each with the source turns that still exist. Evolution reads the closed memory before
        this transaction: a purge committed in between leaves the memory out of ``closed`` (it
        is no longer there to close), and a conversation's erasure its turns out of the
        sources, so no erased text (or source on an erased turn) is written back; a memory
        another evolution closed meanwhile is not in ``closed`` either (its remainder is that
        one's)."""
        kept = [r for r in remainders if r[0].source_ref in closed]
        turns = sorted({e for new, _, _ in kept for e in new.source_event_ids})
        said = self._present(
            conn, "SELECT id FROM session_events WHERE persona_id = ? AND id IN", turns
        )
        return [
            (
                replace(new, source_event_ids=tuple(e for e in new.source_event_ids if e in said)),
                vector,
                stability,
            )
            for new, vector, stability in kept
        ]

    def _present(self, conn: sqlite3.Connection, select: str, values: Sequence[Any]) -> set[Any]:
        """Which of ``values`` the persona's rows hold, by one ``select`` (its ``IN`` list
        last, filled here): none is asked for when there are none."""
        if not values:
            return set()
        marks = ",".join("?" * len(values))
        return {row[0] for row in conn.execute(f"{select} ({marks})", (self.persona_id, *values))}

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
        columns = {k: _to_column(v) for k, v in changes.items()}
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
            INSERT_VERSION if cause is None else _INSERT_CAUSED_VERSION,
            (
                *_version_row(memory_id, change, changed_by, now, before, after),
                *(() if cause is None else (cause,)),
            ),
        )
        return before.key

    def _write_tags(self, conn: sqlite3.Connection, memory_id: int, tags: Sequence[str]) -> None:
        """Keep ``memory_tags`` (the indexed copy used by tag filters) equal to ``tags``."""
        conn.execute("DELETE FROM memory_tags WHERE memory_id = ?", (memory_id,))
        conn.executemany(
            _INSERT_TAG,
            [(memory_id, self.persona_id, t) for t in tags],
        )


def _to_column(value: Any) -> Any:
    if isinstance(value, datetime):
        return iso(value)
    if isinstance(value, tuple | list):
        return json.dumps(list(value), ensure_ascii=False)
    if isinstance(value, dict):
        return json.dumps(value, ensure_ascii=False)
    if hasattr(value, "value") and isinstance(getattr(value, "value", None), str):
        return str(value)
    return value
