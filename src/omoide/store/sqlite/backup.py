"""Online backup and restore of the SQLite database (SQLite's backup API).

A backup copies the database in one step from a consistent snapshot: in WAL mode the server's
writers are not blocked while it runs, and commits made during the copy are simply not in it.
The copy goes to a temporary file (0600) beside the target and is renamed into place only
after SQLite's integrity check passes, so a failed backup never leaves a half-written file.
"""

from __future__ import annotations

import contextlib
import dataclasses
import errno
import os
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from omoide.engine.errors import path_named
from omoide.errors import Conflict, InvalidInput, StorageUnavailable
from omoide.store.newer_schema import newer_than, refuse_newer
from omoide.store.sqlite.codes import disk_full
from omoide.store.sqlite.damage import damaged, read_failed
from omoide.store.sqlite.files import FILE_MODE, private_database
from omoide.store.sqlite.migrations import MIGRATIONS
from omoide.store.sqlite.read_only import open_for_reading

__all__ = ["BackupInfo", "backup", "begins_as_database", "restore"]


@dataclass(frozen=True)
class BackupInfo:
    path: Path
    bytes: int
    personas: int
    memories: int
    migrations: int
    set_aside: Path | None = None  # a restore's damaged database, kept under this name
    replaced: Path | None = None  # a restore's replaced (readable) database, kept under this name
    # a backup of a folder a newer Omoide migrated: what to tell the user (newer_schema.py)
    newer_schema: str | None = None


def _describe(conn: sqlite3.Connection, path: Path) -> tuple[BackupInfo, dict[int, str]]:
    """What the database at ``path`` holds, and the migrations it records (number → name:
    whether a newer Omoide wrote it, :mod:`omoide.store.newer_schema`)."""
    try:
        personas = conn.execute("SELECT COUNT(*) FROM personas").fetchone()[0]
        memories = conn.execute("SELECT COUNT(*) FROM memories").fetchone()[0]
        recorded = dict(conn.execute("SELECT number, name FROM schema_migrations").fetchall())
    except sqlite3.DatabaseError:
        raise InvalidInput(f"{path} is not an Omoide database") from None
    info = BackupInfo(
        path=path,
        bytes=path.stat().st_size,
        personas=personas,
        memories=memories,
        migrations=max(recorded, default=0),
    )
    return info, recorded


_SIDE_FILES = ("-journal", "-wal", "-shm")  # a copy cut short leaves its rollback journal


# SQLite's extended codes of a read the operating system failed: during the copy, only the
# live database is read (the copy is written)
_READ_FAILURES = (sqlite3.SQLITE_IOERR_READ, sqlite3.SQLITE_IOERR_SHORT_READ)


def _copied(source: sqlite3.Connection, copy: sqlite3.Connection, db_path: Path) -> None:
    """The live database's pages into ``copy``. A read of them the disk fails is said as the
    database's, not the backup's (it was "cannot write the backup FILE: disk I/O error")."""
    try:
        source.backup(copy)  # pages=-1: one step, one snapshot, never restarted by writers
    except sqlite3.OperationalError as exc:
        if getattr(exc, "sqlite_errorcode", None) not in _READ_FAILURES:
            raise
        failed = read_failed(db_path, exc)
        raise StorageUnavailable(f"{failed.message}. No backup was written") from None


def _reason(exc: sqlite3.OperationalError) -> str:
    if disk_full(exc):
        return "the disk is full; nothing was written (free some space and run it again)"
    return str(exc)


def _verdict(conn: sqlite3.Connection) -> str | None:
    """SQLite's quick check in one line (its first problem and how many more), or None when
    it passes. Its own report lists up to a hundred problems, a line each, under a heading
    line per database ("*** in database main ***")."""
    rows = [row[0] for row in conn.execute("PRAGMA quick_check").fetchall()]
    if rows == ["ok"]:
        return None
    problems = [
        line.strip()
        for row in rows
        for line in str(row).splitlines()
        if line.strip() and not line.startswith("***")
    ] or ["(no detail)"]
    more = len(problems) - 1
    return problems[0] + (f" (and {more} more problems)" if more else "")


def _check(conn: sqlite3.Connection, path: Path) -> None:
    try:
        verdict = _verdict(conn)
    except sqlite3.DatabaseError as exc:
        raise InvalidInput(f"{path} is not a readable SQLite database: {exc}") from None
    if verdict is not None:
        raise InvalidInput(f"{path} failed SQLite's integrity check: {verdict}")


