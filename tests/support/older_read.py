"""A read of an older SQLite snapshot held open (a slow export's): what holds an erase's scrub
(its WAL checkpoint) back, for the tests of an owed scrub."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

__all__ = ["older_read"]


@contextmanager
def older_read(data_dir: Path, lasting_s: float | None = None) -> Iterator[Callable[[], None]]:
    """Another connection's read of a snapshot taken now, ended after ``lasting_s`` (if given)
    or when the block calls what it is given; the connection stays open, idle, until the block
    ends."""
    conn = sqlite3.connect(data_dir / "omoide.db", isolation_level=None, check_same_thread=False)
    conn.execute("BEGIN")
    conn.execute("SELECT COUNT(*) FROM memories").fetchone()
    lock = threading.Lock()

    def end() -> None:
        with lock:
            if conn.in_transaction:
                conn.execute("COMMIT")

    ends = None if lasting_s is None else threading.Timer(lasting_s, end)
    if ends is not None:
        ends.start()
    try:
        yield end
    finally:
        if ends is not None:
            ends.cancel()
            ends.join()
        end()
        conn.close()
