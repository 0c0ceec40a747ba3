"""The data folder is 0700 and the database, WAL and SHM files 0600, whatever the umask."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from click.testing import CliRunner

from omoide.cli import main
from omoide.errors import InvalidInput
from omoide.store.sqlite.db import Database
from omoide.store.sqlite.files import private_folder


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_database_wal_and_shm_are_0600_and_the_folder_0700(tmp_path: Path) -> None:
    previous = os.umask(0o022)  # a typical login umask: files 0644 unless made private
    try:
        folder = tmp_path / "data"
        db = Database(folder / "omoide.db")
        with db.write() as conn:  # a write keeps the WAL and SHM files in place
            conn.execute("CREATE TABLE probe (x)")
        names = {p.name: mode(p) for p in folder.iterdir()}
        assert names == {"omoide.db": 0o600, "omoide.db-wal": 0o600, "omoide.db-shm": 0o600}
        assert mode(folder) == 0o700
        db.close()
    finally:
        os.umask(previous)


def test_files_of_an_older_install_are_tightened(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    Database(folder / "omoide.db").close()
    os.chmod(folder, 0o755)
    os.chmod(folder / "omoide.db", 0o644)
    Database(folder / "omoide.db").close()
    assert mode(folder) == 0o700
    assert mode(folder / "omoide.db") == 0o600


def test_the_cli_runs_with_a_private_umask(tmp_path: Path) -> None:
    previous = os.umask(0o022)
    try:
        result = CliRunner().invoke(
            main,
            ["persona", "create", "rin", "--data", str(tmp_path / "data")],
            env={"OMOIDE_EMBEDDER": "hash"},
        )
        assert result.exit_code == 0, result.output
        assert os.umask(0o022) == 0o077  # set by the command group for everything it writes
        for path in (tmp_path / "data").iterdir():
            assert mode(path) == 0o600, path
    finally:
        os.umask(previous)


def test_a_file_given_as_the_folder_keeps_its_mode(tmp_path: Path) -> None:
    """private_folder chmodded an existing path 0700 without asking whether it was a folder:
    `OMOIDE_DATA=/dev/null omoide stats` made /dev/null unwritable for every other user, and
    `--data notes.txt` changed the file's mode (probe 23). It is refused and left alone."""
    afile = tmp_path / "notes.txt"
    afile.write_text("mine", encoding="utf-8")
    os.chmod(afile, 0o644)
    with pytest.raises(InvalidInput, match="not a folder"):
        private_folder(afile)
    assert mode(afile) == 0o644
    with pytest.raises(InvalidInput, match="not a folder"):
        Database(afile / "omoide.db")
    assert mode(afile) == 0o644 and afile.read_text(encoding="utf-8") == "mine"
