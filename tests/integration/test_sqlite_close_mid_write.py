"""A SQLite database closed while a write is under way (``Database.close``): a server whose stop
no longer waited for a job leaves its handler running, and that handler may be inside a write
as the store closes. The close waits for it (``CLOSE_WAIT_S``, not at all once told to give
up); one still under way then is refused at its end, rolled back, nothing of it stored (its
connection is not closed under it: the sqlite3 module can crash the process then), and no
write begins after the close.

Before (session 46): the close took no write lock. It closed the writer's connection under it:
the write met "Cannot operate on a closed database" (a ``ProgrammingError``, and its rollback
another), and a write begun after the close opened a new connection and was stored."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from omoide.errors import StorageUnavailable
from omoide.store.sqlite import db as sqlite_db
from omoide.store.sqlite.db import Database

pytestmark = pytest.mark.sqlite_only  # about the SQLite file's connections


def _rows(path: Path) -> int:
    db = Database(path)
    try:
        return int(db.conn().execute("SELECT COUNT(*) FROM notes").fetchone()[0])
    finally:
        db.close()


@pytest.fixture
def path(tmp_path: Path) -> Path:
    path = tmp_path / "omoide.db"
    db = Database(path)
    with db.write() as conn:
        conn.execute("CREATE TABLE notes (text TEXT)")
    db.close()
    return path


def _writer(db: Database, inside: threading.Event, go_on: threading.Event) -> list[object]:
    """A thread writing two rows in one transaction, held between them until ``go_on``; what
    it ended with (None: committed)."""
    ended: list[object] = []

    def write() -> None:
        try:
            with db.write() as conn:
                conn.execute("INSERT INTO notes VALUES ('one')")
                inside.set()
                go_on.wait(10)
                conn.execute("INSERT INTO notes VALUES ('two')")
            ended.append(None)
        except Exception as exc:
            ended.append(exc)

    threading.Thread(target=write, daemon=True).start()
    return ended


def test_a_close_waits_for_a_write_under_way(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sqlite_db, "CLOSE_WAIT_S", 20.0)  # the write's 0.2 s, however loaded
    db = Database(path)
    inside, go_on = threading.Event(), threading.Event()
    ended = _writer(db, inside, go_on)
    assert inside.wait(5)
    threading.Timer(0.2, go_on.set).start()
    db.close()
    assert ended == [None]
    assert _rows(path) == 2


def test_a_write_still_under_way_when_the_close_gives_up_ends_refused_nothing_stored(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sqlite_db, "CLOSE_WAIT_S", 20.0)  # not given up: 20 s, however loaded
    db = Database(path)
    inside, go_on = threading.Event(), threading.Event()
    ended = _writer(db, inside, go_on)
    assert inside.wait(5)
    give_up = threading.Event()
    give_up.set()  # a second Ctrl+C
    started = time.monotonic()
    db.close(give_up=give_up)
    assert time.monotonic() - started < 10.0
    go_on.set()
    deadline = time.monotonic() + 5
    while not ended and time.monotonic() < deadline:
        time.sleep(0.01)
    assert len(ended) == 1 and isinstance(ended[0], StorageUnavailable), ended
    assert "was closed" in str(ended[0]) and "nothing of this write was stored" in str(ended[0])
    assert _rows(path) == 0  # not half of it


def test_no_write_begins_after_the_close(path: Path) -> None:
    db = Database(path)
    db.close()
    with pytest.raises(StorageUnavailable, match="was closed"), db.write() as conn:
        conn.execute("INSERT INTO notes VALUES ('late')")
    assert _rows(path) == 0
