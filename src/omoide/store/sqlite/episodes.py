"""The episodes of one persona's sessions: written with their events' episode ids, FTS rows and
vectors in one transaction, guarded by the session's ``segmented_upto_seq`` so two segmenters
can never both cut the same turns; read back; consolidated at most once."""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from datetime import datetime

import numpy as np

from omoide.clock import iso
from omoide.engine.errors import named
from omoide.errors import Conflict, NotFound
from omoide.model import Episode, NewEpisode, Session
from omoide.store.port import UnitOfWork
from omoide.store.sqlite.db import Database
from omoide.store.sqlite.indexes import EPISODE_FTS
from omoide.store.sqlite.session_rows import SELECT_EPISODE, episode_from_row
from omoide.store.sqlite.unit_of_work import SqliteUnitOfWork

__all__ = ["EpisodeStore"]


class EpisodeStore:
    """Episodes of one persona's sessions (mixed into ``SessionStore``)."""

    db: Database
    persona_id: int
    persona: str
    model_id: str
    dim: int

    def add_episodes(
        self,
        session: Session,
        episodes: Sequence[NewEpisode],
        *,
        expected_upto: int,
        now: datetime,
        open_reason: str,
        open_surprise: float,
        after: Callable[[UnitOfWork, list[int]], None] | None = None,
    ) -> list[int]:
        """Persist closed episodes and advance ``segmented_upto_seq``, one transaction."""
        ids: list[int] = []
        with self.db.write() as conn:
            moved = conn.execute(
                "UPDATE sessions SET segmented_upto_seq = ?, open_reason = ?, open_surprise = ? "
                "WHERE id = ? AND segmented_upto_seq = ?",
                (episodes[-1].last_seq, open_reason, open_surprise, session.pk, expected_upto),
            ).rowcount
            if not moved:
                raise Conflict(
                    "session was segmented concurrently; retrying", session_id=session.session_id
                )
            for episode in episodes:
                ids.append(self._insert_episode(conn, session, episode, now))
            if after is not None:
                after(SqliteUnitOfWork(conn), ids)
        return ids

    def _insert_episode(
        self, conn: sqlite3.Connection, session: Session, episode: NewEpisode, now: datetime
    ) -> int:
        span = conn.execute(
            "SELECT MIN(id), MAX(id), MIN(timestamp), MAX(timestamp) FROM session_events "
            "WHERE session_pk = ? AND seq BETWEEN ? AND ?",
            (session.pk, episode.first_seq, episode.last_seq),
        ).fetchone()
        cur = conn.execute(
            "INSERT INTO episodes (session_pk, persona_id, first_event_id, last_event_id, "
            "first_seq, last_seq, content, topic, surprise, boundary_reason, started_at, "
            "ended_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                session.pk,
                self.persona_id,
                span[0],
                span[1],
                episode.first_seq,
                episode.last_seq,
                episode.content,
                episode.topic,
                episode.surprise,
                episode.boundary_reason,
                span[2],
                span[3],
                iso(now),
            ),
        )
        episode_id = int(cur.lastrowid or 0)
        conn.execute(
            "UPDATE session_events SET episode_id = ? WHERE session_pk = ? AND seq BETWEEN ? AND ?",
            (episode_id, session.pk, episode.first_seq, episode.last_seq),
        )
        conn.execute(
            "INSERT INTO episode_vectors (episode_id, model_id, dim, vector) VALUES (?, ?, ?, ?)",
            (episode_id, self.model_id, self.dim, np.asarray(episode.vector, np.float32).tobytes()),
        )
        EPISODE_FTS.index(conn, [(episode_id, episode.content)])
        return episode_id

    def get_episode(self, episode_id: int) -> Episode:
        row = (
            self.db.conn()
            .execute(
                SELECT_EPISODE + " WHERE ep.id = ? AND ep.persona_id = ?",
                (episode_id, self.persona_id),
            )
            .fetchone()
        )
        if row is None:
            raise NotFound(
                f"no episode {episode_id} for persona {named(self.persona)}", persona=self.persona
            )
        return episode_from_row(row)

    def episodes_of(self, session: Session) -> list[Episode]:
        rows = (
            self.db.conn()
            .execute(
                SELECT_EPISODE + " WHERE ep.session_pk = ? ORDER BY ep.first_seq", (session.pk,)
            )
            .fetchall()
        )
        return [episode_from_row(r) for r in rows]

    @contextlib.contextmanager
    def consolidating(self, episode_id: int, *, now: datetime) -> Iterator[bool]:
        """Guarded by ``consolidated_at``: the marker and what the caller writes inside the
        block commit (or roll back) together. False also when a concurrent run holds the row."""
        with self.db.write() as conn:
            yield bool(
                conn.execute(
                    "UPDATE episodes SET consolidated_at = ? WHERE id = ? AND persona_id = ? "
                    "AND consolidated_at IS NULL",
                    (iso(now), episode_id, self.persona_id),
                ).rowcount
            )

    def notes_of_episode(self, episode_id: int) -> list[str]:
        """Keys of the active memories consolidated from this episode."""
        return [
            r[0]
            for r in self.db.conn().execute(
                "SELECT key FROM memories WHERE persona_id = ? AND source_ref = ? "
                "AND status = 'active' ORDER BY id",
                (self.persona_id, str(episode_id)),
            )
        ]
