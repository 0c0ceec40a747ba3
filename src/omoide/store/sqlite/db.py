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
from collections.abc import Iterator, Sequence
from pathlib import Path

from omoide.store.sqlite.files import private_database
from omoide.store.sqlite.migrations import apply_migrations
from omoide.store.tracing import Traced, Tracer

__all__ = ["Database", "persona_rows_by_id"]

logger = logging.getLogger(__name__)


MMAP_BYTES = 1 << 30  # address space for reading the file (not memory: pages are the OS's cache)


class Database(Traced):
    """One SQLite file. Thread-safe; connections are per thread."""

    def __init__(self, path: Path | str, *, migrate: bool = True, upto: int | None = None) -> None:
        self.path = Path(path)
        private_database(self.path)  # 0600 file (WAL and SHM follow), 0700 folder
        self._local = threading.local()
        self._write_lock = threading.RLock()
        self._all: list[sqlite3.Connection] = []
        self._all_lock = threading.Lock()
        self._tracer: Tracer | None = None
        if migrate:
            apply_migrations(self.conn(), upto=upto)

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(
            self.path, isolation_level=None, check_same_thread=False, timeout=30.0
        )
        conn.row_factory = sqlite3.Row
        _set_wal(conn)
        conn.execute("PRAGMA synchronous = NORMAL")
        conn.execute("PRAGMA foreign_keys = ON")
        conn.execute("PRAGMA busy_timeout = 30000")
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
        with self._write_lock:
            conn = self.conn()
            if conn.in_transaction:  # nested use inside the same use case
                yield conn
                return
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")

    @contextlib.contextmanager
    def erasing(self) -> Iterator[sqlite3.Connection]:
        """A write transaction for the user's "forget": the text it deletes leaves the folder.

        ``secure_delete`` (on for every connection) overwrites each deleted cell and freed page
        with zeros; after the commit a ``TRUNCATE`` checkpoint copies the log into the database
        file and empties the WAL, whose older frames would otherwise still hold the erased
        pages. (FTS5 keeps the tokens of deleted rows in its segments: the caller runs
        ``optimize`` on the indexes it touched, inside this transaction.)
        """
        with self._write_lock:
            conn = self.conn()
            if conn.in_transaction:
                raise RuntimeError("an erasing transaction cannot be nested in another write")
            conn.execute("PRAGMA secure_delete = ON")
            with self.write() as inner:
                yield inner
            self.checkpoint()

    def checkpoint(self, *, attempts: int = 50) -> bool:
        """Checkpoint the WAL into the database file and truncate it to zero bytes.

        Returns False (and logs) when readers of an older snapshot kept it from finishing
        within ``attempts`` tries; the busy timeout already waits for writers.
        """
        conn = self.conn()
        for _ in range(attempts):
            busy, _log, _done = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
            if not busy:
                return True
            time.sleep(0.05)
        logger.warning("WAL checkpoint still busy after %d attempts", attempts)
        return False

    def close(self) -> None:
        with self._all_lock:
            for conn in self._all:
                with contextlib.suppress(sqlite3.Error):
                    conn.close()
            self._all.clear()
        self._local = threading.local()


def _set_wal(conn: sqlite3.Connection, wait_s: float = 30.0) -> None:
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


def persona_rows_by_id(
    conn: sqlite3.Connection, select: str, alias: str, persona_id: int, ids: Sequence[int]
) -> list[sqlite3.Row]:
    """The rows of ``select`` (its table aliased ``alias``) of one persona with these ids.

    ``+alias.persona_id`` looks the rows up by primary key: the planner would otherwise pick the
    persona index and read every row of the persona (15 ms at 100k)."""
    marks = ",".join("?" * len(ids))
    return conn.execute(
        f"{select} WHERE +{alias}.persona_id = ? AND {alias}.id IN ({marks})", (persona_id, *ids)
    ).fetchall()
