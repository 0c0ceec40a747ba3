"""A data folder whose ``omoide.db`` SQLite cannot read (a file that is no database, or one cut
short: a copy interrupted, a disk that failed) is one line naming the folder and the remedy,
and the remedy it names, ``omoide restore --force``, works: the damaged file is kept aside.

Before: every command, ``serve`` included, was a traceback of ``sqlite3.DatabaseError``; and
``omoide restore --force`` was one too, since the copy opened the damaged file first."""

from __future__ import annotations

import json
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from omoide.cli import main


@pytest.fixture
def data(tmp_path: Path) -> Path:
    return tmp_path / "data"


@pytest.fixture
def run(data: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("OMOIDE_EMBEDDER", "hash")
    monkeypatch.setenv("OMOIDE_DATA", str(data))
    monkeypatch.delenv("OMOIDE_DATABASE_URL", raising=False)

    def invoke(*args: str) -> click.testing.Result:
        return CliRunner().invoke(main, list(args), catch_exceptions=False)

    return invoke


@pytest.mark.parametrize(
    ("damage", "said"),
    [("not a database", "file is not a database"), ("cut short", "disk image is malformed")],
)
def test_a_damaged_database_is_one_line_and_restore_force_replaces_it(
    run, data: Path, tmp_path: Path, damage: str, said: str
) -> None:
    assert run("persona", "create", "rin").exit_code == 0
    assert run("memory", "add", "-p", "rin", "The user keeps bees").exit_code == 0
    saved = tmp_path / "saved.db"
    assert run("backup", "--to", str(saved)).exit_code == 0
    database = data / "omoide.db"
    whole = saved.read_bytes()  # the whole database, as one file
    for name in ("omoide.db", "omoide.db-wal", "omoide.db-shm"):  # a new file, as a copy is
        (data / name).unlink(missing_ok=True)
    database.write_bytes(
        b"this is no database\n" * 50 if damage == "not a database" else whole[:8192]
    )
    for command in [
        ("persona", "list"),
        ("search", "-p", "rin", "bees"),
        ("memory", "add", "-p", "rin", "x"),
    ]:
        done = run(*command)
        assert done.exit_code == 1, done.output
        assert done.output.count("\n") == 1, done.output
        assert done.output.startswith(
            f"Error: the database omoide.db in the data folder '{data}' cannot be read ("
        )
        assert said in done.output and "omoide restore --from FILE --force" in done.output
    refused = run("restore", "--from", str(saved))  # without --force: still refused
    assert refused.exit_code == 1 and "pass --force" in refused.output
    damaged = database.read_bytes()
    done = run("restore", "--from", str(saved), "--force")
    assert done.exit_code == 0, done.output
    assert done.output.endswith(f"(the damaged database is kept as {data / 'omoide.db.damaged'})\n")
    assert (data / "omoide.db.damaged").read_bytes() == damaged
    assert run("persona", "list").output == "rin\t1 memory\n"
    database.write_bytes(damaged)  # damaged again: --json says where this one is kept
    (data / "omoide.db-wal").unlink(missing_ok=True)
    again = run("restore", "--from", str(saved), "--force", "--json")
    assert again.exit_code == 0, again.output
    told = json.loads(again.stdout)
    assert (told["damaged"], told["replaced"]) == (str(data / "omoide.db.damaged-2"), None)
    assert (data / "omoide.db.damaged-2").read_bytes() == damaged
