"""Session 36's data-lifecycle probe through the CLI (click's runner, a real SQLite folder): a
data folder on a read-only file system, a full disk (the folder's, a backup's, a restore's), an
import whose process was killed before it printed the key of the persona it made, and an older
schema upgraded while an older version's process still had it open."""

from __future__ import annotations

import contextlib
import errno
import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner

from omoide.cli import main
from omoide.config import Settings
from omoide.store.sqlite.db import Database
from omoide.wiring import build


@pytest.fixture
def data(tmp_path: Path) -> Path:
    return tmp_path / "data"


@pytest.fixture
def run(data: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("OMOIDE_EMBEDDER", "hash")
    monkeypatch.setenv("OMOIDE_DATA", str(data))

    def invoke(*args: str, input: str | None = None) -> click.testing.Result:
        # catch_exceptions=False: a traceback fails the test instead of being an exit code
        return CliRunner().invoke(main, list(args), input=input, catch_exceptions=False)

    return invoke


def read_only(monkeypatch: pytest.MonkeyPatch, folder: Path) -> None:
    """The folder as a read-only mount shows it: every change of a mode and every open for
    writing inside it fails with EROFS (root included, whom no mode stops)."""
    real_chmod, real_open = os.chmod, os.open

    def inside(path: Any) -> bool:
        return Path(os.fsdecode(path)).absolute().is_relative_to(folder.absolute())

    def refused(path: Any) -> OSError:
        return OSError(errno.EROFS, os.strerror(errno.EROFS), os.fsdecode(path))

    def chmod(path: Any, mode: int, *args: Any, **kwargs: Any) -> None:
        if inside(path):
            raise refused(path)
        real_chmod(path, mode, *args, **kwargs)

    def open_(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        if inside(path) and flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT):
            raise refused(path)
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "chmod", chmod)
    monkeypatch.setattr(os, "open", open_)


@pytest.mark.parametrize(
    "command",
    [
        ("persona", "create", "ken"),
        ("memory", "add", "-p", "rin", "The user likes green tea"),
    ],
)
def test_a_data_folder_on_a_read_only_file_system_is_named(
    run, data: Path, monkeypatch: pytest.MonkeyPatch, command: tuple[str, ...]
) -> None:
    """A folder already 0700 on a read-only mount (a backup's snapshot, a container's read-only
    volume): every command was a traceback of the chmod that tightens an older install's
    folder, which had nothing to tighten. (A writing command, as here: the reading ones read
    such a folder, on a real read-only mount in test_qa37_read_only_folder.py.)"""
    assert run("persona", "create", "rin").exit_code == 0
    read_only(monkeypatch, data)
    done = run(*command)
    assert done.exit_code == 1, done.output
    assert done.output.startswith(f"Error: cannot write in the data folder '{data}': "), done.output
    assert "Read-only file system" in done.output


T = "2026-11-01T10:00:00+00:00"


