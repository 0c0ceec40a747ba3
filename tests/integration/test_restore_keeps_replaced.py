"""``omoide restore --force`` over a folder that holds a database (an older backup restored over
newer memories, by mistake or not) loses nothing: the database it replaces is kept beside it,
renamed ``omoide.db.replaced-<UTC time>``, as one file a later restore takes back, and stderr
says where. A restore that fails leaves the folder's database where it was.

Before: the folder's database was overwritten, and every memory written since the backup was
gone for good."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner

from omoide.cli import main

pytestmark = pytest.mark.sqlite_only  # omoide backup/restore copy SQLite files


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


def _contents(path: Path) -> list[str]:
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as conn:
        return [row[0] for row in conn.execute("SELECT content FROM memories ORDER BY id")]


def test_a_forced_restore_keeps_the_database_it_replaces(run, data: Path, tmp_path: Path) -> None:
    assert run("persona", "create", "rin").exit_code == 0
    assert run("memory", "add", "-p", "rin", "The user keeps bees").exit_code == 0
    saved = tmp_path / "saved.db"
    assert run("backup", "--to", str(saved)).exit_code == 0
    assert run("memory", "add", "-p", "rin", "The user moved to Sendai").exit_code == 0

    done = run("restore", "--from", str(saved), "--force")
    assert done.exit_code == 0, done.output
    assert done.stdout == f"restored 1 persona, 1 memory into {data / 'omoide.db'}\n"
    said = re.fullmatch(
        r"the database the folder held is kept as (\S+) \(a copy of it, as a backup is: delete "
        r"it once the restored folder is what you want; an erase does not reach it\)\n",
        done.stderr,
    )
    assert said is not None, done.stderr
    kept = Path(said.group(1))
    assert kept.parent == data
    assert re.fullmatch(r"omoide\.db\.replaced-\d{8}T\d{6}Z", kept.name), kept.name
    assert not kept.with_name(kept.name + "-wal").exists()  # one file, as a backup is
    assert oct(kept.stat().st_mode & 0o777) == oct(0o600)
    assert _contents(kept) == ["The user keeps bees", "The user moved to Sendai"]
    assert run("persona", "list").output == "rin\t1 memory\n"

    # taken back: the memory written after the backup is there again
    back = run("restore", "--from", str(kept), "--force", "--json")
    assert back.exit_code == 0, back.output
    assert run("persona", "list").output == "rin\t2 memories\n"
    again = Path(back.stderr.split(" is kept as ")[1].split()[0])
    assert again != kept and again.exists() and kept.exists()  # two restores: two copies
    assert _contents(again) == ["The user keeps bees"]
    # still one file after being read (restored from): a rollback-journal file, as a backup is
    # (in WAL mode, read left an empty -wal and a -shm beside it)
    for copy in (kept, again):
        sides = [copy.with_name(copy.name + side) for side in ("-wal", "-shm", "-journal")]
        assert [side.name for side in sides if side.exists()] == []
        assert copy.read_bytes()[18:20] == b"\x01\x01", copy  # SQLite's header: not WAL


def test_a_forced_restore_that_fails_leaves_the_folders_database(
    run, data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The copy runs out of room (a full disk): one line, and the folder's database is where
    and as it was, no copy of it left beside it."""
    assert run("persona", "create", "rin").exit_code == 0
    saved = tmp_path / "saved.db"
    assert run("backup", "--to", str(saved)).exit_code == 0
    assert run("memory", "add", "-p", "rin", "The user moved to Sendai").exit_code == 0
    from omoide.store.sqlite import backup

    connect = sqlite3.connect

    def small_disk(database: Any, *args: Any, **kwargs: Any) -> sqlite3.Connection:
        conn = connect(database, *args, **kwargs)
        if Path(str(database)) == data / "omoide.db":  # the copy finds room for 10 pages
            conn.execute("PRAGMA max_page_count = 10")
        return conn

    monkeypatch.setattr(backup.sqlite3, "connect", small_disk)
    done = run("restore", "--from", str(saved), "--force")
    assert done.exit_code == 1, done.output
    assert done.output.startswith(f"Error: cannot restore into {data / 'omoide.db'}: the disk")
    monkeypatch.setattr(backup.sqlite3, "connect", connect)
    assert sorted(p.name for p in data.iterdir() if "omoide.db" in p.name) == ["omoide.db"]
    assert run("persona", "list").output == "rin\t1 memory\n"
    assert _contents(data / "omoide.db") == ["The user moved to Sendai"]


def test_a_forced_restore_interrupted_puts_the_folders_database_back(
    run, data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl+C during the copy (or any error other than SQLite's OperationalError): the folder's
    database, renamed aside for the copy, is put back, not left under its other name beside a
    new empty database the next command would take for a new folder."""
    assert run("persona", "create", "rin").exit_code == 0
    saved = tmp_path / "saved.db"
    assert run("backup", "--to", str(saved)).exit_code == 0
    assert run("memory", "add", "-p", "rin", "The user moved to Sendai").exit_code == 0
    from omoide.store.sqlite import backup

    def interrupted(source: sqlite3.Connection, db_path: Path) -> None:
        sqlite3.connect(db_path).close()  # the copy had begun
        raise KeyboardInterrupt

    monkeypatch.setattr(backup, "_copy_into", interrupted)
    with pytest.raises(KeyboardInterrupt):
        backup.restore(saved, data / "omoide.db", force=True)
    monkeypatch.undo()
    assert sorted(p.name for p in data.iterdir() if "omoide.db" in p.name) == ["omoide.db"]
    assert _contents(data / "omoide.db") == ["The user moved to Sendai"]


def test_restore_json_says_where_the_replaced_database_is_kept(
    run, data: Path, tmp_path: Path
) -> None:
    """``--json`` carried only the counts: where the replaced database went was said on stderr
    alone, which a script reading stdout never saw."""
    assert run("persona", "create", "rin").exit_code == 0
    saved = tmp_path / "saved.db"
    assert run("backup", "--to", str(saved)).exit_code == 0
    elsewhere = tmp_path / "elsewhere"
    fresh = run("restore", "--from", str(saved), "--data", str(elsewhere), "--json")
    assert fresh.exit_code == 0, fresh.output
    told = json.loads(fresh.stdout)
    assert (told["replaced"], told["damaged"]) == (None, None)  # nothing was there to keep
    assert told["path"] == str(elsewhere / "omoide.db") and told["personas"] == 1

    done = run("restore", "--from", str(saved), "--force", "--json")
    assert done.exit_code == 0, done.output
    told = json.loads(done.stdout)
    kept = Path(done.stderr.split(" is kept as ")[1].split()[0])
    assert told["replaced"] == str(kept) and kept.parent == data and kept.exists()
    assert told["damaged"] is None
    assert {"path", "bytes", "personas", "memories", "schema"} <= told.keys()
