"""Read models for the dashboard: per-persona counts, sessions with their turns, queued jobs.

SQL only, and read-only except :meth:`OverviewStore.retry_job`. Every query that is about one
persona carries ``persona_id = ?``; :meth:`OverviewStore.persona_summaries` is the admin's view
over all personas and groups by persona in a handful of index-only scans, so the personas page
costs the same at 100k memories as at 100 (``bench/dashboard.py``).
"""

from __future__ import annotations

import sqlite3
from datetime import datetime

from omoide.clock import iso
from omoide.errors import NotFound
from omoide.model import PERIODIC_KINDS, JobRow, PersonaSummary, SearchFilters, SessionRow
from omoide.store.sqlite.db import Database
from omoide.store.sqlite.memories import build_filter_sql
from omoide.store.sqlite.rows import dt, dt_or_none, ended_by

__all__ = ["JobRow", "OverviewStore", "PersonaSummary", "SessionRow"]

# {where} is "" (every persona) or "WHERE persona_id = ?" / "AND persona_id = ?" (one).
# Index-only: memories_persona_status covers (persona_id, status).
COUNT_BY_STATUS = """
SELECT persona_id, status, COUNT(*) FROM memories {where} GROUP BY persona_id, status
"""
# Always over every persona: then the planner reads the partial index memories_closed (its
# WHERE is this one; migration "dashboard_indexes"); with a persona_id term it would read
# every row of the persona.
COUNT_CLOSED = """
SELECT persona_id, COUNT(*) FROM memories
WHERE status = 'active' AND (superseded_by IS NOT NULL OR valid_until IS NOT NULL)
GROUP BY persona_id
"""
LATEST_MEMORY = "SELECT MAX(created_at) FROM memories WHERE persona_id = ?"
LATEST_SESSION = """
SELECT MAX(COALESCE(ended_at, started_at)) FROM sessions WHERE persona_id = ?
"""
COUNT_EPISODES = "SELECT persona_id, COUNT(*) FROM episodes {where} GROUP BY persona_id"
COUNT_QUEUE = """
SELECT persona_id, COUNT(*) FROM jobs WHERE status IN ('pending', 'running')
    AND kind NOT IN ({periodic}) {and_where} GROUP BY persona_id
"""
# Keyset pagination, newest first: a seek on (persona_id, created_at, rowid), so a page deep in
# the list costs what the first one does (OFFSET would step over every row before it).
PAGE_IDS = """
SELECT m.id, m.created_at FROM memories m WHERE m.persona_id = ? {status} {before} {filters}
ORDER BY m.created_at DESC, m.id DESC LIMIT ?
"""
SELECT_SESSIONS = """
SELECT s.*, (SELECT COUNT(*) FROM session_events e WHERE e.session_pk = s.id) AS turns,
       (SELECT COUNT(*) FROM episodes ep WHERE ep.session_pk = s.id) AS episodes
FROM sessions s WHERE s.persona_id = ? ORDER BY s.started_at DESC, s.id DESC LIMIT ? OFFSET ?
"""
SELECT_JOBS = """
SELECT id, kind, status, attempts, max_attempts, last_error, created_at, run_after, finished_at
FROM jobs WHERE persona_id = ? AND status = ? ORDER BY id DESC LIMIT ?
"""
RETRY_JOB = """
UPDATE jobs SET status = 'pending', attempts = 0, run_after = ?, finished_at = NULL,
    started_at = NULL, claimed_by = NULL
WHERE id = ? AND persona_id = ? AND status = 'failed'
"""


def _job(row: sqlite3.Row) -> JobRow:
    return JobRow(
        id=row["id"],
        kind=row["kind"],
        status=row["status"],
        attempts=row["attempts"],
        max_attempts=row["max_attempts"],
        last_error=row["last_error"],
        created_at=dt(row["created_at"]),
        run_after=dt(row["run_after"]),
        finished_at=dt_or_none(row["finished_at"]),
    )


