"""The Episode tier's rows as the model's values: the statements that read a session's events
and episodes, and a row of each as a :class:`~omoide.model.Session`, ``Event`` or ``Episode``."""

from __future__ import annotations

import json
import sqlite3

from omoide.model import Episode, Event, Session
from omoide.store.sqlite.rows import dt, dt_or_none, ended_by

__all__ = [
    "SELECT_EPISODE",
    "SELECT_EVENT",
    "SELECT_IDLE",
    "SELECT_OPEN",
    "episode_from_row",
    "event_from_row",
    "session_from_row",
    "session_number",
]


SELECT_EVENT = """
SELECT e.*, s.session_id AS sid FROM session_events e JOIN sessions s ON s.id = e.session_pk
"""
SELECT_EPISODE = """
SELECT ep.*, s.session_id AS sid FROM episodes ep JOIN sessions s ON s.id = ep.session_pk
"""

SELECT_OPEN = "SELECT id, session_id FROM sessions WHERE persona_id = ? AND ended_at IS NULL"
# Served by the partial index sessions_open_idle (its expression, verbatim).
SELECT_IDLE = SELECT_OPEN + " AND COALESCE(last_event_at, started_at) <= ?"


def session_from_row(row: sqlite3.Row) -> Session:
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


def event_from_row(row: sqlite3.Row) -> Event:
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


def episode_from_row(row: sqlite3.Row) -> Episode:
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


def session_number(session_id: str, base: str) -> int:
    """1 for ``base``, n for ``base-n`` (n ≥ 2), else 0 (another session's id)."""
    if session_id == base:
        return 1
    tail = session_id[len(base) + 1 :] if session_id.startswith(base + "-") else ""
    return (
        int(tail)
        if tail.isascii() and tail.isdigit() and int(tail) >= 2 and str(int(tail)) == tail
        else 0
    )
