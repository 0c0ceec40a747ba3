"""The Episode tier's storage for one persona: sessions, their events, episodes, event vectors.

Every query carries ``persona_id = ?``. Events are idempotent per (session, external_id).
Episodes are written with their events' episode ids, FTS rows and vectors in one transaction,
guarded by the session's ``segmented_upto_seq`` so two segmenters can never both cut the same
turns (the loser's transaction is refused and its job retried).
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import threading
from collections.abc import Callable, Iterator, Sequence
from datetime import datetime
from typing import Any

import numpy as np

from omoide.clock import iso
from omoide.engine.attachments import turn_text
from omoide.errors import Conflict, NotFound
from omoide.model import Episode, Event, KeywordHit, NewEpisode, NewEvent, Session, SessionEnd
from omoide.store.port import UnitOfWork
from omoide.store.sqlite.db import Database, persona_rows_by_id
from omoide.store.sqlite.indexes import EPISODE_FTS, EVENT_FTS
from omoide.store.sqlite.jobs import SqliteUnitOfWork
from omoide.store.sqlite.rows import bump_persona_counter, dt, dt_or_none, ended_by, persona_counter
from omoide.store.vectors import VectorIndex, language_of

__all__ = ["Episode", "Event", "NewEpisode", "NewEvent", "Session", "SessionStore"]

AfterWrite = Callable[[UnitOfWork], None]


SELECT_EVENT = """
SELECT e.*, s.session_id AS sid FROM session_events e JOIN sessions s ON s.id = e.session_pk
"""
SELECT_EPISODE = """
SELECT ep.*, s.session_id AS sid FROM episodes ep JOIN sessions s ON s.id = ep.session_pk
"""

SELECT_OPEN = "SELECT id, session_id FROM sessions WHERE persona_id = ? AND ended_at IS NULL"
# Served by the partial index sessions_open_idle (its expression, verbatim).
SELECT_IDLE = SELECT_OPEN + " AND COALESCE(last_event_at, started_at) <= ?"


def _session(row: sqlite3.Row) -> Session:
    return Session(
        pk=row["id"],
        session_id=row["session_id"],
        started_at=dt(row["started_at"]),
        ended_at=dt_or_none(row["ended_at"]),
        segmented_upto_seq=row["segmented_upto_seq"],
        open_reason=row["open_reason"],
        open_surprise=row["open_surprise"],
        ended_by=ended_by(row["ended_by"]),
    )


def _event(row: sqlite3.Row) -> Event:
    return Event(
        id=row["id"],
        session_id=row["sid"],
        seq=row["seq"],
        speaker=row["speaker"],
        role=row["role"],
        content=row["content"],
        timestamp=dt(row["timestamp"]),
        external_id=row["external_id"],
        episode_id=row["episode_id"],
        metadata=json.loads(row["metadata"] or "{}"),
    )


def _episode(row: sqlite3.Row) -> Episode:
    return Episode(
        id=row["id"],
        session_id=row["sid"],
        first_event_id=row["first_event_id"],
        last_event_id=row["last_event_id"],
        first_seq=row["first_seq"],
        last_seq=row["last_seq"],
        content=row["content"],
        topic=row["topic"],
        surprise=row["surprise"],
        boundary_reason=row["boundary_reason"],
        started_at=dt(row["started_at"]),
        ended_at=dt(row["ended_at"]),
        consolidated_at=dt_or_none(row["consolidated_at"]),
    )


def _number(session_id: str, base: str) -> int:
    """1 for ``base``, n for ``base-n`` (n ≥ 2), else 0 (another session's id)."""
    if session_id == base:
        return 1
    tail = session_id[len(base) + 1 :] if session_id.startswith(base + "-") else ""
    return (
        int(tail)
        if tail.isascii() and tail.isdigit() and int(tail) >= 2 and str(int(tail)) == tail
        else 0
    )


class SessionStore:
    def __init__(
        self, db: Database, persona_id: int, persona: str, model_id: str, dim: int
    ) -> None:
        self.db = db
        self.persona_id = persona_id
        self.persona = persona
        self.model_id = model_id
        self.dim = dim
        self._index: VectorIndex | None = None
        self._index_lock = threading.Lock()

    # -- sessions ------------------------------------------------------------------------

    def open(
        self, session_id: str, *, started_at: datetime, metadata: dict[str, Any] | None = None
    ) -> tuple[Session, bool]:
        """Create the session, or return the existing one with that id (created=False)."""
        with self.db.write() as conn:
            row = conn.execute(
                "SELECT * FROM sessions WHERE persona_id = ? AND session_id = ?",
                (self.persona_id, session_id),
            ).fetchone()
            if row is not None:
                return _session(row), False
            conn.execute(
                "INSERT INTO sessions (persona_id, session_id, started_at, metadata) "
                "VALUES (?, ?, ?, ?)",
                (
                    self.persona_id,
                    session_id,
                    iso(started_at),
                    json.dumps(metadata or {}, ensure_ascii=False),
                ),
            )
        return self.get(session_id), True

    def get(self, session_id: str) -> Session:
        row = (
            self.db.conn()
            .execute(
                "SELECT * FROM sessions WHERE persona_id = ? AND session_id = ?",
                (self.persona_id, session_id),
            )
            .fetchone()
        )
        if row is None:
            raise NotFound(
                f"no session {session_id!r} for persona {self.persona!r}",
                persona=self.persona,
                session_id=session_id,
            )
        return _session(row)

    def numbered(self, base: str) -> list[Session]:
        """The session ``base`` and its successors ``base-2``, ``base-3`` … that exist, by
        number (the chat proxy's sessions of conversations that open with the same words)."""
        rows = (
            self.db.conn()
            .execute(
                "SELECT * FROM sessions WHERE persona_id = ? AND (session_id = ? OR "
                "session_id LIKE ?)",
                (self.persona_id, base, base + "-%"),
            )
            .fetchall()
        )
        found = {_number(row["session_id"], base): _session(row) for row in rows}
        return [found[n] for n in sorted(found) if n > 0]

    def holding(self, sessions: Sequence[Session], external_id: str) -> set[int]:
        """The pks of those ``sessions`` that hold a turn with ``external_id``."""
        pks = [s.pk for s in sessions]
        held: set[int] = set()
        for start in range(0, len(pks), 500):
            chunk = pks[start : start + 500]
            held.update(
                r[0]
                for r in self.db.conn()
                .execute(
                    "SELECT session_pk FROM session_events WHERE persona_id = ? AND external_id = "
                    "? "
                    f"AND session_pk IN ({','.join('?' * len(chunk))})",
                    (self.persona_id, external_id, *chunk),
                )
                .fetchall()
            )
        return held

    def end(
        self,
        session: Session,
        *,
        now: datetime,
        by: SessionEnd = SessionEnd.CLIENT,
        after: AfterWrite | None = None,
    ) -> Session:
        """End the session at ``now`` (``by``: how); an ended session stays as it ended, and
        ``after`` runs in the same transaction either way."""
        with self.db.write() as conn:
            conn.execute(
                "UPDATE sessions SET ended_at = ?, ended_by = ? WHERE id = ? AND ended_at IS NULL",
                (iso(now), str(by), session.pk),
            )
            if after is not None:
                after(SqliteUnitOfWork(conn))
        return self.get(session.session_id)

    def end_open(
        self,
        *,
        by: SessionEnd,
        idle_since: datetime | None = None,
        after: Callable[[UnitOfWork, str], None] | None = None,
    ) -> list[str]:
        """End the persona's open sessions (only those without a turn since ``idle_since``
        when it is given), ``by`` that cause; returns their ids. ``ended_at`` is the session's
        last turn (or its start), when the conversation actually stopped. A session is ended
        once: the update only touches rows still open, and ``after`` runs for those, in the
        same transaction.
        """
        sql, args = SELECT_OPEN, (self.persona_id,)
        if idle_since is not None:
            sql, args = SELECT_IDLE, (self.persona_id, iso(idle_since))
        ended: list[str] = []
        with self.db.write() as conn:
            for pk, session_id in conn.execute(sql, args).fetchall():
                changed = conn.execute(
                    "UPDATE sessions SET ended_at = MAX(started_at, COALESCE(last_event_at, "
                    "started_at)), ended_by = ? WHERE id = ? AND ended_at IS NULL",
                    (str(by), pk),
                ).rowcount
                if changed:
                    ended.append(session_id)
                    if after is not None:
                        after(SqliteUnitOfWork(conn), session_id)
        return ended

    # -- events --------------------------------------------------------------------------

    def add_events(
        self,
        session: Session,
        events: Sequence[NewEvent],
        *,
        now: datetime,
        after: AfterWrite | None = None,
        keep_first: bool = False,
    ) -> tuple[int, int]:
        """Append events; an (external_id) already in the session is skipped when it holds the
        same turn (speaker, role, content: a retry). Another turn under a used id is refused
        (:class:`Conflict`, nothing of the batch written) unless ``keep_first`` (the chat
        proxy, whose retried reply may differ) skips it too. Returns (accepted, duplicates)."""
        accepted = 0
        fresh: list[tuple[int, str]] = []
        with self.db.write() as conn:
            if not keep_first:
                self._check_reused_ids(conn, session, events)
            seq = conn.execute(
                "SELECT COALESCE(MAX(seq), 0) FROM session_events WHERE session_pk = ?",
                (session.pk,),
            ).fetchone()[0]
            for event in events:
                cur = conn.execute(
                    "INSERT OR IGNORE INTO session_events (session_pk, persona_id, seq, speaker, "
                    "role, content, timestamp, external_id, metadata, created_at) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        session.pk,
                        self.persona_id,
                        seq + 1,
                        event.speaker,
                        event.role,
                        event.content,
                        iso(event.timestamp),
                        event.external_id,
                        json.dumps(event.metadata or {}, ensure_ascii=False),
                        iso(now),
                    ),
                )
                if cur.rowcount:
                    seq += 1
                    accepted += 1
                    fresh.append(
                        (int(cur.lastrowid or 0), turn_text(event.content, event.metadata))
                    )
            # Turns are keyword-searchable as soon as they are posted, open session or not.
            EVENT_FTS.index(conn, fresh)
            if accepted:
                # The idle clock runs from when the last turn came: a turn's own time may be
                # ahead of the server's (a client's clock, a local time sent without its
                # offset) and must not keep the session from going idle.
                conn.execute(
                    "UPDATE sessions SET last_event_at = MAX(COALESCE(last_event_at, ''), "
                    "?) WHERE id = ?",
                    (iso(now), session.pk),
                )
            if accepted and after is not None:
                after(SqliteUnitOfWork(conn))
        return accepted, len(events) - accepted

    def _check_reused_ids(
        self, conn: sqlite3.Connection, session: Session, events: Sequence[NewEvent]
    ) -> None:
        """Refuse a batch giving a used external_id (in the session, or earlier in the batch)
        to a turn other than the one it names."""
        ids = list(dict.fromkeys(e.external_id for e in events if e.external_id is not None))
        known: dict[str, tuple[str, str, str]] = {}
        for start in range(0, len(ids), 500):
            chunk = ids[start : start + 500]
            rows = conn.execute(
                "SELECT external_id, speaker, role, content FROM session_events "
                f"WHERE session_pk = ? AND external_id IN ({','.join('?' * len(chunk))})",
                (session.pk, *chunk),
            ).fetchall()
            known.update({r[0]: (r[1], r[2], r[3]) for r in rows})
        stored = set(known)
        first_in_batch: dict[str, int] = {}
        for n, event in enumerate(events):
            if event.external_id is None:
                continue
            turn = (event.speaker, event.role, event.content)
            held = known.setdefault(event.external_id, turn)
            earlier = first_in_batch.setdefault(event.external_id, n)
            if held != turn:
                where = (
                    f"in session {session.session_id!r}"
                    if event.external_id in stored
                    else f"earlier in this batch (events[{earlier}])"
                )
                raise Conflict(
                    f"external_id {event.external_id!r} already names another turn {where} "
                    "(other speaker, role or content); a retry must resend the same turn, a "
                    "new turn needs a new external_id (nothing of this batch was written)",
                    field=f"events[{n}].external_id",
                )

    def events_after(self, session: Session, seq: int) -> list[Event]:
        rows = (
            self.db.conn()
            .execute(
                SELECT_EVENT + " WHERE e.session_pk = ? AND e.persona_id = ? AND e.seq > ? "
                "ORDER BY e.seq",
                (session.pk, self.persona_id, seq),
            )
            .fetchall()
        )
        return [_event(r) for r in rows]

    def events_by_ids(self, ids: Sequence[int]) -> dict[int, Event]:
        if not ids:
            return {}
        rows = persona_rows_by_id(self.db.conn(), SELECT_EVENT, "e", self.persona_id, ids)
        return {r["id"]: _event(r) for r in rows}

    def events_between(self, session_id: str, first_seq: int, last_seq: int) -> list[Event]:
        """The session's turns with ``first_seq <= seq <= last_seq``, in order."""
        rows = (
            self.db.conn()
            .execute(
                SELECT_EVENT + " WHERE e.persona_id = ? AND s.session_id = ? "
                "AND e.seq BETWEEN ? AND ? ORDER BY e.seq",
                (self.persona_id, session_id, first_seq, last_seq),
            )
            .fetchall()
        )
        return [_event(r) for r in rows]

    def events_of_episode(self, episode_id: int) -> list[Event]:
        rows = (
            self.db.conn()
            .execute(
                SELECT_EVENT + " WHERE e.persona_id = ? AND e.episode_id = ? ORDER BY e.seq",
                (self.persona_id, episode_id),
            )
            .fetchall()
        )
        return [_event(r) for r in rows]

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

    # -- episodes ------------------------------------------------------------------------

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
                f"no episode {episode_id} for persona {self.persona!r}", persona=self.persona
            )
        return _episode(row)

    def episodes_of(self, session: Session) -> list[Episode]:
        rows = (
            self.db.conn()
            .execute(
                SELECT_EPISODE + " WHERE ep.session_pk = ? ORDER BY ep.first_seq", (session.pk,)
            )
            .fetchall()
        )
        return [_episode(r) for r in rows]

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