def export_file(path: Path, memories: int) -> Path:
    """An Omoide export of ``memories`` notes and one conversation, as ``omoide export``
    writes it."""
    records: list[dict[str, Any]] = [{"type": "settings", "overrides": {}}]
    records.append(
        {
            "type": "session",
            "session_id": "s1",
            "started_at": T,
            "ended_at": T,
            "metadata": {},
            "segmented_upto_seq": 1,
            "open_reason": "start",
            "open_surprise": 0.0,
            "last_event_at": T,
            "ended_by": "client",
        }
    )
    records.append(
        {
            "type": "event",
            "session_id": "s1",
            "seq": 1,
            "speaker": "user",
            "role": "user",
            "content": "I moved to Sendai last spring",
            "timestamp": T,
            "external_id": "m1",
            "metadata": {},
            "created_at": T,
        }
    )
    for i in range(memories):
        after = {
            "content": f"note {i}: the user keeps bees number {i}",
            "kind": "note",
            "importance": 0.5,
            "tags": [],
            "emotion_type": None,
            "emotion_intensity": 0.0,
            "valid_from": None,
            "valid_until": None,
            "superseded_by": None,
            "summary_ref": None,
            "status": "active",
            "metadata": {},
        }
        records.append(
            {
                "type": "memory",
                "key": f"mem_{i:016x}",
                **after,
                "source": "user",
                "source_ref": None,
                "created_at": T,
                "updated_at": T,
                "access_count": 0,
                "last_accessed": None,
                "evolved_at": T,
                "strength": 0.5,
                "stability": 1.0,
                "last_decay_at": T,
                "versions": [
                    {
                        "version": 1,
                        "change": "create",
                        "changed_by": "user",
                        "changed_at": T,
                        "before": None,
                        "after": after,
                        "cause": None,
                    }
                ],
                "sources": [],
            }
        )
    header = {
        "type": "header",
        "format": "omoide-export",
        "version": 1,
        "persona": "rin",
        "embedder": {"model_id": "hash-ngram-256", "dim": 256},
        "exported_at": T,
        "with_vectors": False,
        "ends": True,
    }
    lines = [header, *records, {"type": "end", "records": len(records)}]
    path.write_text("".join(json.dumps(r) + "\n" for r in lines), encoding="utf-8")
    return path


# `omoide import` killed (SIGKILL: nothing of Python runs after it) once its second batch of
# memories is embedded: the conversation and the first batch are stored, the rest is not.
KILLED_AFTER_A_BATCH = """
import os, signal
from omoide.service.transfer import restore

embed_rows = restore.RestoreRun._embed_rows
batches = []

def killed(self, *args, **kwargs):
    embed_rows(self, *args, **kwargs)
    batches.append(1)
    if len(batches) == 3:
        os.kill(os.getpid(), signal.SIGKILL)

restore.RestoreRun._embed_rows = killed
from omoide.cli import main
from omoide.config import Settings
from omoide.wiring import build
main(["import", "-p", "rin", {file!r}])
"""


