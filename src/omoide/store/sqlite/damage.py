"""A database file SQLite finds damaged while it is read (a disk fault, a program that wrote
into it while a server runs): a 503 :class:`~omoide.errors.StorageUnavailable` naming the data
folder and the remedy (``omoide restore --force`` from a backup), not a 500. So is a read the
operating system fails (SQLite's ``SQLITE_IOERR``, "disk I/O error": a disk failing reads, a
file cut short under the process), naming the folder and what to check; inside a write
transaction the same error is the write's (``Database.write``: the folder stopped taking
writes), so the cursor leaves it to that.

SQLite meets a damaged page where it reads it: at the statement's first step (``execute``), or
at a later row's step, while the rows are fetched. Both go through :class:`DamageRefusing`, the
connection every reader of the data folder opens (``db.py``, ``read_only.py``), and its cursors
(:class:`_Cursor`): the refusal is written once, in :func:`_refuse_damage`.

The same calls mark the connection in use while SQLite runs them (:meth:`DamageRefusing.retire`):
a ``Database.close`` in another thread closes a connection only between them, never under a
statement that runs (closed under one, the sqlite3 module crashes the process: -11), nor while
one of its cursors has rows left to read or a transaction is open. A statement on a connection
closed so is refused as the close says (:func:`closed_refusal`), not with sqlite3's "Cannot
operate on a closed database."."""

from __future__ import annotations

import contextlib
import sqlite3
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from omoide.engine.errors import path_named
from omoide.errors import StorageFull, StorageUnavailable

__all__ = [
    "DamageRefusing",
    "closed_refusal",
    "coded",
    "damaged",
    "failed_io",
    "no_room_for_shm",
    "read_failed",
    "shm_full",
    "unreadable",
    "writing",
]

_CHUNK = 256  # rows a cursor's iteration fetches at a time (not one Python call per row)


def coded(exc: BaseException, *codes: int) -> bool:
    """Whether SQLite's primary result code of ``exc`` (its extended code's low byte) is one
    of ``codes``."""
    code = getattr(exc, "sqlite_errorcode", None)
    return code is not None and code & 0xFF in codes


def damaged(exc: BaseException) -> bool:
    """SQLite's ``SQLITE_NOTADB`` ("file is not a database") or ``SQLITE_CORRUPT`` ("database
    disk image is malformed"): a file that cannot be read as a database."""
    return coded(exc, sqlite3.SQLITE_NOTADB, sqlite3.SQLITE_CORRUPT)


def failed_io(exc: BaseException) -> bool:
    """SQLite's ``SQLITE_IOERR``, whatever its extended code (``SQLITE_IOERR_READ``,
    ``…_SHORT_READ``, ``…_WRITE``, ``…_FSYNC`` …): "disk I/O error", the operating system
    refused a read or a write of the folder's files."""
    return isinstance(exc, sqlite3.OperationalError) and coded(exc, sqlite3.SQLITE_IOERR)


def shm_full(exc: BaseException) -> bool:
    """SQLite's ``SQLITE_IOERR_SHMSIZE``: the operating system refused to grow the database's
    shared-memory file (``omoide.db-shm``), which every read and write of a WAL database maps:
    the disk is full, or a quota or file size limit is reached. Said as the full disk it is,
    not as a disk failing reads (whose remedy, a restore, would not help)."""
    return getattr(exc, "sqlite_errorcode", None) == sqlite3.SQLITE_IOERR_SHMSIZE


def no_room_for_shm(path: Path) -> StorageFull:
    """The 507 of :func:`shm_full`, for a read or a write alike: nothing was stored."""
    return StorageFull(
        f"the disk of the data folder {path_named(path.parent)} is full: SQLite has no room to "
        f"grow {path.name}-shm, which every read and write of the folder needs "
        "(SQLITE_IOERR_SHMSIZE; or a quota or file size limit is reached); nothing was stored: "
        "free some space and try again"
    )


def unreadable(path: Path, exc: BaseException) -> str:
    """What to say of the database at ``path`` that SQLite found :func:`damaged`."""
    return (
        f"the database {path.name} in the data folder {path_named(path.parent)} cannot be read "
        f"({exc}): it is damaged, or no Omoide database; restore it from a backup "
        "(omoide restore --from FILE --force)"
    )


