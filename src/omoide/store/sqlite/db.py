"""SQLite connections: WAL, busy timeout, foreign keys, one writer at a time.

Each thread gets its own connection (sqlite3 connections are not shared across threads). Writes
go through :meth:`Database.write`, which holds a process-wide lock and runs ``BEGIN IMMEDIATE`` …
``COMMIT`` so that a use case is one transaction and writers never deadlock on upgrade.
"""

from __future__ import annotations

import contextlib
import logging
import sqlite3
import threading
import time
from collections.abc import Iterator
from pathlib import Path

from omoide.engine.errors import path_named
from omoide.errors import Conflict, InvalidInput, StorageFull, StorageUnavailable
from omoide.stopping import acquired
from omoide.store.owed_scrub import OwedScrub
from omoide.store.sqlite.codes import busy, disk_full, set_wal, unwritable
from omoide.store.sqlite.damage import (
    DamageRefusing,
    closed_refusal,
    damaged,
    no_room_for_shm,
    shm_full,
    unreadable,
    writing,
)
from omoide.store.sqlite.files import private_database
from omoide.store.sqlite.migrations import MIGRATIONS, apply_migrations
from omoide.store.sqlite.read_only import (
    connect_read_only,
    is_read_only,
    read_only_refusal,
    require_schema,
)
from omoide.store.sqlite.upgrade import upgrade_alone
from omoide.store.tracing import Traced, Tracer

__all__ = ["Database"]

logger = logging.getLogger(__name__)


BUSY_TIMEOUT_MS = 30000  # a write waits this long for another process's write
CHECKPOINT_WAIT_S = 2.5  # an erase waits this long for older readers before owing its checkpoint
CHECKPOINT_TRY_MS = 50  # one checkpoint try's busy wait
SETTLE_EVERY_S = 0.25  # how often an owed checkpoint is tried again
MMAP_BYTES = 1 << 30  # address space for reading the file (not memory: pages are the OS's cache)
CLOSE_WAIT_S = 2.0  # how long a close waits for a write under way (a handler a stop left) to end