def test_an_import_killed_half_way_gives_its_persona_a_key_when_run_again(
    run, data: Path, tmp_path: Path
) -> None:
    """Before, the persona was made with its key when the import began and the key printed
    when it ended: an import killed between left a persona whose key nobody ever saw, and the
    re-run that finished the import printed none."""
    file = export_file(tmp_path / "rin.jsonl", memories=600)
    environ = {**os.environ, "OMOIDE_EMBEDDER": "hash", "OMOIDE_DATA": str(data)}
    killed = subprocess.run(
        [sys.executable, "-c", KILLED_AFTER_A_BATCH.format(file=str(file))],
        env=environ,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    assert "api key" not in killed.stderr
    listed = run("persona", "list").output
    assert listed.startswith("rin\t") and "600 memories" not in listed  # half of it is in

    done = run("import", "-p", "rin", str(file))
    assert done.exit_code == 0, done.output
    assert "0 already there" not in done.output  # the re-run finished what was there
    found = re.search(r"api key \(shown once\): (omo_p_\S+)", done.output)
    assert found, done.output
    assert "the import that created it was interrupted" in done.output
    assert run("persona", "list").output.startswith("rin\t600 memories")
    app = build(Settings.from_env(environ, data_dir=data))
    try:
        assert app.auth.authenticate(f"Bearer {found.group(1)}").persona == "rin"
    finally:
        app.close()
    again = run("import", "-p", "rin", str(file))  # a persona with its key prints no other
    assert again.exit_code == 0 and "api key" not in again.output


def test_an_import_into_a_new_persona_prints_its_key_once_it_is_in(run, tmp_path: Path) -> None:
    file = export_file(tmp_path / "rin.jsonl", memories=3)
    done = run("import", "-p", "rin", str(file))
    assert done.exit_code == 0, done.output
    assert "created persona rin; api key (shown once): omo_p_" in done.output
    listed = run("persona", "key", "list", "rin", "--json")
    assert len(json.loads(listed.output)) == 1


def full_disk(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every connection of the command finds no room beyond the pages the file has: SQLite's
    own ``SQLITE_FULL`` ("database or disk is full"), as a full disk gives it."""
    connect = Database._connect

    def no_room(self: Database) -> sqlite3.Connection:
        conn = connect(self)
        pages = conn.execute("PRAGMA page_count").fetchone()[0]
        conn.execute(f"PRAGMA max_page_count = {pages}")
        return conn

    monkeypatch.setattr(Database, "_connect", no_room)


def test_a_full_disk_is_one_line_naming_the_folder(
    run, data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Before: a Python traceback of sqlite3.OperationalError (two for an import, whose clean-up
    met the full disk again); over HTTP a 500 "internal error"."""
    assert run("persona", "create", "rin").exit_code == 0
    full_disk(monkeypatch)
    for command in [
        ("memory", "add", "-p", "rin", "The user keeps bees " * 2000),
        ("import", "-p", "ken", str(export_file(tmp_path / "ken.jsonl", memories=300))),
    ]:
        done = run(*command)
        assert done.exit_code == 1, done.output
        assert f"Error: the disk of the data folder '{data}' is full" in done.output
        assert "free some space" in done.output
    monkeypatch.undo()
    monkeypatch.setenv("OMOIDE_EMBEDDER", "hash")
    monkeypatch.setenv("OMOIDE_DATA", str(data))
    assert run("memory", "list", "-p", "rin").output == "(no memories)\n"  # none half-stored
    assert run("persona", "list").output == "rin\t0 memories\n"  # the import's is erased again
    assert run("memory", "add", "-p", "rin", "The user keeps bees").exit_code == 0


def test_a_backup_onto_a_full_disk_is_one_line_and_leaves_no_file(
    run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Before: a traceback of sqlite3.OperationalError, and the copy's rollback journal
    (``FILE.partial-journal``) left beside the target."""
    assert run("persona", "create", "rin").exit_code == 0
    assert run("memory", "add", "-p", "rin", "The user keeps bees").exit_code == 0
    from omoide.store.sqlite import backup

    connect = sqlite3.connect

    def small_disk(database: Any, *args: Any, **kwargs: Any) -> sqlite3.Connection:
        conn = connect(database, *args, **kwargs)
        if str(database).endswith(".partial"):  # the copy finds room for 10 pages only
            conn.execute("PRAGMA max_page_count = 10")
        return conn

    monkeypatch.setattr(backup.sqlite3, "connect", small_disk)
    folder = tmp_path / "backups"
    folder.mkdir()
    done = run("backup", "--to", str(folder / "omoide.db"))
    assert done.exit_code == 1, done.output
    assert done.output == (
        f"Error: cannot write the backup {folder / 'omoide.db'}: the disk is full; nothing "
        "was written (free some space and run it again)\n"
    )
    assert list(folder.iterdir()) == []


def test_a_restore_onto_a_full_disk_is_one_line_and_leaves_no_empty_database(
    run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Before: a traceback, and an empty ``omoide.db`` left in the new folder, which the next
    command took for a new data folder ("(no personas)") and the next restore refused as a
    folder that "already holds a database"."""
    assert run("persona", "create", "rin").exit_code == 0
    assert run("memory", "add", "-p", "rin", "The user keeps bees").exit_code == 0
    saved = tmp_path / "saved.db"
    assert run("backup", "--to", str(saved)).exit_code == 0
    from omoide.store.sqlite import backup

    connect = sqlite3.connect
    restored = tmp_path / "restored"

    def small_disk(database: Any, *args: Any, **kwargs: Any) -> sqlite3.Connection:
        conn = connect(database, *args, **kwargs)
        if Path(str(database)).parent == restored:  # the new folder finds room for 10 pages
            conn.execute("PRAGMA max_page_count = 10")
        return conn

    monkeypatch.setattr(backup.sqlite3, "connect", small_disk)
    done = run("restore", "--data", str(restored), "--from", str(saved))
    assert done.exit_code == 1, done.output
    assert done.output.startswith(
        f"Error: cannot restore into {restored / 'omoide.db'}: the disk is full"
    )
    assert sorted(p.name for p in restored.iterdir()) == ["omoide.lock"]
    monkeypatch.setattr(backup.sqlite3, "connect", connect)
    again = run("restore", "--data", str(restored), "--from", str(saved))
    assert again.exit_code == 0, again.output
    assert run("persona", "list", "--data", str(restored)).output == "rin\t1 memory\n"


# An older Omoide's process on the folder: a connection that has read the database and stays
# open, as a server's does (SQLite holds a WAL database's shared lock while it is open).
OLDER_SERVER = """
import sqlite3, sys, time
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("SELECT COUNT(*) FROM memories").fetchone()
print("open", flush=True)
time.sleep(120)
"""


def test_an_older_schema_is_not_upgraded_under_a_process_that_has_it_open(
    run, data: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Before: any command of the new version (``persona list`` included) applied the
    migrations while an older server kept writing; a note that server wrote after migration 14
    was in the keyword index under the old key, and no keyword search found it again."""
    from omoide.store.sqlite import upgrade
    from omoide.store.sqlite.migrations import MIGRATIONS, applied_migrations

    monkeypatch.setattr(upgrade, "WAIT_S", 0.3)
    data.mkdir()
    Database(data / "omoide.db", upto=13).close()
    older = subprocess.Popen(
        [sys.executable, "-c", OLDER_SERVER, str(data / "omoide.db")],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert older.stdout is not None and older.stdout.readline() == "open\n"
        done = run("persona", "list")
        assert done.exit_code == 1, done.output
        assert "has the schema of an older Omoide (13; this one needs" in done.output
        assert "Stop every Omoide process using the folder" in done.output
        with contextlib.closing(sqlite3.connect(data / "omoide.db")) as conn:
            assert max(applied_migrations(conn)) == 13  # nothing changed under it
    finally:
        older.kill()
        older.wait()
    assert run("persona", "list").exit_code == 0  # alone, it upgrades
    with contextlib.closing(sqlite3.connect(data / "omoide.db")) as conn:
        assert max(applied_migrations(conn)) == MIGRATIONS[-1].number


# A process of this version finishing the migrations after a second one started (two servers
# started at once on a new folder): the second must see them done, not an older Omoide.
FINISHING_SERVER = """
import sqlite3, sys, time
from omoide.store.sqlite.migrations import apply_migrations
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("SELECT COUNT(*) FROM memories").fetchone()
print("open", flush=True)
time.sleep(0.8)
apply_migrations(conn)
print("migrated", flush=True)
time.sleep(120)
"""


def test_migrations_another_process_finishes_while_this_one_waits_are_no_conflict(
    run, data: Path
) -> None:
    """Before (the first form of the upgrade gate): the second of two servers started at once
    on a new folder saw the first half-way through the migrations, took the folder for an older
    schema held open, and stopped after 10 s with "the schema of an older Omoide"."""
    from omoide.store.sqlite.migrations import MIGRATIONS, applied_migrations

    data.mkdir()
    Database(data / "omoide.db", upto=13).close()
    first = subprocess.Popen(
        [sys.executable, "-c", FINISHING_SERVER, str(data / "omoide.db")],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert first.stdout is not None and first.stdout.readline() == "open\n"
        done = run("persona", "list")  # waits while the first one migrates, then goes on
        assert done.exit_code == 0, done.output
        assert first.stdout.readline() == "migrated\n"
        with contextlib.closing(sqlite3.connect(data / "omoide.db")) as conn:
            assert max(applied_migrations(conn)) == MIGRATIONS[-1].number
    finally:
        first.kill()
        first.wait()
