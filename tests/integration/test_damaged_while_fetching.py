"""A SQLite file found damaged at a later row of a query, not at its first step (the damaged
page is one the statement reaches only as its rows are fetched), is the same 503
``storage_unavailable`` naming the folder and ``omoide restore --force`` as a file found
damaged at ``execute``, on every way of reading the rows: ``fetchone``, ``fetchmany``,
``fetchall`` and iteration; and the same for a reader of its own (an export's snapshot).

Before: ``execute`` was refused, and the fetch of a later row was a 500 (``sqlite3.DatabaseError:
database disk image is malformed`` reaching the app's last resort).

The damage is real: the last pages of a checkpointed file overwritten with garbage, read by a
connection opened afterwards (no page of it cached)."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from omoide.errors import StorageUnavailable
from omoide.store.sqlite.db import Database
from omoide.store.sqlite.read_only import open_for_reading

pytestmark = pytest.mark.sqlite_only

_ROWS = 400  # of ~1 kB each: about a hundred leaf pages of 4 kB


def _damaged_at_the_tail(path: Path) -> None:
    """A table of many pages, checkpointed into the file, whose last third is garbage."""
    db = Database(path, migrate=False)
    with db.write() as conn:
        conn.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)")
        conn.executemany(
            "INSERT INTO notes (body) VALUES (?)", [(f"{n:04d}" * 250,) for n in range(_ROWS)]
        )
    assert db.checkpoint()
    db.close()
    with open(path, "r+b") as file:
        size = file.seek(0, 2)
        file.seek(size - size // 3)
        file.write(bytes(range(256)) * (size // 3 // 256 + 1))


_WAYS: dict[str, Callable[[sqlite3.Cursor], Any]] = {
    "fetchall": lambda cur: cur.fetchall(),
    "fetchmany": lambda cur: [cur.fetchmany(50) for _ in range(_ROWS // 50)],
    "fetchone": lambda cur: [cur.fetchone() for _ in range(_ROWS)],
    "iteration": lambda cur: list(cur),
    "next": lambda cur: [next(cur) for _ in range(_ROWS)],
}


def _refused_at_a_later_row(conn: sqlite3.Connection, read: Callable[[sqlite3.Cursor], Any]):
    cur = conn.execute("SELECT id, body FROM notes ORDER BY id")  # the first pages: served
    assert cur.fetchone()[0] == 1
    with pytest.raises(StorageUnavailable) as raised:
        read(cur)
    return str(raised.value)


@pytest.mark.parametrize("way", sorted(_WAYS))
def test_damage_met_while_fetching_is_the_503_of_damage_met_at_execute(
    tmp_path: Path, way: str
) -> None:
    path = tmp_path / "data" / "omoide.db"
    _damaged_at_the_tail(path)
    db = Database(path, migrate=False)
    try:
        message = _refused_at_a_later_row(db.conn(), _WAYS[way])
    finally:
        db.close()
    assert message.startswith(
        f"the database omoide.db in the data folder '{path.parent}' cannot be read "
        "(database disk image is malformed): it is damaged"
    ), message
    assert message.endswith("(omoide restore --from FILE --force); nothing was stored")
    assert "\n" not in message


def test_a_reader_of_its_own_refuses_damage_met_while_fetching(tmp_path: Path) -> None:
    """An export's snapshot opens its own connection (``open_for_reading``)."""
    path = tmp_path / "data" / "omoide.db"
    _damaged_at_the_tail(path)
    conn = open_for_reading(path, timeout=5.0, read_only=False)
    try:
        message = _refused_at_a_later_row(conn, _WAYS["iteration"])
    finally:
        conn.close()
    assert "restore it from a backup (omoide restore --from FILE --force)" in message
