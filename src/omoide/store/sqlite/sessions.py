"""The Episode tier's storage for one persona: sessions and their events (with ``episodes.py``
and ``event_vectors.py``, mixed into :class:`SessionStore`).

Every query carries ``persona_id = ?``. Events are idempotent per (session, external_id).
Episodes are written with their events' episode ids, FTS rows and vectors in one transaction,
guarded by the session's ``segmented_upto_seq`` so two segmenters can never both cut the same
turns (the loser's transaction is refused and its job retried).
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from omoide.clock import iso
from omoide.engine.attachments import turn_text
from omoide.engine.errors import named
from omoide.errors import Conflict, NotFound
from omoide.model import Event, NewEvent, Session, SessionEnd
from omoide.store.port import UnitOfWork
from omoide.store.sqlite.by_id import persona_rows_by_id
from omoide.store.sqlite.db import Database
from omoide.store.sqlite.episodes import EpisodeStore
from omoide.store.sqlite.event_vectors import EventVectors
from omoide.store.sqlite.indexes import EVENT_FTS
from omoide.store.sqlite.session_rows import (
    SELECT_EVENT,
    SELECT_IDLE,
    SELECT_OPEN,
    event_from_row,
    session_from_row,
    session_number,
)
from omoide.store.sqlite.unit_of_work import SqliteUnitOfWork
from omoide.store.vectors import VectorIndex

__all__ = ["SessionStore"]

AfterWrite = Callable[[UnitOfWork], None]


class SessionStore(EpisodeStore, EventVectors):
    """Sessions and their events of one persona; episodes in ``episodes.py``, the turns'
    vectors and index in ``event_vectors.py``."""

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
                return session_from_row(row), False
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
                f"no session {named(session_id)} for persona {named(self.persona)}",
                persona=self.persona,
                session_id=session_id,
            )
        return session_from_row(row)

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
        found = {session_number(row["session_id"], base): session_from_row(row) for row in rows}
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
        """End the session at ``now`` (``by``: how), or at its start when that is later (a
        session opened with a ``started_at`` ahead of the clock, which the API takes up to a
        day ahead, ended before it began); an ended session stays as it ended. ``after`` runs
        in the same transaction when this call ended it, not for a session already ended (its
        end queued its work then; a turn recorded since queues its own): the caller learns
        which from whether it ran."""
        with self.db.write() as conn:
            ended = conn.execute(
                "UPDATE sessions SET ended_at = MAX(started_at, ?), ended_by = ? "
                "WHERE id = ? AND ended_at IS NULL",
                (iso(now), str(by), session.pk),
            ).rowcount
            if after is not None and ended:
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
                    f"in session {named(session.session_id)}"
                    if event.external_id in stored
                    else f"earlier in this batch (events[{earlier}])"
                )
                raise Conflict(
                    f"external_id {named(event.external_id)} already names another turn {where} "
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
        return [event_from_row(r) for r in rows]

    def events_by_ids(self, ids: Sequence[int]) -> dict[int, Event]:
        if not ids:
            return {}
        rows = persona_rows_by_id(self.db.conn(), SELECT_EVENT, "e", self.persona_id, ids)
        return {r["id"]: event_from_row(r) for r in rows}

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
        return [event_from_row(r) for r in rows]

    def events_of_episode(self, episode_id: int) -> list[Event]:
        rows = (
            self.db.conn()
            .execute(
                SELECT_EVENT + " WHERE e.persona_id = ? AND e.episode_id = ? ORDER BY e.seq",
                (self.persona_id, episode_id),
            )
            .fetchall()
        )
        return [event_from_row(r) for r in rows]
