"""The durable job queue's storage (table ``jobs``), with leases.

Work is enqueued with ``unit_of_work.enqueue`` on the connection of the write transaction that
causes it (through ``SqliteUnitOfWork``), so the job exists if and only if that write committed.

A claim is a lease: claiming flips one row to ``running`` inside a write transaction (single
writer per file, so no two workers can claim the same job), names the claiming worker and sets
``lease_until`` = wall time + ``lease_s``. The worker renews it with :meth:`JobStore.heartbeat`
while the handler runs. Any process's next claim takes back a ``running`` job whose lease has
expired (its process died or hung), so no job waits for a restart. ``complete`` and ``fail``
are conditional on the worker still holding the lease. Handlers are written to be idempotent
(evolution and consolidation check a marker inside their own write), so a job run twice has
the effect of one run.

Lease times are wall-clock (the process's liveness), while ``run_after`` follows the
application clock (which tests move).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from datetime import UTC, datetime, timedelta
from typing import Any

from omoide.clock import iso
from omoide.model import PERIODIC_KINDS, Job, JobCounts
from omoide.store.sqlite.db import Database
from omoide.store.sqlite.rows import dt
from omoide.store.sqlite.unit_of_work import enqueue

__all__ = [
    "DEFAULT_LEASE_S",
    "PERIODIC_KINDS",
    "Job",
    "JobCounts",
    "JobStore",
]

DEFAULT_LEASE_S = 60.0

_OPEN = ("pending", "running")
# The worker ids this process has claimed jobs for (see :meth:`JobStore.recover`).
_CLAIMED_HERE: set[str] = set()
_SELECT_JOB = (
    "SELECT j.*, p.name AS persona FROM jobs j LEFT JOIN personas p ON p.id = j.persona_id"
)


def _wall_now() -> datetime:
    return datetime.now(UTC)


class JobStore:
    def __init__(
        self,
        db: Database,
        *,
        lease_s: float = DEFAULT_LEASE_S,
        wall: Callable[[], datetime] = _wall_now,
        in_order: Sequence[str] = (),
    ) -> None:
        """``in_order``: job kinds run one at a time per persona, oldest first — a job of such
        a kind is not claimed while an older one of the same kind and persona is pending or
        running (it waits, however many workers are free; a failed one no longer holds it)."""
        self.db = db
        self.lease_s = lease_s
        self._wall = wall
        self.in_order = tuple(in_order)

    def enqueue(
        self,
        *,
        kind: str,
        persona_id: int | None,
        payload: dict[str, Any],
        now: datetime,
        delay_s: float = 0.0,
        max_attempts: int = 5,
    ) -> int:
        with self.db.write() as conn:
            return enqueue(
                conn,
                kind=kind,
                persona_id=persona_id,
                payload=payload,
                now=now,
                delay_s=delay_s,
                max_attempts=max_attempts,
            )

    def enqueue_unique(
        self,
        *,
        kind: str,
        persona_id: int | None,
        payload: dict[str, Any],
        now: datetime,
        delay_s: float = 0.0,
        include_running: bool = True,
    ) -> int | None:
        """The check and the insert share :meth:`_unique_write`'s transaction."""
        with self._unique_write(persona_id) as conn:
            if _is_open(conn, kind, persona_id, include_running=include_running):
                return None
            return enqueue(
                conn, kind=kind, persona_id=persona_id, payload=payload, now=now, delay_s=delay_s
            )

    def _unique_write(self, persona_id: int | None) -> AbstractContextManager[Any]:
        """The write transaction of :meth:`enqueue_unique` (SQLite's single writer already
        keeps two processes from both queuing; an adapter whose writers run concurrently takes
        the persona's lock here)."""
        return self.db.write()

    def recover(self) -> int:
        """At start-up, take back at once the running jobs no live worker can hold: those whose
        lease has expired (or that predate leases), and those claimed by this very process
        (an earlier runner here, which is being replaced).

        Every other running job is left to its lease, on whatever host its worker runs: a
        worker that is alive renews it, and one that is gone stops renewing it, so any live
        process's next claim takes the job back once it expires (within ``lease_s``). No pid
        is checked: a pid names a process on one host only. Each reset is conditional on the
        row being unchanged, so a job another process claims meanwhile is left to it.
        """
        wall = iso(self._wall())
        with self.db.write() as conn:
            rows = conn.execute(
                "SELECT id, worker, lease_until FROM jobs WHERE status = 'running'"
            ).fetchall()
            orphans = [
                (r[0], r[1], r[2])
                for r in rows
                if r[2] is None or r[2] < wall or r[1] in _CLAIMED_HERE
            ]
            reset = 0
            for job_id, worker, lease_until in orphans:
                reset += conn.execute(
                    "UPDATE jobs SET status = 'pending', started_at = NULL, claimed_by = NULL, "
                    "worker = NULL, lease_until = NULL WHERE id = ? AND status = 'running' "
                    "AND worker IS ? AND lease_until IS ?",
                    (job_id, worker, lease_until),
                ).rowcount
        return reset

    @staticmethod
    def _probe(where: str, order: str) -> str:
        """The first job matching ``where`` in ``order``: the statement a claim runs (an adapter
        whose writers run concurrently adds its row lock here)."""
        return f"{_SELECT_JOB} WHERE {where} ORDER BY {order} LIMIT 1"

    def _after_older(self) -> str:
        """The claim's condition that keeps the ``in_order`` kinds in order per persona."""
        if not self.in_order:
            return ""
        kinds = ", ".join("'" + kind.replace("'", "''") + "'" for kind in self.in_order)
        return (
            f" AND NOT (j.kind IN ({kinds}) AND EXISTS (SELECT 1 FROM jobs k "
            "WHERE k.persona_id = j.persona_id AND k.status IN ('pending', 'running') "
            "AND k.kind = j.kind AND k.id < j.id))"
        )

    def claim(
        self,
        *,
        now: datetime,
        persona_id: int | None = None,
        worker: str | None = None,
        lease_s: float | None = None,
    ) -> Job | None:
        """The next ready job (only ``persona_id``'s when given), leased to ``worker``.

        Ready: pending with ``run_after`` reached, or running with an expired lease (taken back
        from a worker that stopped renewing it). An expired job that has used all its attempts
        is marked failed instead: a job that kills its process every time must not be retried
        for ever.
        """
        worker = worker or f"pid-{os.getpid()}"
        _CLAIMED_HERE.add(worker)
        wall = self._wall()
        where, extra = "", []
        if persona_id is not None:
            where, extra = " AND j.persona_id = ?", [persona_id]
        # Two indexed probes rather than one OR: each reads its first row off an index
        # (jobs_leases, jobs_ready) with no sort, however long the backlog.
        expired = self._probe(f"j.status = 'running' AND j.lease_until < ?{where}", "j.lease_until")
        ready = self._probe(
            f"j.status = 'pending' AND j.run_after <= ?{where}{self._after_older()}",
            "j.run_after, j.id",
        )
        with self.db.write() as conn:
            row = conn.execute(expired, [iso(wall), *extra]).fetchone()
            while row is not None and row["attempts"] >= row["max_attempts"]:
                conn.execute(
                    "UPDATE jobs SET status = 'failed', finished_at = ?, worker = NULL, "
                    "lease_until = NULL, last_error = ? WHERE id = ?",
                    (
                        iso(now),
                        f"worker lost: its lease expired on attempt "
                        f"{row['attempts']} of {row['max_attempts']}",
                        row["id"],
                    ),
                )
                row = conn.execute(expired, [iso(wall), *extra]).fetchone()
            if row is None:
                row = conn.execute(ready, [iso(now), *extra]).fetchone()
            if row is None:
                return None
            until = wall + timedelta(seconds=self.lease_s if lease_s is None else lease_s)
            conn.execute(
                "UPDATE jobs SET status = 'running', started_at = ?, claimed_by = ?, "
                "worker = ?, lease_until = ?, attempts = attempts + 1 WHERE id = ?",
                (iso(now), os.getpid(), worker, iso(until), row["id"]),
            )
        return Job(
            id=row["id"],
            persona_id=row["persona_id"],
            persona=row["persona"],
            kind=row["kind"],
            payload=json.loads(row["payload"]),
            attempts=row["attempts"] + 1,
            max_attempts=row["max_attempts"],
            created_at=dt(row["created_at"]),
            worker=worker,
        )

    def heartbeat(self, job: Job, *, lease_s: float | None = None) -> bool:
        """Renew the lease of a job this worker holds; False when it was lost (expired and taken
        back, or the job is no longer running)."""
        until = self._wall() + timedelta(seconds=self.lease_s if lease_s is None else lease_s)
        with self.db.write() as conn:
            cur = conn.execute(
                "UPDATE jobs SET lease_until = ? WHERE id = ? AND worker IS ? "
                "AND status = 'running'",
                (iso(until), job.id, job.worker),
            )
        return cur.rowcount == 1

    def release(self, job: Job) -> bool:
        """Put back a job its worker holds but will not finish (its process is stopping and
        did not wait for it: ``JobRunner.stop``): pending again at once, the attempt it was on
        not counted (a stop is no failure), for the next claim here or in any process. False
        when the worker no longer holds it (it ended, or its lease was taken back)."""
        with self.db.write() as conn:
            cur = conn.execute(
                "UPDATE jobs SET status = 'pending', started_at = NULL, claimed_by = NULL, "
                "worker = NULL, lease_until = NULL, attempts = attempts - 1 "
                "WHERE id = ? AND worker = ? AND status = 'running'",
                (job.id, job.worker),
            )
        return cur.rowcount == 1

    def complete(self, job_id: int, *, now: datetime, worker: str | None = None) -> bool:
        """Mark done; with ``worker``, only while that worker holds the job."""
        sql, params = "", ()
        if worker is not None:
            sql, params = " AND worker = ? AND status = 'running'", (worker,)
        with self.db.write() as conn:
            cur = conn.execute(
                "UPDATE jobs SET status = 'done', finished_at = ?, "
                f"last_error = NULL, lease_until = NULL WHERE id = ?{sql}",
                (iso(now), job_id, *params),
            )
        return cur.rowcount == 1

    def fail(self, job: Job, error: str, *, now: datetime, backoff_s: float) -> str:
        """Record a failure: retry later with backoff, or mark failed after the last attempt.
        A worker that lost the job's lease records nothing ("lost")."""
        final = job.attempts >= job.max_attempts
        status = "failed" if final else "pending"
        with self.db.write() as conn:
            cur = conn.execute(
                "UPDATE jobs SET status = ?, last_error = ?, run_after = ?, finished_at = ?, "
                "worker = NULL, lease_until = NULL WHERE id = ? AND status = 'running' "
                "AND (CAST(? AS TEXT) IS NULL OR worker = ?)",
                (
                    status,
                    error[:2000],
                    iso(now + timedelta(seconds=backoff_s)),
                    iso(now) if final else None,
                    job.id,
                    job.worker,
                    job.worker,
                ),
            )
        return status if cur.rowcount == 1 else "lost"

    def gone(self, job_id: int) -> bool:
        """Read as the row's absence: erasure deletes the queued and running jobs of what it
        erases."""
        return (
            self.db.conn().execute("SELECT 1 FROM jobs WHERE id = ?", (job_id,)).fetchone() is None
        )

    def claim_periodic(self, name: str, *, every_s: float, worker: str) -> bool:
        """Wall time: the claim row's ``next_due`` is moved on conditionally."""
        wall = self._wall()
        with self.db.write() as conn:
            cur = conn.execute(
                "INSERT INTO periodic_claims (name, next_due, worker) VALUES (?, ?, ?) "
                "ON CONFLICT (name) DO UPDATE SET next_due = excluded.next_due, "
                "worker = excluded.worker WHERE periodic_claims.next_due <= ?",
                (name, iso(wall + timedelta(seconds=every_s)), worker, iso(wall)),
            )
        return cur.rowcount == 1

    def counts(self, persona_id: int | None = None) -> JobCounts:
        marks = ",".join("?" * len(PERIODIC_KINDS))
        sql = (
            f"SELECT CASE WHEN status = 'pending' AND kind IN ({marks}) THEN 'scheduled' "
            "ELSE status END AS state, COUNT(*) FROM jobs"
        )
        params: tuple[Any, ...] = PERIODIC_KINDS
        if persona_id is not None:
            sql += " WHERE persona_id = ?"
            params = (*params, persona_id)
        found = dict(self.db.conn().execute(sql + " GROUP BY state", params).fetchall())
        return JobCounts(
            pending=found.get("pending", 0),
            running=found.get("running", 0),
            failed=found.get("failed", 0),
            done=found.get("done", 0),
            scheduled=found.get("scheduled", 0),
        )

    def failures(self, persona_id: int, *, limit: int = 20) -> list[dict[str, Any]]:
        rows = (
            self.db.conn()
            .execute(
                "SELECT id, kind, attempts, last_error, finished_at FROM jobs WHERE persona_id = ? "
                "AND status = 'failed' ORDER BY id DESC LIMIT ?",
                (persona_id, limit),
            )
            .fetchall()
        )
        return [dict(r) for r in rows]

    def has_open(self, kind: str, persona_id: int | None, *, include_running: bool = True) -> bool:
        """Whether a job of ``kind`` for this persona is pending (or running)."""
        return _is_open(self.db.conn(), kind, persona_id, include_running=include_running)

    def total_depth(self) -> int:
        """Jobs waiting or running now (scheduled maintenance excluded)."""
        counts = self.counts()
        return counts.pending + counts.running


def _is_open(conn: Any, kind: str, persona_id: int | None, *, include_running: bool) -> bool:
    """Whether a job of ``kind`` for this persona is pending (or running), read on ``conn``."""
    statuses = _OPEN if include_running else ("pending", "pending")
    return (
        conn.execute(
            "SELECT 1 FROM jobs WHERE kind = ? AND persona_id IS ? AND status IN (?, ?) LIMIT 1",
            (kind, persona_id, *statuses),
        ).fetchone()
        is not None
    )
