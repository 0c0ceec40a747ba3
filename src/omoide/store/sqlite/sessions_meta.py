"""Session rows for ``session_begin`` and "time since the last session" (SQL only).

Only what the context needs: open a session row and read when earlier sessions happened. The
Episode tier (events, episodes, ending a session) lives in its own module on the same
``sessions`` table.
"""

from __future__ import annotations

import sqlite3
from datetime import datetime

from omoide.clock import iso
from omoide.model import OpenedSession, SessionMark, new_session_id
from omoide.store.sqlite.db import Database
from omoide.store.sqlite.rows import dt, dt_or_none

__all__ = ["OpenedSession", "SessionMark", "SessionMetaStore", "new_session_id"]

SELECT_LATEST = """
SELECT session_id, started_at, ended_at FROM sessions WHERE persona_id = ?
ORDER BY started_at DESC, id DESC LIMIT ?
"""
INSERT_SESSION = """
INSERT INTO sessions (persona_id, session_id, started_at, metadata) VALUES (?, ?, ?, '{}')
"""


def _mark(row: sqlite3.Row) -> SessionMark:
    return SessionMark(session_id=row["session_id"], started_at=dt(row["started_at"]),
                       ended_at=dt_or_none(row["ended_at"]))


class SessionMetaStore:
    """Session starts and ends of one persona (every query carries ``persona_id = ?``)."""

    def __init__(self, db: Database, persona_id: int) -> None:
        self.db = db
        self.persona_id = persona_id

    def latest(self, limit: int = 1) -> list[SessionMark]:
        """The most recently started sessions, newest first."""
        rows = self.db.conn().execute(SELECT_LATEST, (self.persona_id, limit)).fetchall()
        return [_mark(row) for row in rows]

    def begin(self, *, now: datetime) -> OpenedSession:
        """Open a new session at ``now``; the previous one is read in the same transaction."""
        session_id = new_session_id()
        with self.db.write() as conn:
            row = conn.execute(SELECT_LATEST, (self.persona_id, 1)).fetchone()
            conn.execute(INSERT_SESSION, (self.persona_id, session_id, iso(now)))
        return OpenedSession(session=SessionMark(session_id, now, None),
                             previous=None if row is None else _mark(row))
