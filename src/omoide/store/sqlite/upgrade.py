"""Upgrading an existing database to this Omoide's schema with no other process in it.

A process of an older Omoide still running on the folder (an ``omoide serve`` left up through
an upgrade, a client's ``omoide mcp``) goes on writing the tables as it knows them: after the
notes' keyword index was keyed by persona (migration 14), a note such a server wrote was in the
index under the old key, and no keyword search of the new one ever found it. Its pending
migrations are therefore applied only while this process has the database to itself: the
upgrading connection takes SQLite's exclusive lock (``locking_mode = EXCLUSIVE``), which every
other connection's hold of a WAL database refuses, whatever version opened it (the folder lock,
``folder_lock.py``, is younger than some versions, and reading commands take none). A new
database (no migration applied yet) is migrated as before, by whichever process gets there
first (``migrations._apply`` skips what another applied).
"""

from __future__ import annotations

import contextlib
import logging
import sqlite3
from pathlib import Path

from omoide.errors import Conflict
from omoide.store.sqlite.migrations import MIGRATIONS, apply_migrations

__all__ = ["upgrade_alone"]

logger = logging.getLogger(__name__)

WAIT_S = 10.0  # how long an upgrade waits for the other processes to close the database


def upgrade_alone(path: Path, *, upto: int | None = None) -> None:
    """Apply the pending migrations of the existing database at ``path`` while no other
    process has it open; Conflict naming both schema versions while one has. A missing, empty
    or never-migrated database is left to :func:`apply_migrations` as before."""
    if not path.exists() or path.stat().st_size == 0:
        return
    conn = sqlite3.connect(path, isolation_level=None, timeout=0)
    try:
        applied = _applied(conn)
        wanted = [m.number for m in MIGRATIONS if upto is None or m.number <= upto]
        if not applied or set(wanted) <= set(applied):
            return
        _alone(conn, path, have=max(applied), want=max(wanted))
        conn.execute("PRAGMA foreign_keys = ON")
        conn.execute("PRAGMA secure_delete = ON")
        apply_migrations(conn, upto=upto)
    finally:
        conn.close()  # the exclusive lock goes with the connection


def _applied(conn: sqlite3.Connection) -> list[int]:
    """The migrations the database records; none for one that has no record yet."""
    with contextlib.suppress(sqlite3.OperationalError):  # no schema_migrations table
        return [row[0] for row in conn.execute("SELECT number FROM schema_migrations")]
    return []


def _alone(conn: sqlite3.Connection, path: Path, *, have: int, want: int) -> None:
    """Hold SQLite's exclusive lock on the database until ``conn`` closes."""
    conn.execute("PRAGMA locking_mode = EXCLUSIVE")
    for wait_s in (0.0, WAIT_S):
        conn.execute(f"PRAGMA busy_timeout = {int(wait_s * 1000)}")
        try:
            conn.execute("BEGIN EXCLUSIVE")
            conn.execute("COMMIT")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) and "busy" not in str(exc):
                raise
        if not wait_s:
            logger.warning(
                "the database %s needs an upgrade (schema %d to %d); waiting up to %.0f s for "
                "the other processes that have it open",
                path,
                have,
                want,
                WAIT_S,
            )
    raise Conflict(
        f"the database in {str(path.parent)!r} has the schema of an older Omoide ({have}; this "
        f"one needs {want}), and another process has it open: an `omoide serve` or `omoide "
        "mcp` of the older version would go on writing the tables as it knows them. Stop "
        "every Omoide process using the folder, then run this again to upgrade it"
    )
