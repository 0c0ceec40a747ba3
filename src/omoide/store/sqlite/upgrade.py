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
import time
from pathlib import Path

from omoide.engine.errors import path_named
from omoide.errors import Conflict
from omoide.store.newer_schema import refuse_newer
from omoide.store.sqlite.migrations import MIGRATIONS, apply_migrations

__all__ = ["upgrade_alone"]

logger = logging.getLogger(__name__)

WAIT_S = 10.0  # how long an upgrade waits for the other processes to close the database
POLL_S = 0.1  # how often it looks again (at the lock, and at what another process applied)


def upgrade_alone(path: Path, *, upto: int | None = None) -> None:
    """Apply the pending migrations of the existing database at ``path`` while no other
    process has it open; Conflict naming both schema versions while one has. A missing, empty
    or never-migrated database is left to :func:`apply_migrations` as before, and so is one
    whose migrations another process of this version finishes while this one waits (two
    processes started at once on a new folder: the second sees the first half-way). A
    database a newer Omoide migrated is refused before anything is written
    (:func:`~omoide.store.newer_schema.refuse_newer`)."""
    if not path.exists() or path.stat().st_size == 0:
        return
    wanted = [m.number for m in MIGRATIONS if upto is None or m.number <= upto]
    applied = _applied_in(path)
    refuse_newer(applied, (m.number for m in MIGRATIONS), where=_named(path))
    if not applied or set(wanted) <= set(applied):
        return
    conn = _alone(path, have=max(applied), want=wanted)
    if conn is None:
        return
    try:
        conn.execute("PRAGMA foreign_keys = ON")
        conn.execute("PRAGMA secure_delete = ON")
        apply_migrations(conn, upto=upto)
    finally:
        conn.close()  # the exclusive lock goes with the connection


def _named(path: Path) -> str:
    """How a refusal names the database at ``path``."""
    return f"the database of the data folder {path_named(path.parent)}"


def _applied_in(path: Path) -> dict[int, str]:
    """The migrations the database records, number → name (none for one with no record yet),
    read without writing on a connection closed again at once: an open one would count among
    the processes an upgrade waits for, and ``migrations.applied_migrations`` creates its
    table."""
    conn = sqlite3.connect(path, isolation_level=None, timeout=1.0)
    try:
        with contextlib.suppress(sqlite3.OperationalError):  # no schema_migrations table
            return dict(conn.execute("SELECT number, name FROM schema_migrations").fetchall())
        return {}
    finally:
        conn.close()


def _exclusive(path: Path) -> sqlite3.Connection | None:
    """A connection holding SQLite's exclusive lock on the database, or None (and nothing
    held) while another connection has it open."""
    conn = sqlite3.connect(path, isolation_level=None, timeout=0)
    try:
        conn.execute("PRAGMA locking_mode = EXCLUSIVE")
        conn.execute("BEGIN EXCLUSIVE")
        conn.execute("COMMIT")
    except sqlite3.OperationalError as exc:
        conn.close()
        if "locked" not in str(exc) and "busy" not in str(exc):
            raise
        return None
    return conn


def _alone(path: Path, *, have: int, want: list[int]) -> sqlite3.Connection | None:
    """A connection with the database to itself, or None when another process applied the
    wanted migrations meanwhile, so nothing is left to do."""
    deadline = time.monotonic() + WAIT_S
    warned = False
    while True:
        conn = _exclusive(path)
        if conn is not None:
            return conn
        if set(want) <= set(_applied_in(path)):
            return None
        if time.monotonic() >= deadline:
            break
        if not warned:
            warned = True
            logger.warning(
                "the database %s needs an upgrade (schema %d to %d); waiting up to %.0f s for "
                "the other processes that have it open",
                path,
                have,
                max(want),
                WAIT_S,
            )
        time.sleep(POLL_S)
    raise Conflict(
        f"the database in {path_named(path.parent)} has the schema of an older Omoide ({have}; "
        f"this one needs {max(want)}), and another process has it open: an `omoide serve` or "
        "`omoide mcp` of the older version would go on writing the tables as it knows them. Stop "
        "every Omoide process using the folder, then run this again to upgrade it"
    )