class OverviewStore:
    def __init__(self, db: Database) -> None:
        self.db = db

    def persona_summaries(self, persona_id: int | None = None) -> list[PersonaSummary]:
        """One row per persona (or only ``persona_id``), by name: memory counts, episodes,
        queue depth, last activity."""
        conn = self.db.conn()
        one = persona_id is not None
        where, and_where = ("WHERE persona_id = ?", "AND persona_id = ?") if one else ("", "")
        params: tuple[int, ...] = (persona_id,) if persona_id is not None else ()
        personas = conn.execute(
            "SELECT id, name, created_at FROM personas "
            f"{'WHERE id = ?' if one else ''} ORDER BY name",
            params,
        ).fetchall()
        status: dict[tuple[int, str], int] = {
            (r[0], r[1]): r[2] for r in conn.execute(COUNT_BY_STATUS.format(where=where), params)
        }
        closed = dict(conn.execute(COUNT_CLOSED).fetchall())
        episodes = dict(conn.execute(COUNT_EPISODES.format(where=where), params).fetchall())
        marks = ",".join("?" * len(PERIODIC_KINDS))
        queue = dict(
            conn.execute(
                COUNT_QUEUE.format(periodic=marks, and_where=and_where), (*PERIODIC_KINDS, *params)
            ).fetchall()
        )
        return [
            PersonaSummary(
                name=p["name"],
                created_at=dt(p["created_at"]),
                active=status.get((p["id"], "active"), 0),
                closed=closed.get(p["id"], 0),
                tombstoned=status.get((p["id"], "tombstoned"), 0),
                episodes=episodes.get(p["id"], 0),
                queue=queue.get(p["id"], 0),
                last_activity=self._last_activity(conn, p["id"]),
            )
            for p in personas
        ]

    def memory_ids(
        self,
        persona_id: int,
        *,
        before: tuple[str, int] | None,
        limit: int,
        include_tombstoned: bool,
        filters: SearchFilters | None = None,
    ) -> list[tuple[int, str]]:
        """(id, created_at) of a page of memories, newest first, strictly before ``before``
        (a (created_at, id) pair from the previous page); with ``filters``, only the memories
        they let through (a search's filters, in the query: a rare one no longer reads every
        id of the persona)."""
        params: list[object] = [persona_id]
        cursor = ""
        if before is not None:
            cursor = "AND (m.created_at, m.id) < (?, ?)"
            params += [before[0], before[1]]
        fragment = ""
        if filters is not None and not filters.empty:
            where, filter_params = build_filter_sql(filters, persona_id)
            fragment, params = f"AND {where}", [*params, *filter_params]
        sql = PAGE_IDS.format(
            status="" if include_tombstoned else "AND m.status = 'active'",
            before=cursor,
            filters=fragment,
        )
        return [(r[0], r[1]) for r in self.db.conn().execute(sql, (*params, limit))]

    def _last_activity(self, conn: sqlite3.Connection, persona_id: int) -> datetime | None:
        stamps = [
            conn.execute(sql, (persona_id,)).fetchone()[0]
            for sql in (LATEST_MEMORY, LATEST_SESSION)
        ]
        found = [dt(s) for s in stamps if s]
        return max(found) if found else None

    def sessions(self, persona_id: int, *, limit: int, offset: int) -> list[SessionRow]:
        """Sessions, newest first, with how each ended and their turn and episode counts."""
        rows = self.db.conn().execute(SELECT_SESSIONS, (persona_id, limit, offset)).fetchall()
        return [
            SessionRow(
                session_id=r["session_id"],
                started_at=dt(r["started_at"]),
                ended_at=dt_or_none(r["ended_at"]),
                turns=r["turns"],
                episodes=r["episodes"],
                ended_by=ended_by(r["ended_by"]),
            )
            for r in rows
        ]

    def jobs(self, persona_id: int, status: str, *, limit: int) -> list[JobRow]:
        """The persona's jobs in one status, newest first."""
        rows = self.db.conn().execute(SELECT_JOBS, (persona_id, status, limit)).fetchall()
        return [_job(r) for r in rows]

    def retry_job(self, persona_id: int, job_id: int, *, now: datetime) -> None:
        """Put one failed job of this persona back in the queue with fresh attempts."""
        with self.db.write() as conn:
            if conn.execute(RETRY_JOB, (iso(now), job_id, persona_id)).rowcount == 0:
                raise NotFound(f"no failed job {job_id} for this persona", job_id=job_id)
