"""An older Omoide on a store a newer Omoide migrated (a downgrade, or an old ``omoide`` left on
the PATH beside a newer server), on both stores: every command and the server refuse at open,
in one line naming both schema versions and saying to upgrade Omoide, with a non-zero exit
status and no traceback, and nothing is written to the store.

"Newer" is a migration recorded in ``schema_migrations`` that this Omoide's list does not hold,
as the next version's first migration would be. Before, the open applied nothing (every known
migration was recorded) and ran on a schema it did not know."""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from click.testing import CliRunner, Result
from omoide_testing import free_port
from pg_testing import SEE_ALL, PgServer

from omoide import __version__
from omoide.cli import main
from omoide.errors import Conflict
from omoide.store.postgres.migrations import MIGRATIONS as PG_MIGRATIONS
from omoide.store.sqlite.migrations import MIGRATIONS as SQLITE_MIGRATIONS
from omoide.store.sqlite.read_only import connect_read_only, require_schema

FUTURE_NAME = "from_a_newer_omoide"


@pytest.fixture
def cli_env(
    store_kind: str,
    data_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
    request: pytest.FixtureRequest,
) -> Iterator[dict[str, str]]:
    """The environment of an ``omoide`` command on the test's store (set for CliRunner too):
    PostgreSQL's a database of its own, since the test records a migration in it."""
    monkeypatch.delenv("OMOIDE_DATABASE_URL", raising=False)
    env = {"OMOIDE_DATA": str(data_dir), "OMOIDE_EMBEDDER": "hash"}
    with contextlib.ExitStack() as stack:
        if store_kind == "postgres":
            server: PgServer = request.getfixturevalue("pg_server")
            env["OMOIDE_DATABASE_URL"] = stack.enter_context(server.database())
        for name, value in env.items():
            monkeypatch.setenv(name, value)
        yield env


def _run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def _ok(*args: str) -> str:
    done = _run(*args)
    assert done.exit_code == 0, done.output
    return done.output


def _schemas(url: str | None) -> tuple[int, int]:
    """(the schema the newer Omoide recorded, the latest this one knows) for the store."""
    known = max(m.number for m in (PG_MIGRATIONS if url else SQLITE_MIGRATIONS))
    return known + 1, known


def _record_newer(url: str | None, data_dir: Path) -> None:
    """What a newer Omoide's first start leaves: its migration recorded (and what it made)."""
    future, _ = _schemas(url)
    insert = "INSERT INTO schema_migrations (number, name, applied_at) VALUES ({0}, {0}, {0})"
    values = (future, FUTURE_NAME, "2027-01-01T00:00:00+00:00")
    if url is None:
        conn = sqlite3.connect(data_dir / "omoide.db", isolation_level=None)
        conn.execute("CREATE TABLE memory_moods (memory_id INTEGER, mood TEXT)")
        conn.execute(insert.format("?"), values)
        conn.close()
        return
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CREATE TABLE memory_moods (memory_id INTEGER, mood TEXT)")
        conn.execute(insert.format("%s"), values)


def _stored(url: str | None, data_dir: Path) -> Any:
    """Everything the store holds: its schema and every row of every table. (Not the SQLite
    file's bytes: SQLite copies the WAL into the file whenever a process closes its last
    connection, an older Omoide's refusal as any other reader, the content unchanged.)"""
    if url is None:
        conn = sqlite3.connect(f"file:{data_dir / 'omoide.db'}?mode=ro", uri=True)
        try:
            return list(conn.iterdump())
        finally:
            conn.close()
    with psycopg.connect(url, autocommit=True, options=SEE_ALL) as conn:
        tables = [
            row[0]
            for row in conn.execute(
                "SELECT table_name FROM information_schema.tables WHERE "
                "table_schema = current_schema() ORDER BY table_name"
            )
        ]
        return {
            table: sorted(map(repr, conn.execute(f'SELECT * FROM "{table}"').fetchall()))
            for table in tables
        }


def _refused_in_one_line(output: str, url: str | None) -> None:
    future, known = _schemas(url)
    assert "Traceback" not in output, output
    assert output.startswith("Error: "), output
    assert output.strip().count("\n") == 0, output
    assert "was upgraded by a newer Omoide" in output, output
    assert f"schema {future}" in output and f"{future} ({FUTURE_NAME})" in output, output
    assert f"knows schema {known} at most" in output, output
    assert "upgrade Omoide" in output, output


