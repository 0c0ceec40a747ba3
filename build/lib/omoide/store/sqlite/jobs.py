"""The durable job queue's storage (table ``jobs``).

Work is enqueued with :func:`enqueue` on the connection of the write transaction that causes it,
so the job exists if and only if that write committed. Claiming flips one row from ``pending``
to ``running`` inside a write transaction (single writer per file, so no two workers can claim
the same job). On start-up, jobs left ``running`` by a crash go back to ``pending``; handlers are
written to be idempotent, so a re-run after a crash has the effect of exactly one run.
"""

from __future__ import annotations

import json
import os
import sqlite3
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from omoide.clock import iso
from omoide.store.sqlite.db import Database
from omoide.store.sqlite.rows import dt

__all__ = ["PERIODIC_KINDS", "Job", "JobCounts", "JobStore", "enqueue"]

# Maintenance that is always queued for later (the next decay run). It is reported as
# ``scheduled``, not ``pending``, so "pending + running == 0" means "the work I caused is done".
PERIODIC_KINDS = ("decay",)


@dataclass(frozen=True)
class Job:
    id: int
    persona_id: int | None
    persona: str | None
    kind: str
    payload: dict[str, Any]
    attempts: int
    max_attempts: int
    created_at: datetime


@dataclass(frozen=True)
class JobCounts:
    pending: int
    running: int
    failed: int
    done: int
    scheduled: int


def enqueue(conn: sqlite3.Connection, *, kind: str, persona_id: int | None,
            payload: dict[str, Any], now: datetime, delay_s: float = 0.0,
            max_attempts: int = 5) -> int:
    """Insert a pending job on ``conn`` (inside the caller's transaction)."""
    cur = conn.execute(
        "INSERT INTO jobs (persona_id, kind, payload, status, max_attempts, run_after, created_at) "
        "VALUES (?, ?, ?, 'pending', ?, ?, ?)",
        (persona_id, kind, json.dumps(payload, ensure_ascii=False), max_attempts,
         iso(now + timedelta(seconds=delay_s)), iso(now)))
    return int(cur.lastrowid or 0)


class JobStore:
    def __init__(self, db: Database) -> None:
        self.db = db

    def enqueue(self, *, kind: str, persona_id: int | None, payload: dict[str, Any],
                now: datetime, delay_s: float = 0.0, max_attempts: int = 5) -> int:
        with self.db.write() as conn:
            return enqueue(conn, kind=kind, persona_id=persona_id, payload=payload, now=now,
                           delay_s=delay_s, max_attempts=max_attempts)

    def recover(self) -> int:
        """Jobs left running by a process that is gone become pending again.

        A job records the pid that claimed it; jobs of another live process on the same data
        folder (``omoide serve`` next to ``omoide mcp``) are left alone. A job claimed by this
        very process belonged to an earlier runner here, which is being replaced.
        """
        with self.db.write() as conn:
            rows = conn.execute("SELECT id, claimed_by FROM jobs WHERE status = 'running'")
            orphans = [r[0] for r in rows.fetchall() if not _alive(r[1])]
            conn.executemany("UPDATE jobs SET status = 'pending', started_at = NULL, "
                             "claimed_by = NULL WHERE id = ?", [(i,) for i in orphans])
        return len(orphans)

    def claim(self, *, now: datetime, persona_id: int | None = None) -> Job | None:
        """The next ready job (only ``persona_id``'s when given), marked running."""
        where, params = "", [iso(now)]
        if persona_id is not None:
            where, params = " AND j.persona_id = ?", [*params, persona_id]
        with self.db.write() as conn:
            row = conn.execute(
                "SELECT j.*, p.name AS persona FROM jobs j LEFT JOIN personas p "
                "ON p.id = j.persona_id WHERE j.status = 'pending' AND j.run_after <= ?"
                f"{where} ORDER BY j.run_after, j.id LIMIT 1", params).fetchone()
            if row is None:
                return None
            conn.execute("UPDATE jobs SET status = 'running', started_at = ?, claimed_by = ?, "
                         "attempts = attempts + 1 WHERE id = ?", (iso(now), os.getpid(),
                                                                  row["id"]))
        return Job(id=row["id"], persona_id=row["persona_id"], persona=row["persona"],
                   kind=row["kind"], payload=json.loads(row["payload"]),
                   attempts=row["attempts"] + 1, max_attempts=row["max_attempts"],
                   created_at=dt(row["created_at"]))

    def complete(self, job_id: int, *, now: datetime) -> None:
        with self.db.write() as conn:
            conn.execute("UPDATE jobs SET status = 'done', finished_at = ?, last_error = NULL "
                         "WHERE id = ?", (iso(now), job_id))

    def fail(self, job: Job, error: str, *, now: datetime, backoff_s: float) -> str:
        """Record a failure: retry later with backoff, or mark failed after the last attempt."""
        final = job.attempts >= job.max_attempts
        status = "failed" if final else "pending"
        with self.db.write() as conn:
            conn.execute(
                "UPDATE jobs SET status = ?, last_error = ?, run_after = ?, finished_at = ? "
                "WHERE id = ?",
                (status, error[:2000], iso(now + timedelta(seconds=backoff_s)),
                 iso(now) if final else None, job.id))
        return status

    def counts(self, persona_id: int | None = None) -> JobCounts:
        marks = ",".join("?" * len(PERIODIC_KINDS))
        sql = (f"SELECT CASE WHEN status = 'pending' AND kind IN ({marks}) THEN 'scheduled' "
               "ELSE status END AS state, COUNT(*) FROM jobs")
        params: tuple[Any, ...] = PERIODIC_KINDS
        if persona_id is not None:
            sql += " WHERE persona_id = ?"
            params = (*params, persona_id)
        found = dict(self.db.conn().execute(sql + " GROUP BY state", params).fetchall())
        return JobCounts(pending=found.get("pending", 0), running=found.get("running", 0),
                         failed=found.get("failed", 0), done=found.get("done", 0),
                         scheduled=found.get("scheduled", 0))

    def failures(self, persona_id: int, *, limit: int = 20) -> list[dict[str, Any]]:
        rows = self.db.conn().execute(
            "SELECT id, kind, attempts, last_error, finished_at FROM jobs WHERE persona_id = ? "
            "AND status = 'failed' ORDER BY id DESC LIMIT ?", (persona_id, limit)).fetchall()
        return [dict(r) for r in rows]

    def has_open(self, kind: str, persona_id: int | None, *, include_running: bool = True
                 ) -> bool:
        """Whether a job of ``kind`` for this persona is pending (or running)."""
        statuses = ("pending", "running") if include_running else ("pending", "pending")
        return self.db.conn().execute(
            "SELECT 1 FROM jobs WHERE kind = ? AND persona_id IS ? AND status IN (?, ?) LIMIT 1",
            (kind, persona_id, *statuses)).fetchone() is not None

    def total_depth(self) -> int:
        """Jobs waiting or running now (scheduled maintenance excluded)."""
        counts = self.counts()
        return counts.pending + counts.running


def _alive(pid: int | None) -> bool:
    """Whether another process with this pid is running (this process counts as gone)."""
    if pid is None or pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # exists, owned by someone else
        return True
    return True
