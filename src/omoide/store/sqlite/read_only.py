"""A data folder this process cannot write (a backup mounted read-only, a snapshot, a folder of
another user's it may only read): the reading commands read it, the writing ones are refused
with one clear line.

SQLite's default open asks for read-write, and the WAL mode needs the ``-shm`` file beside the
database, which a read-only folder cannot hold: so the database is opened ``mode=ro`` (which
reads a WAL already there, ``-shm`` included), else ``immutable=1`` when there is no WAL to
read (what a folder whose last process closed cleanly holds: the database file alone). No
migration runs: a database of an older schema is refused, naming what to do.

Whether the folder is read-only is found once, when the database is opened
(:class:`~omoide.store.sqlite.db.Database` ``.read_only``), and its readers of their own (an
export's snapshot) are given it instead of looking again. A folder that becomes read-only
while a server serves it (remounted read-only under it) is not looked at again for that: a
write then meets SQLite's ``SQLITE_READONLY`` or ``SQLITE_IOERR`` and is refused as storage
that cannot take it now, a 503 naming the folder (``Database.write``); a reader of its own
tries SQLite's usual open first and, SQLite refusing it, looks again and opens the database
read-only, as a folder read-only from the start is.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from urllib.parse import quote

from omoide.engine.errors import path_named
from omoide.errors import InvalidInput
from omoide.store.newer_schema import refuse_newer
from omoide.store.sqlite.damage import DamageRefusing

__all__ = [
    "connect_read_only",
    "is_read_only",
    "open_for_reading",
    "read_only_refusal",
    "require_schema",
]


def is_read_only(path: Path) -> bool:
    """Whether ``path`` is an existing database this process may read but not write (its
    folder or the file itself unwritable: a read-only mount, or another user's)."""
    try:
        if not path.is_file() or path.stat().st_size == 0:
            return False
    except OSError:
        return False
    readable = os.access(path, os.R_OK)
    return readable and not (os.access(path.parent, os.W_OK) and os.access(path, os.W_OK))


def connect_read_only(path: Path, *, timeout: float) -> sqlite3.Connection:
    """A connection that reads the database at ``path`` and never writes beside it."""
    where = quote(str(path.absolute()))
    try:
        return _opened(f"file:{where}?mode=ro", timeout, path)
    except sqlite3.OperationalError:  # SQLITE_CANTOPEN: a WAL database with no -shm to use
        wal = path.with_name(path.name + "-wal")
        if wal.exists() and wal.stat().st_size > 0:
            raise InvalidInput(
                f"the data folder {path_named(path.parent)} is read-only, and its database's "
                f"write-ahead log ({wal.name}) cannot be read without writing beside it: "
                "copy the folder somewhere you can write and read that copy"
            ) from None
        return _opened(f"file:{where}?immutable=1", timeout, path)


def open_for_reading(
    path: Path, *, timeout: float, read_only: bool | None = None
) -> sqlite3.Connection:
    """A connection for a reader of its own (an export's snapshot, a backup's source):
    :func:`connect_read_only` in a folder it cannot write, else SQLite's usual open.

    ``read_only``: what the database's open found (None: look now, for a command that opened
    none). A usual open that SQLite refuses looks again: the folder may have become read-only
    since."""
    if read_only is None:
        read_only = is_read_only(path)
    if read_only:
        return connect_read_only(path, timeout=timeout)
    try:
        return _opened(str(path), timeout, path, uri=False)
    except sqlite3.OperationalError:
        if not is_read_only(path):
            raise
        return connect_read_only(path, timeout=timeout)


def _opened(target: str, timeout: float, path: Path, *, uri: bool = True) -> sqlite3.Connection:
    """A connection to ``target`` (a ``file:`` URI, else ``path`` itself), opened at once
    (SQLite's open is lazy) and refusing a damaged file as the server's do."""
    conn = sqlite3.connect(
        target,
        uri=uri,
        isolation_level=None,
        check_same_thread=False,
        timeout=timeout,
        factory=DamageRefusing,
    )
    conn.path = path
    try:
        conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()  # the open is lazy
    except BaseException:
        conn.close()
        raise
    return conn


def require_schema(
    conn: sqlite3.Connection, path: Path, wanted: list[int], known: list[int]
) -> None:
    """Refuse a read-only database whose schema lacks one of ``wanted``'s migrations: it
    cannot be upgraded where it is; and one a newer Omoide migrated (a migration ``known``,
    this Omoide's numbers, does not hold), as a writable one is."""
    try:
        recorded = dict(conn.execute("SELECT number, name FROM schema_migrations").fetchall())
    except sqlite3.OperationalError:
        recorded = {}
    where = f"the database of the data folder {path_named(path.parent)}"
    refuse_newer(recorded, known, where=where)
    applied = set(recorded)
    missing = [number for number in wanted if number not in applied]
    if missing:
        raise InvalidInput(
            f"the data folder {path_named(path.parent)} is read-only, and its database was written "
            f"by an older Omoide (schema {max(applied, default=0)}; this one reads "
            f"{max(wanted)}): open it once where it can be written, which upgrades it"
        )


def read_only_refusal(path: Path) -> InvalidInput:
    """What a write into a read-only data folder says (SQLite's ``SQLITE_READONLY``)."""
    return InvalidInput(
        f"the data folder {path_named(path.parent)} is read-only: this command writes to it, and "
        "only reading commands (search, memory list/get, export, stats …) work on it; run it "
        "on a folder you can write (OMOIDE_DATA or --data)"
    )