def _check_copy(conn: sqlite3.Connection, copy: Path, db_path: Path) -> None:
    """A backup's copy holds the live database's pages as they are: when SQLite's check finds
    it damaged, the database itself is damaged, and that is what the user is told. A copy that
    cannot be read back (the disk under it failing reads) says nothing of the database: that
    is said of the copy, naming it and the error (it was "the database is damaged")."""
    try:
        verdict = _verdict(conn)
    except sqlite3.DatabaseError as exc:
        if not damaged(exc):
            raise InvalidInput(
                f"cannot read back the backup's copy {copy} to check it: {_read_error(copy, exc)}; "
                f"no backup was written (the disk under {copy.parent} may be failing reads: "
                "see the system log)"
            ) from None
        verdict = str(exc)
    if verdict is not None:
        raise InvalidInput(
            f"{db_path} is damaged (SQLite's integrity check of its copy: {verdict}); no "
            "backup was written. Stop the server and restore an earlier backup with "
            "`omoide restore --from FILE --force`"
        )


def _read_error(path: Path, exc: sqlite3.DatabaseError) -> str:
    """The operating system's error reading ``path`` (a plain read of it, in order), or SQLite's
    (with its extended code) when such a read succeeds (a file cut short reads to its end)."""
    try:
        with path.open("rb") as file:
            while file.read(1 << 20):
                pass
    except OSError as os_error:
        name = errno.errorcode.get(os_error.errno or 0, str(os_error.errno))
        return f"{os_error.strerror} ({name})"
    return f"{exc} ({getattr(exc, 'sqlite_errorname', 'SQLITE_ERROR')})"


def backup(db_path: Path, target: Path, *, overwrite: bool = False) -> BackupInfo:
    """Copy the live database at ``db_path`` to ``target`` (safe while a server writes).
    A ``target`` that is one of the data folder's own files (this database, a side file of
    it) is refused before this, by its one caller (``wiring.backup_database``, through
    ``wiring.refuse_over_data_folder``, which ``export --out`` uses too)."""
    if not db_path.exists():
        raise InvalidInput(f"no database at {db_path}")
    if target.exists() and not overwrite:
        raise Conflict(f"{target} already exists; choose another file or pass --force")
    if not target.parent.is_dir():
        raise InvalidInput(f"no folder {target.parent} to write the backup into")
    partial = target.with_name(target.name + ".partial")
    with contextlib.suppress(FileNotFoundError):
        partial.unlink()
    os.close(os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE))
    source = open_for_reading(db_path, timeout=30.0)  # a read-only folder's too
    copy = sqlite3.connect(partial)
    try:
        source.execute("PRAGMA busy_timeout = 30000")
        _copied(source, copy, db_path)
        copy.execute("PRAGMA journal_mode = DELETE")  # a single self-contained file
        _check_copy(copy, partial, db_path)
        copy.close()
        os.replace(partial, target)
    except BaseException as exc:
        copy.close()
        for leftover in (partial, *(partial.with_name(partial.name + s) for s in _SIDE_FILES)):
            with contextlib.suppress(FileNotFoundError):
                leftover.unlink()
        if isinstance(exc, sqlite3.OperationalError):  # a full disk, an I/O error: a traceback
            raise InvalidInput(f"cannot write the backup {target}: {_reason(exc)}") from None
        raise
    finally:
        source.close()
    with contextlib.closing(sqlite3.connect(f"file:{target}?mode=ro", uri=True)) as done:
        info, recorded = _describe(done, target)
    # a copy of what is there, kept whole; only a restore of it is refused (:func:`restore`)
    where = f"the data folder {path_named(db_path.parent)} (copied whole into {target})"
    newer = newer_than(recorded, (m.number for m in MIGRATIONS), where=where)
    return dataclasses.replace(info, newer_schema=newer)


def is_database_file(path: Path, db_path: Path) -> bool:
    """Whether ``path`` names the database at ``db_path`` or one of its side files, however it
    is spelled (a relative path, a symlink, a hard link, another case on a case-insensitive
    disk). Why: ``omoide backup --to data/omoide.db --force`` replaced the live database with
    its copy; the server went on writing to the file it had open, now unlinked, and every
    write after it was lost at the next start (``--to data/omoide.db-wal``: a traceback)."""
    for own in (db_path, *(db_path.with_name(db_path.name + s) for s in _SIDE_FILES)):
        if path.resolve() == own.resolve():
            return True
        with contextlib.suppress(OSError):
            if os.path.samefile(path, own):
                return True
    return False


_HEADER = b"SQLite format 3\x00"  # the first 16 bytes of every SQLite database file


def begins_as_database(path: Path) -> bool:
    """Whether ``path`` is a file that begins as a SQLite database does (a backup, a copy of a
    data folder's database), whole or damaged: its header alone is read, never its pages."""
    if not path.is_file():  # a pipe or a device is not opened: it may block or be read once
        return False
    try:
        with path.open("rb") as file:
            return file.read(len(_HEADER)) == _HEADER
    except OSError:
        return False


