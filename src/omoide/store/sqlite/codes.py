"""What SQLite's errors say to the store (busy, refused, full), and the one step of opening a
connection that is retried on "database is locked" (the switch to WAL)."""

from __future__ import annotations

import sqlite3
import time

from omoide.store.sqlite.damage import coded, failed_io

__all__ = ["busy", "disk_full", "set_wal", "unwritable"]


def busy(exc: BaseException) -> bool:
    """SQLite's ``SQLITE_BUSY`` ("database is locked") once the busy wait is over."""
    return coded(exc, sqlite3.SQLITE_BUSY)


def unwritable(exc: BaseException) -> bool:
    """SQLite's ``SQLITE_READONLY`` ("attempt to write a readonly database") or
    :func:`~omoide.store.sqlite.damage.failed_io` ("disk I/O error": the operating system
    refused a read or a write)."""
    return isinstance(exc, sqlite3.OperationalError) and (
        coded(exc, sqlite3.SQLITE_READONLY) or failed_io(exc)
    )


def disk_full(exc: BaseException) -> bool:
    """SQLite's ``SQLITE_FULL`` (``database or disk is full``), whichever statement met it."""
    return isinstance(exc, sqlite3.OperationalError) and coded(exc, sqlite3.SQLITE_FULL)


def set_wal(conn: sqlite3.Connection, wait_s: float = 30.0) -> None:
    """Put the file in WAL mode. Changing the journal mode can answer "database is locked" at
    once, without the busy handler, while another process opens the same new file (two servers
    started together on one folder): retried for up to ``wait_s`` seconds."""
    deadline = time.monotonic() + wait_s
    while True:
        try:
            conn.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(0.05)
