"""Work enqueued inside the write that causes it: :func:`enqueue` inserts a job on the
connection of the open write transaction, and :class:`SqliteUnitOfWork` hands that transaction
to the services as the port's :class:`~omoide.store.port.UnitOfWork`, so the job exists if and
only if that write committed."""

from __future__ import annotations

import json
import sqlite3
from datetime import datetime, timedelta
from typing import Any

from omoide.clock import iso

__all__ = ["SqliteUnitOfWork", "enqueue"]


def enqueue(
    conn: sqlite3.Connection,
    *,
    kind: str,
    persona_id: int | None,
    payload: dict[str, Any],
    now: datetime,
    delay_s: float = 0.0,
    max_attempts: int = 5,
) -> int:
    """Insert a pending job on ``conn`` (inside the caller's transaction)."""
    cur = conn.execute(
        "INSERT INTO jobs (persona_id, kind, payload, status, max_attempts, run_after, created_at) "
        "VALUES (?, ?, ?, 'pending', ?, ?, ?)",
        (
            persona_id,
            kind,
            json.dumps(payload, ensure_ascii=False),
            max_attempts,
            iso(now + timedelta(seconds=delay_s)),
            iso(now),
        ),
    )
    return int(cur.lastrowid or 0)


class SqliteUnitOfWork:
    """The open write transaction as the port's :class:`~omoide.store.port.UnitOfWork`."""

    __slots__ = ("conn",)

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

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
        return enqueue(
            self.conn,
            kind=kind,
            persona_id=persona_id,
            payload=payload,
            now=now,
            delay_s=delay_s,
            max_attempts=max_attempts,
        )