def read_failed(path: Path, exc: BaseException) -> StorageUnavailable:
    """A read of the folder's database the operating system failed (:func:`failed_io` outside
    a write transaction, or ``omoide backup``'s copy of it). Not the request's fault, nor (as
    far as SQLite can tell) damage: a 503, and the same request is served again once the disk
    reads again."""
    return StorageUnavailable(
        f"the data folder {path_named(path.parent)} failed a read of {path.name} ({exc}, "
        f"{getattr(exc, 'sqlite_errorname', 'SQLITE_IOERR')}) while this process had it open: "
        "the disk or the file system under it is failing reads (see the system log); check "
        "it, then try again; if it recurs, restore the folder from a backup "
        "(omoide restore --from FILE --force)"
    )


def closed_refusal(path: Path, *, write: bool) -> StorageUnavailable:
    """A statement (a ``write``'s, or a read's) once this process closed the database
    (``Database.close``: its server stopping; a job's handler a stop no longer waited for,
    still running)."""
    stored = "; nothing of this write was stored" if write else ""
    return StorageUnavailable(
        f"the database of the data folder {path_named(path.parent)} was closed (the server is "
        f"stopping){stored}: try again once it runs again"
    )


def _refuse_damage(conn: DamageRefusing, exc: sqlite3.DatabaseError) -> None:
    """SQLite's :func:`damaged` as the 503 naming the folder and the remedy, and a read's
    :func:`failed_io` as the 503 naming the folder and what to check (any other error, or an
    I/O error inside a write transaction: the caller re-raises it, and ``Database.write`` says
    it as the write's). A ``try``/``except`` at each call, not a context manager: a cursor's
    steps are the hottest calls of the store. A connection a close took (:attr:`DamageRefusing.
    shut`) refuses as the close says."""
    if conn.shut:
        raise closed_refusal(conn.path, write=conn.writing) from exc
    if damaged(exc):
        raise StorageUnavailable(f"{unreadable(conn.path, exc)}; nothing was stored") from exc
    if shm_full(exc):
        raise no_room_for_shm(conn.path) from exc
    if not conn.writing and failed_io(exc):
        raise read_failed(conn.path, exc) from exc


class DamageRefusing(sqlite3.Connection):
    """A connection (``sqlite3.connect(…, factory=DamageRefusing)``, then :attr:`path` set)
    whose statements and fetches that find the file :func:`damaged`, or whose reads the
    operating system fails, raise the 503.

    :attr:`reading` counts this connection's cursors whose rows are not all read yet: those
    whose own flag (``_Cursor._reading``) is set, each counted once, so it is never below
    zero, and :meth:`close_if_idle` closes the connection only at zero. Only
    ``_Cursor._read`` changes it, flipping the cursor's flag first, in the thread that uses
    the connection: a connection's cursors are used by one thread (``Database.conn``: one
    per thread; a reader of its own: its one user), so the unlocked ``+=`` loses no count.
    A count below zero would be a cursor counted off twice, and the connection never closed
    (``reading == 0`` never again): ``_read`` asserts it at once, rather than leave it."""

    path: Path
    # set by ``Database.write`` while its transaction runs: an I/O error is then the write's
    writing: bool = False

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.in_use = threading.Lock()  # held while SQLite runs one of this connection's calls
        self.reading = 0  # its cursors whose rows are not all read yet
        self.retired = False  # to be closed as soon as nothing runs in it (:meth:`retire`)
        self.shut = False  # closed by :meth:`retire`

    def execute(self, sql: str, parameters: Any = (), /) -> sqlite3.Cursor:
        # through a cursor of ours: sqlite3's own execute makes a plain one
        return self._cursor().execute(sql, parameters)

    def executemany(self, sql: str, parameters: Any, /) -> sqlite3.Cursor:
        return self._cursor().executemany(sql, parameters)

    def _cursor(self) -> _Cursor:
        if self.shut:
            raise closed_refusal(self.path, write=self.writing)
        return self.cursor(_Cursor)

    def retire(self) -> None:
        """Close this connection from any thread, never under its thread's read: at once when
        no call of a cursor runs, no cursor's rows are left to read and no transaction is
        open; else as the last of them ends (a write's transaction at its COMMIT or ROLLBACK,
        a cursor's rows once read to their end, or the cursor closed or dropped)."""
        self.retired = True
        self.close_if_idle()

    def released(self) -> None:
        """A call of a cursor ends: the lock let go, the connection closed if it was retired
        meanwhile and is idle now."""
        self.in_use.release()
        if self.retired:
            self.close_if_idle()

    def close_if_idle(self) -> None:
        if not self.in_use.acquire(blocking=False):
            return  # a call runs: closed as it ends
        try:
            if not self.shut and self.reading == 0 and not self.in_transaction:
                self.shut = True
                with contextlib.suppress(sqlite3.Error):
                    self.close()
        finally:
            self.in_use.release()


