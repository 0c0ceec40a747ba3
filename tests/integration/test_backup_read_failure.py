"""``omoide backup`` meeting a read of the live database the operating system fails (SQLite's
"disk I/O error", ``SQLITE_IOERR_SHORT_READ``) names the source: the database could not be
read, with SQLite's code and what to check; the target is left as it was (no file, no partial
copy). Before: "cannot write the backup FILE: disk I/O error", which blamed the target.

The failure is real (as in tests/integration/api/test_read_failing_while_serving_api.py): a
process holds the folder open, another process writes, and the write-ahead log is then cut to
zero bytes under them, so SQLite reads committed pages from a log that has none.

The check of the copy, after it is written, tells the two apart the same way: a copy that
cannot be read back is said as that copy's read failure, naming the file and the error; the
database is said to be damaged only when SQLite finds the copy damaged. Before: any error of
that check, a failed read of the copy included, was "the database is damaged"."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from omoide.cli import main
from omoide.errors import InvalidInput
from omoide.store.sqlite.backup import _check_copy
from omoide.wiring import Omoide

pytestmark = pytest.mark.sqlite_only


def _cli(data: Path, *args: str) -> tuple[int, str]:
    """``omoide ARGS`` on the folder: another process's connections, as far as SQLite knows."""
    environ = {"OMOIDE_DATA": str(data), "OMOIDE_EMBEDDER": "hash", "OMOIDE_DATABASE_URL": None}
    done = CliRunner().invoke(main, list(args), env=environ)  # type: ignore[arg-type]
    return done.exit_code, done.output


def test_a_backup_whose_source_read_fails_names_the_database_not_the_target(
    make_app: Callable[..., Omoide], data_dir: Path, tmp_path: Path
) -> None:
    app = make_app({"OMOIDE_WORKERS": "0"})  # the server, holding the folder open
    app.auth.create_persona("rin")
    code, out = _cli(data_dir, "memory", "add", "-p", "rin", "The user grows tomatoes.")
    assert code == 0, out
    wal = app.settings.db_path.with_name(app.settings.db_path.name + "-wal")
    logged = wal.read_bytes()
    target = tmp_path / "omoide-backup.db"
    wal.write_bytes(b"")  # cut short: the folder's index still says the pages are in it
    try:
        code, out = _cli(data_dir, "backup", "--to", str(target))
    finally:
        wal.write_bytes(logged)
    assert code != 0
    assert "cannot write the backup" not in out, out
    assert out.startswith(
        f"Error: the data folder {str(data_dir)!r} failed a read of omoide.db (disk I/O error, "
        "SQLITE_IOERR_SHORT_READ) while this process had it open: the disk or the file system "
        "under it is failing reads"
    ), out
    assert "No backup was written" in out, out
    assert not target.exists()
    assert list(tmp_path.glob("omoide-backup.db*")) == []
    code, out = _cli(data_dir, "backup", "--to", str(target))  # it reads again: backed up
    assert code == 0, out
    assert target.exists()


def _a_copy(path: Path) -> None:
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE notes (body TEXT)")
        conn.executemany("INSERT INTO notes VALUES (?)", [("x" * 500,)] * 200)
    conn.close()


def test_a_copy_that_cannot_be_read_back_is_said_unreadable_not_the_database_damaged(
    tmp_path: Path,
) -> None:
    copy = tmp_path / "omoide-backup.db.partial"
    _a_copy(copy)
    holder = sqlite3.connect(copy, isolation_level=None)  # keeps its log while it is cut
    holder.execute("PRAGMA journal_mode = WAL")
    holder.execute("INSERT INTO notes VALUES ('in the log only')")
    checking = sqlite3.connect(copy)
    copy.with_name(copy.name + "-wal").write_bytes(b"")
    try:
        with pytest.raises(InvalidInput) as refused:
            _check_copy(checking, copy, tmp_path / "data" / "omoide.db")
    finally:
        checking.close()
        holder.close()
    assert str(refused.value).startswith(
        f"cannot read back the backup's copy {copy} to check it: disk I/O error "
        "(SQLITE_IOERR_SHORT_READ); no backup was written"
    ), refused.value
    assert "damaged" not in str(refused.value)


def test_a_copy_sqlite_finds_malformed_says_the_database_is_damaged(tmp_path: Path) -> None:
    copy = tmp_path / "omoide-backup.db.partial"
    _a_copy(copy)
    pages = bytearray(copy.read_bytes())
    pages[3 * 4096 : 3 * 4096 + 200] = b"\xff" * 200  # a table page's header and cells
    copy.write_bytes(bytes(pages))
    db_path = tmp_path / "data" / "omoide.db"
    checking = sqlite3.connect(copy)
    try:
        with pytest.raises(InvalidInput) as refused:
            _check_copy(checking, copy, db_path)
    finally:
        checking.close()
    assert str(refused.value).startswith(
        f"{db_path} is damaged (SQLite's integrity check of its copy: database disk image is "
        "malformed); no backup was written"
    ), refused.value
