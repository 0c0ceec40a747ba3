"""``DamageRefusing.reading``, the count of a connection's cursors whose rows are not all read
(``store/sqlite/damage.py``): a close closes the connection only at zero, so the count must
come back to zero however a cursor ends, and is never below it (asserted where it falls)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from omoide.store.sqlite.damage import DamageRefusing

pytestmark = pytest.mark.sqlite_only  # about the SQLite file's connections


def _connect(path: Path) -> DamageRefusing:
    conn = sqlite3.connect(path, isolation_level=None, factory=DamageRefusing)
    assert isinstance(conn, DamageRefusing)
    conn.path = path
    conn.execute("CREATE TABLE t (a INTEGER)")
    conn.executemany("INSERT INTO t VALUES (?)", [(1,), (2,), (3,)])
    return conn


def test_the_reading_count_comes_back_to_zero_however_a_cursor_ends(tmp_path: Path) -> None:
    conn = _connect(tmp_path / "t.db")
    assert conn.reading == 0
    read_to_the_end = conn.execute("SELECT a FROM t")
    assert conn.reading == 1
    assert [row[0] for row in read_to_the_end] == [1, 2, 3]
    closed = conn.execute("SELECT a FROM t")
    dropped = conn.execute("SELECT a FROM t")
    assert conn.reading == 2
    closed.close()
    closed.close()  # a second close counts nothing off
    del dropped
    assert conn.reading == 0
    conn.execute("UPDATE t SET a = a")  # no rows to read
    assert conn.reading == 0
    conn.retire()
    assert conn.shut


def test_a_cursor_counted_off_twice_is_caught_where_the_count_falls(tmp_path: Path) -> None:
    conn = _connect(tmp_path / "t.db")
    cursor = conn.execute("SELECT a FROM t")
    cursor.fetchall()
    cursor._reading = True  # a bug's state: flagged as unread, already counted off
    with pytest.raises(AssertionError, match="reading below zero: a cursor counted off twice"):
        cursor.close()
    conn.close()