def test_every_command_refuses_a_store_a_newer_omoide_migrated_and_writes_nothing(
    cli_env: dict[str, str], data_dir: Path
) -> None:
    url = cli_env.get("OMOIDE_DATABASE_URL")
    _ok("persona", "create", "rin")
    key = _ok("memory", "add", "-p", "rin", "The user's door code is 4721.").split()[-1]
    _record_newer(url, data_dir)
    before = _stored(url, data_dir)
    for args in (
        ("persona", "list"),
        ("memory", "list", "-p", "rin"),
        ("search", "-p", "rin", "door code"),
        ("memory", "add", "-p", "rin", "The user keeps bees."),
        ("memory", "delete", "-p", "rin", "--purge", key),
        ("persona", "delete", "rin", "--yes"),
        ("persona", "create", "haru"),
        ("mcp", "-p", "rin"),
    ):
        done = _run(*args)
        assert done.exit_code == 1, (args, done.output)
        _refused_in_one_line(done.output, url)
        assert _stored(url, data_dir) == before, args


def test_the_server_does_not_start_on_a_store_a_newer_omoide_migrated(
    cli_env: dict[str, str], data_dir: Path
) -> None:
    """``omoide serve`` as its own process: exit status 1, one line on stderr, no traceback,
    nothing written (not even the admin key a first start generates)."""
    url = cli_env.get("OMOIDE_DATABASE_URL")
    _ok("persona", "create", "rin")
    _record_newer(url, data_dir)
    before = _stored(url, data_dir)
    done = subprocess.run(
        [sys.executable, "-m", "omoide", "serve", "--port", str(free_port())],
        env={**os.environ, **cli_env},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 1, done.stderr
    _refused_in_one_line(done.stderr, url)
    assert _stored(url, data_dir) == before
    assert not list(data_dir.glob("*admin*"))


@pytest.mark.sqlite_only
def test_a_newer_omoides_backup_is_not_restored(cli_env: dict[str, str], tmp_path: Path) -> None:
    """``omoide backup`` still copies the folder (a byte copy, kept for a later upgrade),
    saying on stderr, in one line, that this Omoide cannot restore it (stdout: its usual line,
    or JSON); ``omoide restore`` of it is refused: it would leave a folder every command refuses.
    Before: the backup said nothing, and the user learnt it at the restore."""
    data = Path(cli_env["OMOIDE_DATA"])
    _ok("persona", "create", "rin")
    _record_newer(None, data)
    saved = tmp_path / "newer.db"
    done = _run("backup", "--to", str(saved))
    assert done.exit_code == 0, done.output
    assert done.stdout.startswith("backed up 1 persona, 0 memories"), done.output
    future, known = _schemas(None)
    assert done.stderr == (
        f"warning: the data folder {str(data)!r} (copied whole into {saved}) was upgraded by "
        f"a newer Omoide (schema {future}, with migrations this one does not know: {future} "
        f"({FUTURE_NAME})); this Omoide {__version__} knows schema {known} at most, so it "
        "cannot restore this backup (nor open the folder); restore it with the Omoide that "
        "upgraded the folder, or a later one\n"
    )
    again = _run("backup", "--to", str(tmp_path / "again.db"), "--json")
    told = json.loads(again.stdout)  # stdout stays JSON, and says what the warning says
    assert told["schema"] == future
    assert told["newer_schema"] is not None
    assert (
        again.stderr
        == f"warning: {told['newer_schema']}, so it cannot restore this "
        + (done.stderr.split(", so it cannot restore this ", 1)[1])
    )
    assert str(tmp_path / "again.db") in told["newer_schema"]
    assert again.stderr.startswith("warning: the data folder") and again.stderr.count("\n") == 1
    other = tmp_path / "other"
    done = _run("restore", "--from", str(saved), "--data", str(other))
    assert done.exit_code == 1, done.output
    assert done.output.startswith(f"Error: the backup {saved} was upgraded by a newer Omoide")
    _refused_in_one_line(done.output, None)
    assert not list(other.glob("omoide.db*"))


@pytest.mark.sqlite_only
def test_a_read_only_folder_a_newer_omoide_migrated_is_refused_as_a_writable_one(
    cli_env: dict[str, str],
) -> None:
    """The read-only open's schema check (a folder mounted read-only is opened ``mode=ro`` and
    never migrated: tests/integration/test_qa37_read_only_folder.py), on the same database."""
    data = Path(cli_env["OMOIDE_DATA"])
    _ok("persona", "create", "rin")
    _record_newer(None, data)
    numbers = [m.number for m in SQLITE_MIGRATIONS]
    conn = connect_read_only(data / "omoide.db", timeout=1.0)
    try:
        with pytest.raises(Conflict) as refused:
            require_schema(conn, data / "omoide.db", numbers, numbers)
    finally:
        conn.close()
    _refused_in_one_line(f"Error: {refused.value.message}", None)


@pytest.mark.sqlite_only
def test_a_backup_of_a_current_folder_says_no_newer_schema(
    cli_env: dict[str, str], tmp_path: Path
) -> None:
    _ok("persona", "create", "rin")
    done = _run("backup", "--to", str(tmp_path / "now.db"), "--json")
    assert done.exit_code == 0 and done.stderr == "", done.output
    told = json.loads(done.stdout)
    assert told["newer_schema"] is None and told["schema"] == _schemas(None)[1]
