"""docs/operations.md, deploy.md, settings.md and import.md walked as a new user does, through
the CLI's entry point on a real data folder (session 45): each test is a mismatch the walk
found between what a doc says and what the command did."""

from __future__ import annotations

import os
from pathlib import Path

import click
import psycopg
import pytest
from click.testing import CliRunner
from pg_testing import OWNER, PgServer

from omoide.cli import main


@pytest.fixture
def run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("OMOIDE_EMBEDDER", "hash")
    monkeypatch.setenv("OMOIDE_DATA", str(tmp_path / "data"))
    runner = CliRunner()

    def invoke(*args: str, env: dict[str, str] | None = None) -> click.testing.Result:
        return runner.invoke(main, list(args), env=env)

    return invoke


def _one_line_error(result: click.testing.Result) -> str:
    """The last line of a command refused in one line, exit status 1, no traceback."""
    assert result.exit_code == 1, result.output
    assert isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output, result.output
    return result.output.strip().splitlines()[-1]


@pytest.mark.parametrize(
    ("variable", "value", "said"),
    [
        # 0 failed every embedding as a connection error after 4 attempts; -5 was a traceback
        # from the socket (ValueError: Timeout value out of range)
        ("OMOIDE_EMBED_TIMEOUT", "0", "OMOIDE_EMBED_TIMEOUT must be above 0 seconds, got 0"),
        ("OMOIDE_EMBED_TIMEOUT", "-5", "OMOIDE_EMBED_TIMEOUT must be above 0 seconds, got -5"),
        # retried 4 times, then "connection failed (UnsupportedProtocol …)"
        ("OMOIDE_EMBED_BASE_URL", "localhost:11434/v1", "must be an http:// or https:// URL"),
    ],
)
def test_an_embedding_endpoint_setting_that_cannot_work_stops_the_command(
    run, variable: str, value: str, said: str
) -> None:
    env = {
        "OMOIDE_EMBEDDER": "openai",
        "OMOIDE_EMBED_BASE_URL": "http://127.0.0.1:9/v1",
        "OMOIDE_EMBED_MODEL": "m",
        variable: value,
    }
    line = _one_line_error(run("search", "-p", "rin", "tea", env=env))
    assert line.startswith(f"Error: {variable}") and said in line, line