def restore(source_path: Path, db_path: Path, *, force: bool = False) -> BackupInfo:
    """Replace the database at ``db_path`` with the backup ``source_path``.

    Refused when ``db_path`` already holds a database, unless ``force`` (stop the server
    first: a running one keeps serving what it loaded); that database is then kept, renamed
    beside it (:func:`_set_aside`), never overwritten. The backup is checked before anything
    is written; the copy goes through the backup API into a new file. A copy that fails leaves
    the folder as it was.
    """
    if not source_path.is_file():
        raise InvalidInput(f"no backup file at {source_path}")
    if is_database_file(source_path, db_path):
        raise InvalidInput(
            f"{source_path} is the data folder's own database, not a backup of it: give the "
            "file `omoide backup --to` wrote"
        )
    try:  # a file that cannot be read (no permission, an I/O error) fails here: a traceback
        source = sqlite3.connect(f"file:{source_path}?mode=ro", uri=True)
    except sqlite3.DatabaseError as exc:
        raise InvalidInput(f"{source_path} is not a readable SQLite database: {exc}") from None
    try:
        _check(source, source_path)
        info, recorded = _describe(source, source_path)
        # a newer Omoide's backup would leave a folder this one refuses at every open
        refuse_newer(recorded, (m.number for m in MIGRATIONS), where=f"the backup {source_path}")
        if db_path.exists() and db_path.stat().st_size > 0 and not force:
            raise Conflict(
                f"{db_path.parent} already holds a database; stop the server and "
                "pass --force to replace it"
            )
        aside, was_damaged = _set_aside(db_path)
        try:
            private_database(db_path)
            _copy_into(source, db_path)
        except BaseException as exc:  # a full disk, Ctrl+C: the folder as it was (an empty
            # database left was migrated by the next command as a new folder)
            for made in (db_path, *(db_path.with_name(db_path.name + s) for s in _SIDE_FILES)):
                with contextlib.suppress(FileNotFoundError):
                    made.unlink()
            if aside is not None:
                _rename(aside, db_path)
            if isinstance(exc, sqlite3.OperationalError):  # a traceback before
                raise InvalidInput(f"cannot restore into {db_path}: {_reason(exc)}") from None
            raise
    finally:
        source.close()
    return BackupInfo(
        path=db_path,
        bytes=db_path.stat().st_size,
        personas=info.personas,
        memories=info.memories,
        migrations=info.migrations,
        set_aside=aside if was_damaged else None,
        replaced=None if was_damaged else aside,
    )


def _set_aside(db_path: Path) -> tuple[Path | None, bool]:
    """The database ``db_path`` holds, renamed with its WAL and SHM so that nothing of it is
    lost to the restore (whose copy goes into a new file): its new name, and whether SQLite
    found it damaged; (None, False) when there is none. A damaged one (what ``omoide restore
    --force`` is advised for: the copy could not open it) goes to a free ``NAME.damaged[-N]``;
    a readable one to ``NAME.replaced-<UTC time>[-N]``, its WAL folded into it first (when
    SQLite can) so that it is one file, a backup of what the folder held."""
    if not db_path.exists() or db_path.stat().st_size == 0:
        return None, False
    try:
        with contextlib.closing(sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)) as conn:
            conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
        is_damaged = False
    except sqlite3.DatabaseError as exc:
        if not damaged(exc):
            raise
        is_damaged = True
    if not is_damaged:
        with contextlib.suppress(sqlite3.Error), contextlib.closing(sqlite3.connect(db_path)) as c:
            c.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # the last close removes the WAL
            # a rollback-journal file, as a backup is: read in WAL mode (restore --from it),
            # it left an empty -wal and a -shm beside it, no longer one file
            c.execute("PRAGMA journal_mode = DELETE")
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    name = f"{db_path.name}.damaged" if is_damaged else f"{db_path.name}.replaced-{stamp}"
    aside = db_path.with_name(name)
    n = 1
    while aside.exists():
        n += 1
        aside = db_path.with_name(f"{name}-{n}")
    _rename(db_path, aside)
    return aside, is_damaged


def _rename(db_path: Path, to: Path) -> None:
    """``db_path`` and its side files renamed to ``to`` (and its side files)."""
    for suffix in ("", "-wal", "-shm"):
        with contextlib.suppress(FileNotFoundError):
            db_path.with_name(db_path.name + suffix).rename(to.with_name(to.name + suffix))


def _copy_into(source: sqlite3.Connection, db_path: Path) -> None:
    """The backup's pages into the database at ``db_path``, in one transaction (a failure
    leaves what was there)."""
    target = sqlite3.connect(db_path, timeout=30.0)
    try:
        target.execute("PRAGMA journal_mode = WAL")
        source.backup(target)
        target.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        target.close()
