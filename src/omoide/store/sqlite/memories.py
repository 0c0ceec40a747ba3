"""Note-tier storage for one persona: every query here carries ``persona_id = ?``.

A :class:`MemoryStore` is built for one persona by :meth:`SqliteStore.memories`; there is no
way to reach another persona's rows through it (DESIGN: isolation is a wall, not a filter).
Each public method that writes is one transaction covering every table it touches.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from omoide.clock import iso
from omoide.engine.errors import named
from omoide.errors import NotFound
from omoide.model import (
    Link,
    LinkType,
    Memory,
    MemoryStats,
    MemoryStatus,
    MemoryVersion,
    RankFacts,
    SearchFilters,
    Source,
    VersionChange,
)
from omoide.store.sqlite.by_id import persona_rows_by_id
from omoide.store.sqlite.db import Database
from omoide.store.sqlite.memory_edits import MemoryEdits
from omoide.store.sqlite.memory_evolution import MemoryEvolution
from omoide.store.sqlite.memory_inserts import MemoryInserts
from omoide.store.sqlite.memory_sql import SELECT_MEMORY
from omoide.store.sqlite.memory_words import CommonWordAnswers, MemoryWords
from omoide.store.sqlite.rows import (
    bump_persona_counter,
    dt,
    dt_or_none,
    memory_from_row,
    memory_revision,
)
from omoide.store.vectors import VectorIndex

__all__ = ["MemoryStore", "build_filter_sql"]


def build_filter_sql(filters: SearchFilters, persona_id: int) -> tuple[str, list[Any]]:
    """``WHERE`` fragment (to AND onto ``persona_id = ? AND status = 'active'``) + params."""
    clauses: list[str] = []
    params: list[Any] = []
    for tag in filters.tags:  # uncorrelated: one index range per tag, not a probe per row
        clauses.append(
            "m.id IN (SELECT memory_id FROM memory_tags WHERE persona_id = ? AND tag = ?)"
        )
        params += [persona_id, tag]
    if filters.created_from is not None:
        clauses.append("m.created_at >= ?")
        params.append(iso(filters.created_from))
    if filters.created_until is not None:
        clauses.append("m.created_at < ?")
        params.append(iso(filters.created_until))
    if filters.min_importance is not None:
        clauses.append("m.importance >= ?")
        params.append(filters.min_importance)
    if filters.kind is not None:
        clauses.append("m.kind = ?")
        params.append(str(filters.kind))
    if filters.valid_at is not None:
        at = iso(filters.valid_at)
        clauses.append("(m.valid_from IS NULL OR m.valid_from <= ?)")
        clauses.append("(m.valid_until IS NULL OR m.valid_until > ?)")
        params += [at, at]
    return " AND ".join(clauses), params


class MemoryStore(MemoryWords, MemoryInserts, MemoryEdits, MemoryEvolution):
    """The memories of one persona: reads and the vector index here; the keyword index's
    questions in ``memory_words``; writes in ``memory_inserts`` (new memories),
    ``memory_edits`` (edits, deletes, recalls) and ``memory_evolution`` (evolution's effects),
    on the primitives of ``memory_writes``."""

    def __init__(
        self,
        db: Database,
        persona_id: int,
        persona: str,
        load_vectors: Callable[[int], VectorIndex],
        model_id: str,
    ) -> None:
        self.db = db
        self.persona_id = persona_id
        self.persona = persona
        self.model_id = model_id
        self._load_vectors = load_vectors
        self._vectors: VectorIndex | None = None
        self._vectors_lock = threading.Lock()
        self._common = CommonWordAnswers()  # common_words' (memory_words.py)

    @property
    def vectors(self) -> VectorIndex:
        """The persona's vector index, reloaded if another process changed the persona.

        Every write bumps ``personas.revision`` in its transaction and applies itself to the
        index; a revision this process did not make (e.g. ``omoide memory add`` while the server
        runs) means the index is stale, and it is rebuilt from ``memory_vectors``.
        """
        current = self._revision(self.db.conn())
        with self._vectors_lock:
            if self._vectors is None or self._vectors.revision != current:
                self._vectors = self._load_vectors(self.persona_id)
                self._vectors.revision = current
            return self._vectors

    def _revision(self, conn: sqlite3.Connection) -> int:
        return self._stored_revision(conn)

    def _stored_revision(self, conn: sqlite3.Connection) -> int:
        return memory_revision(conn, self.persona_id, self.persona)

    def revision(self) -> int:
        """As stored now; writes move it with ``_bump``."""
        return self._stored_revision(self.db.conn())

    def _bump(self, conn: sqlite3.Connection) -> tuple[VectorIndex, int]:
        """Inside a write: the index (current as of before this write) and the new revision."""
        index = self.vectors
        revision = bump_persona_counter(conn, "revision", self.persona_id, self.persona)
        return index, revision

    # -- reads ---------------------------------------------------------------------------

    def _one(self, conn: sqlite3.Connection, key: str) -> sqlite3.Row:
        row = conn.execute(
            SELECT_MEMORY + " WHERE m.key = ? AND m.persona_id = ?", (key, self.persona_id)
        ).fetchone()
        if row is None:
            raise NotFound(
                f"no memory {named(key)} for persona {named(self.persona)}",
                persona=self.persona,
                key=key,
            )
        return row

    def get(self, key: str, *, with_links: bool = True) -> Memory:
        conn = self.db.conn()
        row = self._one(conn, key)
        return self._hydrate([row], with_links=with_links)[0]

    def id_of(self, key: str) -> int:
        return int(self._one(self.db.conn(), key)["id"])

    def by_ids(self, ids: Sequence[int]) -> dict[int, Memory]:
        if not ids:
            return {}
        rows = persona_rows_by_id(self.db.conn(), SELECT_MEMORY, "m", self.persona_id, ids)
        memories = self._hydrate(rows, with_links=False)
        return {int(r["id"]): m for r, m in zip(rows, memories, strict=True)}

    def rank_facts(self, ids: Sequence[int]) -> dict[int, RankFacts]:
        """What ranking search candidates needs of each (a few columns, no sources): a
        search ranks its 50 candidates by these and reads whole only the ones it returns."""
        if not ids:
            return {}
        rows = persona_rows_by_id(
            self.db.conn(),
            "SELECT m.id, m.key, m.status, m.importance, s.stability, m.created_at, "
            "m.last_accessed, m.superseded_by, m.valid_until, m.updated_at FROM memories m "
            "JOIN memory_strength s ON s.memory_id = m.id",
            "m",
            self.persona_id,
            ids,
        )
        return {
            int(r[0]): RankFacts(
                key=r[1],
                status=MemoryStatus(r[2]),
                importance=r[3],
                stability=r[4],
                created_at=dt(r[5]),
                last_accessed=dt_or_none(r[6]),
                superseded_by=r[7],
                valid_until=dt_or_none(r[8]),
                updated_at=dt(r[9]),
            )
            for r in rows
        }

    def list_recent(
        self,
        *,
        limit: int,
        offset: int = 0,
        include_tombstoned: bool = False,
        only_current: bool = False,
    ) -> list[Memory]:
        where = "m.persona_id = ?"
        if not include_tombstoned:
            where += " AND m.status = 'active'"
        if only_current:
            where += " AND m.superseded_by IS NULL AND m.valid_until IS NULL"
        rows = (
            self.db.conn()
            .execute(
                SELECT_MEMORY + f" WHERE {where} ORDER BY m.created_at DESC, m.id DESC "
                "LIMIT ? OFFSET ?",
                (self.persona_id, limit, offset),
            )
            .fetchall()
        )
        return self._hydrate(rows, with_links=False)

    def active_rows_for_strength(self) -> list[sqlite3.Row]:
        """Rows for ranking by current strength (context): id, importance, stability, times."""
        return (
            self.db.conn()
            .execute(
                "SELECT m.id, m.importance, m.created_at, m.last_accessed, s.stability "
                "FROM memories m JOIN memory_strength s ON s.memory_id = m.id "
                "WHERE m.persona_id = ? AND m.status = 'active' AND m.superseded_by IS NULL "
                "AND m.valid_until IS NULL",
                (self.persona_id,),
            )
            .fetchall()
        )

    def allowed_ids(self, filters: SearchFilters) -> np.ndarray:
        """Sorted ids of active memories passing ``filters`` (used before the top-k cut)."""
        fragment, params = build_filter_sql(filters, self.persona_id)
        sql = "SELECT m.id FROM memories m WHERE m.persona_id = ? AND m.status = 'active'"
        if fragment:
            sql += " AND " + fragment
        rows = self.db.conn().execute(sql + " ORDER BY m.id", (self.persona_id, *params))
        return np.fromiter((r[0] for r in rows), dtype=np.int64)

    def history(self, key: str) -> list[MemoryVersion]:
        conn = self.db.conn()
        memory_id = int(self._one(conn, key)["id"])
        rows = conn.execute(
            "SELECT * FROM memory_versions WHERE memory_id = ? ORDER BY version", (memory_id,)
        ).fetchall()
        return [
            MemoryVersion(
                version=r["version"],
                change=VersionChange(r["change"]),
                changed_by=r["changed_by"],
                changed_at=dt(r["changed_at"]),
                before=json.loads(r["before"]) if r["before"] else None,
                after=json.loads(r["after"]) if r["after"] else None,
            )
            for r in rows
        ]

    def links(self, key: str) -> list[Link]:
        conn = self.db.conn()
        memory_id = int(self._one(conn, key)["id"])
        return self._links_of(conn, [memory_id]).get(memory_id, [])

    def stats(self) -> MemoryStats:
        conn = self.db.conn()
        row = conn.execute(
            "SELECT COUNT(*) AS total, COUNT(CASE WHEN status = 'active' THEN 1 END) AS active, "
            "COUNT(CASE WHEN status = 'tombstoned' THEN 1 END) AS tombstoned, "
            "COUNT(CASE WHEN status = 'active' AND superseded_by IS NOT NULL THEN 1 END) "
            "AS superseded, "
            "MIN(created_at) AS oldest, MAX(created_at) AS newest, "
            "AVG(CASE WHEN status = 'active' THEN s.strength END) AS mean_strength "
            "FROM memories m JOIN memory_strength s ON s.memory_id = m.id "
            "WHERE m.persona_id = ?",
            (self.persona_id,),
        ).fetchone()
        kinds = conn.execute(
            "SELECT kind, COUNT(*) FROM memories WHERE persona_id = ? AND status = 'active' "
            "GROUP BY kind ORDER BY kind",
            (self.persona_id,),
        ).fetchall()
        links = conn.execute(
            "SELECT COUNT(*) FROM memory_links l JOIN memories m ON m.id = l.a "
            "WHERE m.persona_id = ? AND l.a < l.b",
            (self.persona_id,),
        ).fetchone()[0]
        return MemoryStats(
            persona=self.persona,
            total=row["total"] or 0,
            active=row["active"] or 0,
            tombstoned=row["tombstoned"] or 0,
            superseded=row["superseded"] or 0,
            by_kind={k: n for k, n in kinds},
            mean_strength=float(row["mean_strength"] or 0.0),
            links=links,
            oldest=dt_or_none(row["oldest"]),
            newest=dt_or_none(row["newest"]),
        )

    def _hydrate(self, rows: Sequence[sqlite3.Row], *, with_links: bool) -> list[Memory]:
        if not rows:
            return []
        conn = self.db.conn()
        ids = [int(r["id"]) for r in rows]
        sources = self._sources_of(conn, ids)
        links = self._links_of(conn, ids) if with_links else {}
        return [
            memory_from_row(
                row,
                self.persona,
                sources=tuple(sources.get(memory_id, ())),
                links=tuple(links.get(memory_id, ())),
            )
            for row, memory_id in zip(rows, ids, strict=True)
        ]

    def _sources_of(self, conn: sqlite3.Connection, ids: list[int]) -> dict[int, list[Source]]:
        marks = ",".join("?" * len(ids))
        rows = conn.execute(
            "SELECT ms.memory_id, e.id AS event_id, e.external_id FROM memory_sources ms "
            f"JOIN session_events e ON e.id = ms.event_id WHERE ms.memory_id IN ({marks}) "
            "ORDER BY e.id",
            ids,
        ).fetchall()
        out: dict[int, list[Source]] = {}
        for r in rows:
            out.setdefault(r["memory_id"], []).append(Source(r["event_id"], r["external_id"]))
        return out

    def _links_of(self, conn: sqlite3.Connection, ids: list[int]) -> dict[int, list[Link]]:
        marks = ",".join("?" * len(ids))
        rows = conn.execute(
            "SELECT l.a, o.key AS other_key, l.link_type, l.weight, l.co_activation_count, "
            f"l.last_activated FROM memory_links l JOIN memories o ON o.id = l.b "
            f"WHERE l.a IN ({marks}) ORDER BY l.weight DESC, o.key",
            ids,
        ).fetchall()
        out: dict[int, list[Link]] = {}
        for r in rows:
            out.setdefault(r["a"], []).append(
                Link(
                    other_key=r["other_key"],
                    link_type=LinkType(r["link_type"]),
                    weight=r["weight"],
                    co_activation_count=r["co_activation_count"],
                    last_activated=dt_or_none(r["last_activated"]),
                )
            )
        return out