def test_a_database_without_pgvector_is_one_line_saying_who_creates_it(
    run, pg_server: PgServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/deploy.md step 1: the database has the vector extension, which only a superuser may
    create. One made without it stopped every command (and `omoide migrate --to` it) with
    psycopg's traceback: InsufficientPrivilege: permission denied to create extension."""
    name = f"noext_{os.getpid()}"
    with psycopg.connect(pg_server.admin_url, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {name} OWNER {OWNER}")  # no CREATE EXTENSION vector
    try:
        url = pg_server.url(name)
        assert run("persona", "create", "rin").exit_code == 0  # a folder to migrate
        said = "has no vector extension (pgvector) and Omoide cannot create it"
        moved = _one_line_error(run("migrate", "--to", url))
        assert said in moved and "CREATE EXTENSION vector;" in moved, moved
        assert "a superuser" in moved and "permission denied" in moved, moved
        monkeypatch.setenv("OMOIDE_DATABASE_URL", url)
        for args in (["persona", "list"], ["serve", "--port", "0"]):
            line = _one_line_error(run(*args))
            assert line.startswith("Error: the PostgreSQL database") and said in line, line
    finally:
        pg_server.drop_database(name)


@pytest.mark.parametrize(
    ("args", "said"),
    [
        # uvicorn's "ERROR: [Errno -2] Name or service not known", after the whole start-up
        (["--host", "no-such-host.invalid"], 'OMOIDE_HOST (--host) "no-such-host.invalid" is no'),
        (["--host", "999.1.1.1"], 'OMOIDE_HOST (--host) "999.1.1.1" is no address to listen on'),
    ],
)
def test_serve_on_a_host_it_cannot_listen_on_names_the_setting(
    run, tmp_path: Path, args: list[str], said: str
) -> None:
    line = _one_line_error(run("serve", *args, "--port", "0"))
    assert line.startswith(f"Error: {said}"), line
    assert not (tmp_path / "data").exists()  # refused before the folder is opened


def test_serve_on_a_port_in_use_names_the_setting(run, tmp_path: Path) -> None:
    """uvicorn said '[Errno 98] error while attempting to bind …' once the folder was
    opened, the model loaded and the banner printed, and exited 3."""
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        line = _one_line_error(run("serve", "--host", "127.0.0.1", "--port", str(port)))
    assert line == (
        f"Error: OMOIDE_PORT (--port) {port} is in use on 127.0.0.1 (another server listens "
        "there): stop it, or choose another port"
    ), line
    assert not (tmp_path / "data").exists()


# A process whose files may not grow past 16 KiB (RLIMIT_FSIZE, SIGXFSZ ignored so the write
# fails with EFBIG): SQLite cannot grow omoide.db-shm to its first 32 KiB, as on a full disk.
_NO_ROOM = """
import resource, signal, sys
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
resource.setrlimit(resource.RLIMIT_FSIZE, (16384, 16384))
from omoide.cli import main
main(sys.argv[1:], prog_name="omoide")
"""


@pytest.mark.sqlite_only
@pytest.mark.parametrize("command", [["persona", "list"], ["memory", "add", "-p", "rin", "x y"]])
def test_no_room_for_the_shared_memory_file_is_said_as_a_full_disk(
    run, tmp_path: Path, command: list[str]
) -> None:
    """docs/operations.md: a full disk is 507 storage_full, 'free some space'. SQLite's
    SQLITE_IOERR_SHMSIZE (no room to grow omoide.db-shm, met by the first read) was said as a
    disk failing reads, whose remedy was to restore the folder from a backup."""
    import subprocess
    import sys

    assert run("persona", "create", "rin").exit_code == 0
    assert not (tmp_path / "data" / "omoide.db-shm").exists()  # closed: made again at open
    env = {**os.environ, "OMOIDE_EMBEDDER": "hash", "OMOIDE_DATA": str(tmp_path / "data")}
    env.pop("OMOIDE_DATABASE_URL", None)
    done = subprocess.run(
        [sys.executable, "-c", _NO_ROOM, *command],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    line = done.stderr.strip().splitlines()[-1]
    assert line.startswith("Error: the disk of the data folder"), line
    assert "is full" in line and "omoide.db-shm" in line and "free some space" in line, line
    assert "failing reads" not in line and "restore" not in line, line


def test_an_unknown_embedder_names_the_variable(run, tmp_path: Path) -> None:
    """Every other process setting's refusal names its variable; this one said 'unknown
    embedder 'bogus'; choose one of …' without saying where the name came from."""
    line = _one_line_error(run("persona", "list", env={"OMOIDE_EMBEDDER": "E5"}))
    assert line == (
        "Error: OMOIDE_EMBEDDER must be one of e5, use, hash, openai or "
        'sentence-transformers:<folder>, got "E5"'
    ), line
    assert not (tmp_path / "data").exists()


@pytest.mark.parametrize("source", ["chat", "omoide"])
@pytest.mark.parametrize(
    ("packed", "said"),
    [
        (
            "zip",
            "it is a zip archive: unzip it and import the file inside (a ChatGPT or Claude "
            "data export holds conversations.json)",
        ),
        ("gzip", "it is gzip-compressed: decompress it (gunzip) and import the file itself"),
    ],
)
def test_an_archive_given_for_the_file_says_what_it_is(
    run, tmp_path: Path, source: str, packed: str, said: str
) -> None:
    """A ChatGPT or Claude data export is a zip holding conversations.json (docs/import.md
    names the JSON); given whole, or an export gzipped, it was 'not UTF-8 text', which did not
    say what the file was, as a UTF-16 file already is told."""
    import gzip
    import zipfile

    inner = '[{"role": "user", "content": "I keep bees."}]'
    path = tmp_path / f"export.{packed}"
    if packed == "zip":
        with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as archive:
            archive.writestr("conversations.json", inner * 20)
    else:
        path.write_bytes(gzip.compress(inner.encode()))
    line = _one_line_error(run("import", "-p", "rin", "--from", source, str(path)))
    assert line.startswith(f"Error: cannot read {path}: not UTF-8 text"), line
    assert line.endswith(said), line
