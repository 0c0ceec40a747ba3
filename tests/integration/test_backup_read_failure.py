"""``omoide backup`` meeting a read of the live database the operating system fails (SQLite's
"disk I/O error", ``SQLITE_IOERR_SHORT_READ``) names the source: the database could not be
read, with SQLite's code and what to check; the target is left as it was (no file, no partial
copy). Before: "cannot write the backup FILE: disk I/O error", which blamed the target.

The failure is real (as in tests/integration/api/test_read_failing_while_serving_api.py): a
process holds the folder open, another process writes, and the write-ahead log is then cut to
zero bytes under them, so SQLite reads committed pages from a log that has none."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from omoide.cli import main
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
