"""Which embedding model made the folder's vectors, and the rows ``omoide reindex`` rewrites.

Vectors live in three tables (memories, session events, episodes), each row with its model id.
The folder records one embedder (table ``embedder``); vectors of another model cannot be
compared with it, so a different model is refused until every row has been re-embedded.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

import numpy as np

from omoide.clock import iso
from omoide.model import RecordedEmbedder, StaleRow
from omoide.store.sqlite.db import Database

__all__ = ["VECTOR_TABLES", "RecordedEmbedder", "StaleRow", "VectorModels"]


@dataclass(frozen=True)
class VectorTable:
    """A vector table and how to find its rows' owner and text."""

    name: str  # "memories" | "events" | "episodes"
    table: str
    key: str  # the vector table's id column
    select: str  # SELECT id, text-parts… FROM the owner table (aliased "o") … of one persona
    revision: str  # the ``personas`` column that makes loaded indexes reload


VECTOR_TABLES = (
    VectorTable(
        "memories",
        "memory_vectors",
        "memory_id",
        "SELECT o.id, o.content, '', '{}' FROM memories o WHERE o.persona_id = ?",
        "revision",
    ),
    VectorTable(
        "events",
        "event_vectors",
        "event_id",
        "SELECT o.id, o.content, o.speaker, o.metadata FROM session_events o "
        "JOIN event_vectors v ON v.event_id = o.id WHERE o.persona_id = ?",
        "event_revision",
    ),
    VectorTable(
        "episodes",
        "episode_vectors",
        "episode_id",
        "SELECT o.id, o.content, '', '{}' FROM episodes o WHERE o.persona_id = ?",
        "event_revision",
    ),
)


class VectorModels:
    def __init__(self, db: Database) -> None:
        self.db = db

    @property
    def tables(self) -> tuple[VectorTable, ...]:
        """The kinds of stored vector, in the order a reindex walks them."""
        return VECTOR_TABLES

    def recorded(self) -> RecordedEmbedder | None:
        row = (
            self.db.conn()
            .execute("SELECT model_id, dim, recorded_at FROM embedder WHERE id = 1")
            .fetchone()
        )
        return None if row is None else RecordedEmbedder(row[0], int(row[1]), row[2])

    def record(self, model_id: str, dim: int, *, now: datetime) -> None:
        with self.db.write() as conn:
            conn.execute(
                "INSERT INTO embedder (id, model_id, dim, recorded_at) "
                "VALUES (1, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET "
                "model_id = excluded.model_id, dim = excluded.dim, "
                "recorded_at = excluded.recorded_at",
                (model_id, dim, iso(now)),
            )

    def stored_models(self) -> dict[str, int]:
        """Vector count per model id over the three tables (a scan: for start-up checks of a
        folder with no record, and after a reindex)."""
        counts: dict[str, int] = {}
        conn = self.db.conn()
        for spec in VECTOR_TABLES:
            for model_id, n in conn.execute(
                f"SELECT model_id, COUNT(*) FROM {spec.table} GROUP BY model_id"
            ):
                counts[model_id] = counts.get(model_id, 0) + int(n)
        return counts

    def other_models(self, model_id: str) -> list[str]:
        """Model ids other than ``model_id`` that stored vectors carry (an index seek on each
        side of ``model_id`` per table, migration 21: cheap enough for every start-up). Not
        every such id when there are several: enough to tell the folder is mixed."""
        found: set[str] = set()
        conn = self.db.conn()
        for spec in VECTOR_TABLES:
            for query in (
                f"SELECT model_id FROM {spec.table} WHERE model_id < ? "
                "ORDER BY model_id DESC LIMIT 1",
                f"SELECT model_id FROM {spec.table} WHERE model_id > ? ORDER BY model_id LIMIT 1",
            ):
                row = conn.execute(query, (model_id,)).fetchone()
                if row is not None:
                    found.add(row[0])
        return sorted(found)

    def stale(self, spec: VectorTable, persona_id: int, model_id: str) -> list[StaleRow]:
        """Rows of one persona whose vector is not ``model_id``'s (events: only embedded ones;
        the others are embedded when they are segmented). Oldest first."""
        rows = (
            self.db.conn()
            .execute(
                f"{spec.select} AND NOT EXISTS (SELECT 1 FROM {spec.table} w "
                f"WHERE w.{spec.key} = o.id AND w.model_id = ?) ORDER BY o.id",
                (persona_id, model_id),
            )
            .fetchall()
        )
        return [StaleRow(int(r[0]), r[1], r[2], json.loads(r[3] or "{}")) for r in rows]

    def save(
        self,
        spec: VectorTable,
        persona_id: int,
        ids: Sequence[int],
        vectors: np.ndarray,
        *,
        model_id: str,
    ) -> None:
        """Store re-embedded vectors (one transaction) and make loaded indexes reload."""
        matrix = np.asarray(vectors, dtype=np.float32)
        with self.db.write() as conn:
            conn.executemany(
                f"INSERT INTO {spec.table} ({spec.key}, model_id, dim, vector) "
                f"VALUES (?, ?, ?, ?) ON CONFLICT ({spec.key}) DO UPDATE SET "
                "model_id = excluded.model_id, dim = excluded.dim, vector = excluded.vector",
                [
                    (i, model_id, int(matrix.shape[1]), row.tobytes())
                    for i, row in zip(ids, matrix, strict=True)
                ],
            )
            _bump(conn, spec.revision, persona_id)


def _bump(conn: sqlite3.Connection, column: str, persona_id: int) -> None:
    conn.execute(f"UPDATE personas SET {column} = {column} + 1 WHERE id = ?", (persona_id,))
