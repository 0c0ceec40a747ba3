"""The durable job queue in PostgreSQL: claims are leases, so any number of processes share it.

A claim takes the next ready job with ``FOR UPDATE SKIP LOCKED`` (two workers never take the
same row and never wait on each other) and holds it as a lease: ``lease_until`` is set from the
database's clock, so servers on machines whose clocks differ agree on when it ends. While a
job runs, a heartbeat thread of the claiming process renews its leases; a job whose process
died stops being renewed and, once its lease has run out, is claimed again by any live process
(the handlers are idempotent, so the re-run has the effect of one run). A periodic job (decay)
is pending at most once per persona (a unique partial index), so servers that tick together
queue one run per interval.
"""

from __future__ import annotations

import json
import logging
import os
import secrets
import socket
import threading
from datetime import datetime, timedelta
from typing import Any

from omoide.clock import iso
from omoide.store.postgres.db import PgDatabase
from omoide.store.sqlite.jobs import PERIODIC_KINDS, Job, JobStore
from omoide.store.sqlite.rows import dt

__all__ = ["DEFAULT_LEASE_S", "PgJobStore"]

logger = logging.getLogger(__name__)

DEFAULT_LEASE_S = 30.0

# The database's "now" in the stored timestamp form (fixed-width ISO-8601 UTC).
_DB_NOW = ("to_char(clock_timestamp() AT TIME ZONE 'UTC' {shift}, "
           "'YYYY-MM-DD\"T\"HH24:MI:SS.US\"+00:00\"')")
_NOW = _DB_NOW.format(shift="")
_LEASE_END = _DB_NOW.format(shift="+ make_interval(secs => ?)")

_CLAIM = f"""
UPDATE jobs SET status = 'running', started_at = ?, claimed_by = ?, worker = ?,
    attempts = jobs.attempts + 1, lease_until = {_LEASE_END}
FROM (SELECT id FROM jobs
      WHERE ((status = 'pending' AND run_after <= ?)
             OR (status = 'running' AND (lease_until IS NULL OR lease_until < {_NOW})))
      {{persona}}
      ORDER BY run_after, id LIMIT 1 FOR UPDATE SKIP LOCKED) AS picked
WHERE jobs.id = picked.id
RETURNING jobs.*, (SELECT name FROM personas p WHERE p.id = jobs.persona_id) AS persona
"""
_RENEW = f"UPDATE jobs SET lease_until = {_LEASE_END} WHERE id = ANY(?) AND worker = ? " \
         "AND status = 'running'"


class PgJobStore(JobStore):
    """:class:`JobStore` over PostgreSQL, with leases renewed by a heartbeat thread."""

    def __init__(self, db: PgDatabase, *, lease_s: float = DEFAULT_LEASE_S) -> None:
        super().__init__(db)  # type: ignore[arg-type]
        self.lease_s = float(lease_s)
        self._process = f"{socket.gethostname()}:{os.getpid()}:"
        self.worker = self._process + secrets.token_hex(4)
        self._held: set[int] = set()
        self._held_lock = threading.Lock()
        self._stop = threading.Event()
        self._beat: threading.Thread | None = None

    def enqueue(self, *, kind: str, persona_id: int | None, payload: dict[str, Any],
                now: datetime, delay_s: float = 0.0, max_attempts: int = 5) -> int:
        """Queue a job; a periodic kind already pending for the persona is not queued twice
        (returns 0 then)."""
        verb = "INSERT OR IGNORE" if kind in PERIODIC_KINDS else "INSERT"
        with self.db.write() as conn:
            cur = conn.execute(
                f"{verb} INTO jobs (persona_id, kind, payload, status, max_attempts, run_after, "
                "created_at) VALUES (?, ?, ?, 'pending', ?, ?, ?)",
                (persona_id, kind, json.dumps(payload, ensure_ascii=False), max_attempts,
                 iso(now + timedelta(seconds=delay_s)), iso(now)))
            return int(cur.lastrowid or 0)

    def recover(self) -> int:
        """Running jobs whose process is gone become pending again: their lease ran out, or
        they were claimed by an earlier job store in this very process (being replaced)."""
        with self.db.write() as conn:
            return conn.execute(
                "UPDATE jobs SET status = 'pending', started_at = NULL, claimed_by = NULL, "
                "worker = NULL, lease_until = NULL WHERE status = 'running' "
                f"AND (lease_until IS NULL OR lease_until < {_NOW} "
                "OR (starts_with(worker, ?) AND worker <> ?))",
                (self._process, self.worker)).rowcount

    def claim(self, *, now: datetime, persona_id: int | None = None) -> Job | None:
        """The next ready job, or one whose lease expired, leased to this process."""
        persona, params = "", []
        if persona_id is not None:
            persona, params = "AND persona_id = ?", [persona_id]
        with self.db.write() as conn:
            row = conn.execute(_CLAIM.format(persona=persona), (
                iso(now), os.getpid(), self.worker, self.lease_s, iso(now), *params)).fetchone()
        if row is None:
            return None
        self._hold(int(row["id"]))
        return Job(id=row["id"], persona_id=row["persona_id"], persona=row["persona"],
                   kind=row["kind"], payload=json.loads(row["payload"]),
                   attempts=row["attempts"], max_attempts=row["max_attempts"],
                   created_at=dt(row["created_at"]))

    def complete(self, job_id: int, *, now: datetime) -> None:
        with self.db.write() as conn:
            conn.execute("UPDATE jobs SET status = 'done', finished_at = ?, last_error = NULL, "
                         "lease_until = NULL WHERE id = ?", (iso(now), job_id))
        self._release(job_id)

    def fail(self, job: Job, error: str, *, now: datetime, backoff_s: float) -> str:
        try:
            return super().fail(job, error, now=now, backoff_s=backoff_s)
        finally:
            self._release(job.id)

    def heartbeat(self) -> int:
        """Renew the leases of the jobs this process is running; returns how many."""
        with self._held_lock:
            held = sorted(self._held)
        if not held:
            return 0
        with self.db.write() as conn:
            return conn.execute(_RENEW, (self.lease_s, held, self.worker)).rowcount

    def close(self) -> None:
        self._stop.set()

    def _hold(self, job_id: int) -> None:
        with self._held_lock:
            self._held.add(job_id)
            if self._beat is None or not self._beat.is_alive():
                self._beat = threading.Thread(target=self._beating, name="omoide-lease",
                                              daemon=True)
                self._beat.start()

    def _release(self, job_id: int) -> None:
        with self._held_lock:
            self._held.discard(job_id)

    def _beating(self) -> None:
        while not self._stop.wait(self.lease_s / 3):
            try:
                self.heartbeat()
            except Exception:  # the database may be briefly away; the next beat retries
                logger.exception("could not renew job leases")
