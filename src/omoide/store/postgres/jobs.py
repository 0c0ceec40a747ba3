"""The durable job queue in PostgreSQL: the SQLite adapter's leases, claimed with
``FOR UPDATE SKIP LOCKED`` so any number of processes on any number of machines share it.

Everything but claiming is the shared :class:`JobStore` (leases of ``lease_s`` seconds renewed
by the runner's heartbeat, ``complete``/``fail`` conditional on the worker still holding the
lease, start-up recovery by leases alone, periodic duties claimed once per interval). What
differs:

- a claim locks the row it takes with ``FOR UPDATE SKIP LOCKED``: two workers never take the
  same job and never wait on each other's claim (SQLite gets this from its single writer);
- ``enqueue_unique`` holds the persona's write lock across its check and insert
  (:meth:`PgJobStore._unique_write`), so two servers ticking together queue one job;
- lease and periodic times are read from the database's clock (``clock_timestamp()``), the one
  clock every server shares, so a server whose own clock runs ahead never takes a live lease.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from datetime import UTC, datetime
from typing import Any

from omoide.store.sqlite.jobs import DEFAULT_LEASE_S, JobStore

__all__ = ["PgJobStore"]

_SELECT = (
    "SELECT j.*, (SELECT name FROM personas p WHERE p.id = j.persona_id) AS persona "
    "FROM jobs j WHERE {where} ORDER BY {order} LIMIT 1 FOR UPDATE OF j SKIP LOCKED"
)


def database_clock(db: Any) -> Callable[[], datetime]:
    """The database server's time (UTC), read with one statement."""

    def now() -> datetime:
        value: datetime = db.conn().execute("SELECT clock_timestamp()").fetchone()[0]
        return value.astimezone(UTC)

    return now


class PgJobStore(JobStore):
    """:class:`JobStore` on PostgreSQL (see the module docstring for what it changes)."""

    def __init__(
        self,
        db: Any,
        *,
        lease_s: float = DEFAULT_LEASE_S,
        wall: Callable[[], datetime] | None = None,
        in_order: Sequence[str] = (),
    ) -> None:
        super().__init__(db, lease_s=lease_s, wall=wall or database_clock(db), in_order=in_order)

    def _unique_write(self, persona_id: int | None) -> AbstractContextManager[Any]:
        """The persona's write lock held across the check and the insert."""
        return self.db.write(persona_id or 0)  # type: ignore[call-arg]

    @staticmethod
    def _probe(where: str, order: str) -> str:
        """The shared claim's probe, locking the row it returns and skipping rows another
        worker is claiming at this moment."""
        return _SELECT.format(where=where, order=order)
