"""The vectors of one persona's turns and the index the Episode tier searches them by (every
turn, of a closed episode or a still open session), with the turns' keyword search."""

from __future__ import annotations

import threading
from collections.abc import Sequence

import numpy as np

from omoide.model import Event, KeywordHit
from omoide.store.sqlite.db import Database
from omoide.store.sqlite.indexes import EVENT_FTS
from omoide.store.sqlite.rows import bump_persona_counter, persona_counter
from omoide.store.vectors import VectorIndex, language_of

__all__ = ["EventVectors"]


class EventVectors:
    """Turn vectors and the turn index of one persona (mixed into ``SessionStore``)."""

    db: Database
    persona_id: int
    persona: str
    model_id: str
    dim: int
    _index: VectorIndex | None
    _index_lock: threading.Lock

    def event_vectors(self, ids: Sequence[int]) -> dict[int, np.ndarray]:
        if not ids:
            return {}
        marks = ",".join("?" * len(ids))
        rows = (
            self.db.conn()
            .execute(
                f"SELECT event_id, vector FROM event_vectors WHERE model_id = ? AND event_id IN "
                f"({marks})",
                (self.model_id, *ids),
            )
            .fetchall()
        )
        return {r[0]: np.frombuffer(r[1], dtype=np.float32) for r in rows}

    def save_event_vectors(self, events: Sequence[Event], vectors: np.ndarray) -> None:
        """Store the turns' vectors; they join the turn index (open sessions' turns too)."""
        if not events:
            return
        ids = [e.id for e in events]
        with self.db.write() as conn:
            index = self.event_index
            revision = bump_persona_counter(conn, "event_revision", self.persona_id, self.persona)
            conn.executemany(
                "INSERT INTO event_vectors (event_id, model_id, dim, vector) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (event_id) DO UPDATE SET model_id = excluded.model_id, "
                "dim = excluded.dim, vector = excluded.vector",
                [
                    (i, self.model_id, self.dim, np.asarray(v, np.float32).tobytes())
                    for i, v in zip(ids, vectors, strict=True)
                ],
            )
            index.remove(ids)
            index.add(
                ids,
                np.asarray(vectors, np.float32).reshape(len(ids), self.dim),
                [language_of(e.content) for e in events],
            )
            index.revision = revision

    # -- episode-tier search -------------------------------------------------------------

    def keyword_events(self, query: str, *, limit: int) -> list[KeywordHit]:
        return EVENT_FTS.search(
            self.db.conn(), persona_id=self.persona_id, query=query, limit=limit
        )

    @property
    def event_index(self) -> VectorIndex:
        """Vectors of every turn (closed episode or still open); rebuilt when another process
        changed them (``personas.event_revision``)."""
        revision = persona_counter(
            self.db.conn()
            .execute("SELECT event_revision FROM personas WHERE id = ?", (self.persona_id,))
            .fetchone(),
            self.persona,
        )
        with self._index_lock:
            if self._index is None or self._index.revision != revision:
                self._index = self._load_index()
                self._index.revision = revision
            return self._index

    def _load_index(self) -> VectorIndex:
        index = VectorIndex(self.dim)
        rows = (
            self.db.conn()
            .execute(
                "SELECT v.event_id, v.vector, e.content FROM event_vectors v JOIN session_events e "
                "ON e.id = v.event_id WHERE e.persona_id = ? AND v.model_id = ?",
                (self.persona_id, self.model_id),
            )
            .fetchall()
        )
        if rows:
            matrix = np.frombuffer(b"".join(r[1] for r in rows), dtype=np.float32)
            index.add(
                [r[0] for r in rows],
                matrix.reshape(len(rows), self.dim),
                [language_of(r[2]) for r in rows],
            )
        return index
