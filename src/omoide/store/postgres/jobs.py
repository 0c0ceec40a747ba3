"""The durable job queue in PostgreSQL: the SQLite adapter's leases, claimed with
``FOR UPDATE SKIP LOCKED`` so any number of processes on any number of machines share it.

Everything but claiming and start-up recovery is the shared :class:`JobStore` (leases of
``lease_s`` seconds renewed by the runner's heartbeat, ``complete``/``fail`` conditional on the
worker still holding the lease, periodic duties claimed once per interval). What differs:

- a claim locks the row it takes with ``FOR UPDATE SKIP LOCKED``: two workers never take the
  same job and never wait on each other's claim (SQLite gets this from its single writer);
- :meth:`PgJobStore.recover` only takes back jobs claimed on *this* host by a process that is
  gone (a pid means nothing on another machine); any other dead worker's job comes back when
  its lease runs out, at the next claim of any live process;
- :meth:`PgJobStore.enqueue_unique` holds the persona's write lock across its check and insert,
  so two servers ticking together queue one job.
"""

from __future__ import annotations

import json
import os
import socket
from datetime import datetime, timedelta
from typing import Any

from omoide.clock import iso
from omoide.model import Job
from omoide.store.sqlite.jobs import JobStore, _alive
from omoide.store.sqlite.rows import dt

__all__ = ["PgJobStore"]

_SELECT = ("SELECT j.*, (SELECT name FROM personas p WHERE p.id = j.persona_id) AS persona "
           "FROM jobs j WHERE {where} ORDER BY {order} LIMIT 1 FOR UPDATE OF j SKIP LOCKED")


class PgJobStore(JobStore):
    """:class:`JobStore` on PostgreSQL (see the module docstring for what it changes)."""

    def enqueue_unique(self, *, kind: str, persona_id: int | None, payload: dict[str, Any],
                       now: datetime, delay_s: float = 0.0, include_running: bool = True
                       ) -> int | None:
        with self.db.write(persona_id or 0):  # type: ignore[call-arg]
            return super().enqueue_unique(kind=kind, persona_id=persona_id, payload=payload,
                                          now=now, delay_s=delay_s,
                                          include_running=include_running)

    def recover(self) -> int:
        """Running jobs claimed on this host by a process that is gone become pending."""
        host = socket.gethostname() + ":"
        with self.db.write() as conn:
            rows = conn.execute("SELECT id, claimed_by, worker FROM jobs "
                                "WHERE status = 'running' FOR UPDATE SKIP LOCKED").fetchall()
            orphans = [r[0] for r in rows
                       if (r[2] is None or r[2].startswith((host, "pid-"))) and not _alive(r[1])]
            if orphans:
                conn.execute("UPDATE jobs SET status = 'pending', started_at = NULL, "
                             "claimed_by = NULL, worker = NULL, lease_until = NULL "
                             "WHERE id = ANY(?)", (orphans,))
        return len(orphans)

    def claim(self, *, now: datetime, persona_id: int | None = None, worker: str | None = None,
              lease_s: float | None = None) -> Job | None:
        """As :meth:`JobStore.claim` (expired leases first, a job out of attempts is failed),
        each probe skipping rows another worker is claiming at this moment."""
        worker = worker or f"pid-{os.getpid()}"
        wall = self._wall()
        persona, extra = "", []
        if persona_id is not None:
            persona, extra = " AND j.persona_id = ?", [persona_id]
        expired = _SELECT.format(where=f"j.status = 'running' AND j.lease_until < ?{persona}",
                                 order="j.lease_until")
        ready = _SELECT.format(where=f"j.status = 'pending' AND j.run_after <= ?{persona}",
                               order="j.run_after, j.id")
        with self.db.write() as conn:
            row = conn.execute(expired, [iso(wall), *extra]).fetchone()
            while row is not None and row["attempts"] >= row["max_attempts"]:
                conn.execute("UPDATE jobs SET status = 'failed', finished_at = ?, worker = NULL, "
                             "lease_until = NULL, last_error = ? WHERE id = ?",
                             (iso(now), f"worker lost: its lease expired on attempt "
                                        f"{row['attempts']} of {row['max_attempts']}", row["id"]))
                row = conn.execute(expired, [iso(wall), *extra]).fetchone()
            if row is None:
                row = conn.execute(ready, [iso(now), *extra]).fetchone()
            if row is None:
                return None
            until = wall + timedelta(seconds=self.lease_s if lease_s is None else lease_s)
            conn.execute("UPDATE jobs SET status = 'running', started_at = ?, claimed_by = ?, "
                         "worker = ?, lease_until = ?, attempts = attempts + 1 WHERE id = ?",
                         (iso(now), os.getpid(), worker, iso(until), row["id"]))
        return Job(id=row["id"], persona_id=row["persona_id"], persona=row["persona"],
                   kind=row["kind"], payload=json.loads(row["payload"]),
                   attempts=row["attempts"] + 1, max_attempts=row["max_attempts"],
                   created_at=dt(row["created_at"]), worker=worker)