class Database(Traced):
    """One SQLite file. Thread-safe; connections are per thread."""

    def __init__(self, path: Path | str, *, migrate: bool = True, upto: int | None = None) -> None:
        self.path = Path(path)
        # a folder this process may only read (a backup mounted read-only): read, never written
        self.read_only = is_read_only(self.path)
        if not self.read_only:
            private_database(self.path)  # 0600 file (WAL and SHM follow), 0700 folder
        self._local = threading.local()
        self._write_lock = threading.RLock()
        self._closed = False  # closed: every write refused (:meth:`close`)
        self._all: list[sqlite3.Connection] = []
        self._all_lock = threading.Lock()
        self._tracer: Tracer | None = None
        # the checkpoint an erase owes, retried in the background (see :meth:`erasing`)
        self._scrub = OwedScrub(
            self._tried_checkpoint,
            every_s=SETTLE_EVERY_S,
            thread_name="omoide-erase-checkpoint",
            done="the owed WAL checkpoint is done: the erased text left the WAL",
        )
        if migrate:
            try:
                self._migrate(upto)
            except (sqlite3.DatabaseError, StorageUnavailable) as exc:
                cause = exc.__cause__ if isinstance(exc, StorageUnavailable) else exc
                if not damaged(cause):
                    raise
                self.close()
                raise InvalidInput(
                    f"{unreadable(self.path, cause)}, or give another folder "
                    "(OMOIDE_DATA or --data)"
                ) from None
            except Conflict:  # a newer Omoide's schema (newer_schema.py), or an upgrade refused
                self.close()
                raise
            if not self.read_only:
                # a checkpoint another process's erase still owes (see :meth:`erasing`)
                self._tried_checkpoint()

    def _migrate(self, upto: int | None) -> None:
        if self.read_only:
            wanted = [m.number for m in MIGRATIONS if upto is None or m.number <= upto]
            require_schema(self.conn(), self.path, wanted, [m.number for m in MIGRATIONS])
            return
        upgrade_alone(self.path, upto=upto)  # an older schema, with no other process in it
        apply_migrations(self.conn(), upto=upto)  # a new database's

    def _connect(self) -> sqlite3.Connection:
        if self.read_only:
            conn = connect_read_only(self.path, timeout=30.0)
        else:
            conn = sqlite3.connect(
                self.path,
                isolation_level=None,
                check_same_thread=False,
                timeout=30.0,
                factory=DamageRefusing,
            )
            conn.path = self.path
            set_wal(conn)
        conn.row_factory = sqlite3.Row
        conn.execute("PRAGMA synchronous = NORMAL")
        conn.execute("PRAGMA foreign_keys = ON")
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        # Deleted or rewritten content is overwritten with zeros, not left in free space: a
        # purge can only erase text whose older copies (an edited memory's previous content,
        # a rewritten FTS row) were not left behind by earlier writes. Debian's SQLite is
        # built with this on, so every measurement in bench/results already includes its cost.
        conn.execute("PRAGMA secure_delete = ON")
        # Reads through a shared memory map instead of a read() per page into each thread's
        # 2 MB cache: at 100k memories a keyword search touches thousands of pages (its BM25
        # pass and the persona join); measured -30% CPU per search (bench/results/scale_sqlite.md).
        # Writes still go through the WAL as before.
        conn.execute(f"PRAGMA mmap_size = {MMAP_BYTES}")
        if self._tracer is not None:
            conn.set_trace_callback(self._tracer)
        with self._all_lock:
            self._all.append(conn)
        return conn

    @property
    def tracer(self) -> Tracer | None:
        return self._tracer

    @tracer.setter
    def tracer(self, tracer: Tracer | None) -> None:
        """See every statement (tests count queries). Installed only while set: SQLite calls
        it for each statement FTS5 runs internally too, which costs ~1 ms per search."""
        self._tracer = tracer
        with self._all_lock:
            for conn in self._all:
                conn.set_trace_callback(tracer)

    def conn(self) -> sqlite3.Connection:
        """This thread's connection (autocommit mode; reads see the latest commit)."""
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = self._connect()
            self._local.conn = conn
        return conn

    @contextlib.contextmanager
    def write(self) -> Iterator[sqlite3.Connection]:
        """One write transaction: commit on success, roll back on any exception."""
        if self.read_only:
            raise read_only_refusal(self.path)
        with self._write_lock:
            if self._closed:  # (a job's handler a stop no longer waited for, still running)
                raise closed_refusal(self.path, write=True)
            conn = self.conn()
            if conn.in_transaction:  # nested use inside the same use case
                yield conn
                return
            with writing(conn):
                try:
                    conn.execute("BEGIN IMMEDIATE")
                except sqlite3.OperationalError as exc:
                    self._refuse(exc)
                    raise
                try:
                    yield conn
                    if self._closed:  # closed while it ran (a handler a stop left): not stored
                        raise closed_refusal(self.path, write=True)
                    conn.execute("COMMIT")
                except BaseException as exc:
                    # SQLite may have rolled back already (a full disk does): a ROLLBACK then
                    # would raise "no transaction is active" over the real error.
                    if conn.in_transaction:
                        conn.execute("ROLLBACK")
                    self._refuse(exc)
                    raise

    def _refuse(self, exc: BaseException) -> None:
        """Raise what a write transaction that SQLite refused with ``exc`` answers (chained to
        it); return for an error that is not the storage's to name (the caller re-raises it)."""
        if disk_full(exc):
            raise StorageFull(
                f"the disk of the data folder {path_named(self.path.parent)} is full; "
                "nothing of this write was stored: free some space and try again"
            ) from exc
        if shm_full(exc):
            raise no_room_for_shm(self.path) from exc
        if busy(exc):
            raise self._locked() from exc
        if unwritable(exc):
            raise self._unwritable(exc) from exc

    def _unwritable(self, exc: BaseException) -> StorageUnavailable:
        """A folder opened writable that stopped taking writes under this process (SQLite's
        ``SQLITE_READONLY`` or ``SQLITE_IOERR``): a file system the kernel remounted read-only
        after a disk error, the files' mode, owner or immutable flag changed, a disk failing
        writes. Not the request's fault: a 503, and the next write succeeds once the folder
        takes writes again (a folder read-only from the open is refused before, in one line
        for a command: :func:`read_only_refusal`)."""
        folder = path_named(self.path.parent)
        what = "became read-only" if is_read_only(self.path) else f"refused a write ({exc})"
        return StorageUnavailable(
            f"the data folder {folder} {what} while this process had it open; nothing of "
            "this write was stored: make the folder and its files writable again (a file "
            "system remounted read-only after a disk error: see the system log), then try "
            "again; reads go on"
        )

    def _locked(self) -> StorageUnavailable:
        """Another program held the database's write lock for the whole busy wait (a
        ``sqlite3`` shell left in a transaction, a stuck tool): Omoide's own processes never
        hold it that long."""
        return StorageUnavailable(
            f"the database of the data folder {path_named(self.path.parent)} stayed locked by "
            f"another program for {BUSY_TIMEOUT_MS / 1000:g} s (one holding {self.path.name} "
            "open inside a write, e.g. a sqlite3 shell); nothing was written: end that "
            "program's transaction and try again",
            retry_after="5",
        )

    @contextlib.contextmanager
    def erasing(self) -> Iterator[sqlite3.Connection]:
        """A write transaction for the user's "forget": the text it deletes leaves the folder.

        ``secure_delete`` (on for every connection) overwrites each deleted cell and freed page
        with zeros; after the commit a ``TRUNCATE`` checkpoint copies the log into the database
        file and empties the WAL, whose older frames would otherwise still hold the erased
        pages. (FTS5 keeps the tokens of deleted rows in its segments: the caller runs
        ``optimize`` on the indexes it touched, inside this transaction.)

        The checkpoint runs after the write lock is released, so other writes go on while it
        waits. A read that began before the commit (an export being downloaded, another
        process's long query) still sees the erased rows, and their pages cannot be
        overwritten until it ends: after a short wait the checkpoint is owed, and a thread of
        this process retries it every :data:`SETTLE_EVERY_S` until that read has ended
        (:class:`~omoide.store.owed_scrub.OwedScrub`). So is one the folder refuses (it stopped
        taking writes, or its disk is full, after the commit): the erase is committed and no
        read finds the text, so it is neither undone nor a failure; the text leaves the files
        once the folder takes writes (:attr:`scrub_pending`).

        An owed checkpoint is not recorded in the file: one this process could not do before
        it ended (a crash, or a close while the read lasted) is done by the next process to
        open the folder, which tries one ``TRUNCATE`` checkpoint at its open, at once
        (tests/integration/test_erase_under_readers.py). Not SQLite's own checkpoint at the
        close of a process's last connection: another connection left open anywhere (the
        process whose read held the erase back, now idle; a ``sqlite3`` shell) keeps that from
        running. Only a read still running at that open leaves it to the next erase, or to
        the next process to open the folder after that read.
        """
        with self._write_lock:
            conn = self.conn()
            if conn.in_transaction:
                raise RuntimeError("an erasing transaction cannot be nested in another write")
            conn.execute("PRAGMA secure_delete = ON")
            with self.write() as inner:
                yield inner
        if not self._scrubbed():
            self._scrub.owe()

    @property
    def scrub_pending(self) -> bool:
        """Whether text an erase removed may still be in the folder's files: a checkpoint is
        owed (a read of an older snapshot still runs, or the folder refused it) and retried
        in the background until it succeeds."""
        return self._scrub.pending

    def _scrubbed(self) -> bool:
        """The erase's checkpoint; False (said in the log) when it has to be owed. It runs
        after the commit, so no error of it fails the erase: one the folder refuses, a file
        found damaged (the 503 a read would raise), any other of SQLite's is the scrub's, owed
        and retried like :meth:`_tried_checkpoint`'s (before: the reply to a committed erase
        was a 503 saying "nothing was stored", or a 500)."""
        try:
            if self.checkpoint():
                return True
        except (sqlite3.Error, StorageUnavailable) as exc:
            logger.warning(
                "an erase's WAL checkpoint failed in the data folder %s (%s): the erase is "
                "committed, but the erased text stays in its files until a checkpoint "
                "succeeds; retried in the background",
                path_named(self.path.parent),
                exc,
            )
            return False
        logger.warning(
            "an erase's WAL checkpoint waits for a read of an older snapshot to end (an "
            "export being downloaded?); it is retried in the background meanwhile"
        )
        return False

    def checkpoint(self, *, wait_s: float = CHECKPOINT_WAIT_S) -> bool:
        """Checkpoint the WAL into the database file and truncate it to zero bytes.

        Returns False when readers of an older snapshot kept it from finishing
        within ``wait_s`` seconds. Each try waits at most :data:`CHECKPOINT_TRY_MS` (the
        connection's busy timeout would otherwise hold it for 30 s per try while a reader
        lasts).
        """
        conn = self.conn()
        deadline = time.monotonic() + wait_s
        conn.execute(f"PRAGMA busy_timeout = {CHECKPOINT_TRY_MS}")
        try:
            with writing(conn):  # it writes the database file: its I/O error is a write's
                while True:
                    busy, _log, _done = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
                    if not busy:
                        return True
                    if time.monotonic() >= deadline:
                        break
                    time.sleep(CHECKPOINT_TRY_MS / 1000)
        finally:
            if not getattr(conn, "shut", False):  # (a close took it between two tries)
                conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        return False

    def _tried_checkpoint(self) -> bool:
        """One try of an owed checkpoint, at once. A refusal of the folder (it stopped taking
        writes) is not done yet: this thread's connection is dropped, since one opened while
        the files refused writes stays read-only, and the next try opens another."""
        try:
            return self.checkpoint(wait_s=0)
        except (sqlite3.Error, StorageUnavailable):
            conn = self._local.__dict__.pop("conn", None)
            if conn is not None:
                with self._all_lock:
                    if conn in self._all:  # (else a close took it meanwhile)
                        self._all.remove(conn)
                with contextlib.suppress(sqlite3.Error):
                    conn.close()
            return False

    def close(self, *, scrub_wait_s: float = 0.0, give_up: threading.Event | None = None) -> None:
        """Close every connection. An owed checkpoint is tried first, this process's last
        chance: once, or for up to ``scrub_wait_s`` seconds (a command about to end:
        ``cli_common.holding``) unless ``give_up`` is set first. Then every write is refused
        (:meth:`write`), one under way waited for up to :data:`CLOSE_WAIT_S` (until ``give_up``
        is set): a job's handler a server's stop no longer waited for may still run."""
        if not self._scrub.settle(scrub_wait_s, give_up=give_up):
            logger.warning(
                "erased text stays in the files of %s until the read that holds it ends and "
                "the next erase, or the next process to open the folder, checkpoints its WAL",
                self.path.name,
            )
        # A write under way (a handler a stop no longer waited for) is waited for, within
        # CLOSE_WAIT_S or until ``give_up`` is set; from then on every write is refused, one
        # still under way then at its end (rolled back: nothing of it stored). Each connection
        # is closed once no statement runs in it and no transaction is open
        # (``DamageRefusing.retire``): an idle one at once, one in another thread's hands (a
        # read of a handler a stop left, that write, the retry thread's checkpoint try) as its
        # statement or transaction ends; closed under a statement it runs, the sqlite3 module
        # crashes the process. A statement on it after that is refused, as a write is.
        locked = acquired(self._write_lock, time.monotonic() + CLOSE_WAIT_S, give_up)
        self._closed = True
        try:
            with self._all_lock:
                for conn in self._all:
                    retire(conn)
                self._all = []
            self._local = threading.local()
        finally:
            if locked:
                self._write_lock.release()


def retire(conn: sqlite3.Connection) -> None:
    """Close ``conn`` as soon as no statement or transaction runs in it; a plain connection (the
    read-only folder's, whose factory is ours too) at once."""
    if isinstance(conn, DamageRefusing):
        conn.retire()
        return
    with contextlib.suppress(sqlite3.Error):
        conn.close()