@contextlib.contextmanager
def writing(conn: sqlite3.Connection) -> Iterator[None]:
    """``conn`` inside a write while the block runs: a "disk I/O error" it meets is then the
    write's to say (``Database.write``), not a failed read's (a connection of another kind
    maps neither)."""
    if not isinstance(conn, DamageRefusing):
        yield
        return
    conn.writing = True
    try:
        yield
    finally:
        conn.writing = False


class _Cursor(sqlite3.Cursor):
    """A cursor whose every step (the first at ``execute``, the later ones as rows are
    fetched or iterated) refuses a damaged file. Each holds its connection in use while it
    runs, and a cursor whose rows are not all read yet (nor it closed or dropped) holds it
    open (:meth:`DamageRefusing.retire`)."""

    connection: DamageRefusing
    _reading = False  # a result not read to its end: its connection is not closed under it

    def _call(self, step: Callable[..., Any], *args: Any) -> Any:
        conn = self.connection
        conn.in_use.acquire()
        try:
            return step(self, *args)
        except sqlite3.DatabaseError as exc:
            _refuse_damage(conn, exc)
            raise
        finally:
            conn.released()

    def _read(self, reading: bool) -> None:
        """Whether rows of this cursor are still to be read (counted on its connection)."""
        if reading == self._reading:
            return
        self._reading = reading
        conn = self.connection
        if reading:
            conn.reading += 1
            return
        conn.reading -= 1
        assert conn.reading >= 0, "DamageRefusing.reading below zero: a cursor counted off twice"
        if conn.retired:
            conn.close_if_idle()

    def execute(self, sql: str, parameters: Any = (), /) -> _Cursor:
        self._read(True)  # from its first step: its rows are read right after it
        try:
            self._call(sqlite3.Cursor.execute, sql, parameters)
        except BaseException:
            self._read(False)
            raise
        if self.description is None:  # no rows to read (a write, a PRAGMA that sets)
            self._read(False)
        return self

    def executemany(self, sql: str, parameters: Any, /) -> _Cursor:
        self._call(sqlite3.Cursor.executemany, sql, parameters)
        self._read(False)
        return self

    def fetchone(self) -> Any:
        row = self._call(sqlite3.Cursor.fetchone)
        if row is None:
            self._read(False)
        return row

    def fetchmany(self, size: int | None = None) -> list[Any]:
        size = self.arraysize if size is None else size
        rows: list[Any] = self._call(sqlite3.Cursor.fetchmany, size)
        if len(rows) < size:
            self._read(False)
        return rows

    def fetchall(self) -> list[Any]:
        rows: list[Any] = self._call(sqlite3.Cursor.fetchall)
        self._read(False)
        return rows

    def __next__(self) -> Any:
        try:
            return self._call(sqlite3.Cursor.__next__)
        except StopIteration:
            self._read(False)
            raise

    def __iter__(self) -> Iterator[Any]:  # type: ignore[override]
        # a chunk per call, not a Python call per row (a long scan stays as fast)
        while rows := self.fetchmany(_CHUNK):
            yield from rows

    def close(self) -> None:
        self._read(False)
        super().close()

    def __del__(self) -> None:
        with contextlib.suppress(Exception):  # (the interpreter exiting: nothing to close)
            self._read(False)
