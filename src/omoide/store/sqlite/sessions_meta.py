"""Session rows for ``session_begin`` and "time since the last session" (SQL only).

What the context needs (open a session row, read when earlier sessions happened) and the
list of a persona's conversations with their counts. The Episode tier (events, episodes,
ending a session) lives in its own module on the same ``sessions`` table.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from datetime import datetime

from omoide.clock import iso
from omoide.model import OpenedSession, SessionMark, SessionSummary, new_session_id
from omoide.store.sqlite.db import Database
from omoide.store.sqlite.rows import dt, dt_or_none, ended_by

__all__ = ["OpenedSession", "SessionMark", "SessionMetaStore", "SessionSummary", "new_session_id"]

SELECT_LATEST = """
SELECT session_id, started_at, ended_at FROM sessions WHERE persona_id = ?
ORDER BY started_at DESC, id DESC LIMIT ?
"""
# A page of sessions newest first (the order of SELECT_LATEST), each with its turns' count and
# time span (a seek on session_events' UNIQUE (session_pk, seq)) and its episodes' count
# (episodes_session). Turn times are ISO-8601 UTC text, so MIN and MAX order them as times.
SELECT_PAGE = """
SELECT s.session_id, s.started_at, s.ended_at, s.ended_by,
       (SELECT COUNT(*) FROM session_events e WHERE e.session_pk = s.id) AS events,
       (SELECT MIN(e.timestamp) FROM session_events e WHERE e.session_pk = s.id) AS first_at,
       (SELECT MAX(e.timestamp) FROM session_events e WHERE e.session_pk = s.id) AS last_at,
       (SELECT COUNT(*) FROM episodes ep WHERE ep.session_pk = s.id) AS episodes
FROM sessions s WHERE s.persona_id = ?
ORDER BY s.started_at DESC, s.id DESC LIMIT ? OFFSET ?
"""
INSERT_SESSION = """
INSERT INTO sessions (persona_id, session_id, started_at, metadata) VALUES (?, ?, ?, '{}')
"""


def _mark(row: sqlite3.Row) -> SessionMark:
    return SessionMark(
        session_id=row["session_id"],
        started_at=dt(row["started_at"]),
        ended_at=dt_or_none(row["ended_at"]),
    )


class SessionMetaStore:
    """Session starts and ends of one persona (every query carries ``persona_id = ?``)."""

    def __init__(self, db: Database, persona_id: int) -> None:
        self.db = db
        self.persona_id = persona_id

    def latest(self, limit: int = 1) -> list[SessionMark]:
        """The most recently started sessions, newest first."""
        rows = self.db.conn().execute(SELECT_LATEST, (self.persona_id, limit)).fetchall()
        return [_mark(row) for row in rows]

    def page(self, *, limit: int, offset: int = 0) -> list[SessionSummary]:
        """Sessions newest first (by start), ``limit`` of them after skipping ``offset``, each
        with how it ended, its turn and episode counts and the times of its first and last
        turn."""
        rows = self.db.conn().execute(SELECT_PAGE, (self.persona_id, limit, offset)).fetchall()
        return [
            SessionSummary(
                session_id=r["session_id"],
                started_at=dt(r["started_at"]),
                ended_at=dt_or_none(r["ended_at"]),
                first_event_at=dt_or_none(r["first_at"]),
                last_event_at=dt_or_none(r["last_at"]),
                events=int(r["events"]),
                episodes=int(r["episodes"]),
                ended_by=ended_by(r["ended_by"]),
            )
            for r in rows
        ]

    def begin(self, *, now: datetime, first: Callable[[], object] | None = None) -> OpenedSession:
        """Open a new session at ``now``; the previous one is read in the same transaction, and
        ``first`` (ending the persona's open sessions) runs in it before the new row: two
        ``session_begin`` at once each ended the open sessions, then each opened one, and left
        two open. The persona's writes are serialised (SQLite's one writer, PostgreSQL's
        advisory lock), so the later one now ends the earlier one's."""
        session_id = new_session_id()
        with self.db.write() as conn:
            if first is not None:
                first()
            row = conn.execute(SELECT_LATEST, (self.persona_id, 1)).fetchone()
            conn.execute(INSERT_SESSION, (self.persona_id, session_id, iso(now)))
        return OpenedSession(
            session=SessionMark(session_id, now, None), previous=None if row is None else _mark(row)
        )
