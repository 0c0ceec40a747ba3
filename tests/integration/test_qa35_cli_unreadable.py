"""Session 35's CLI probe: a file or a folder the command cannot use (a file that cannot be
read, a data folder where nothing can be written, a PostgreSQL URL its parser refuses) is one
line on stderr and exit status 1, as every other mistake; each was a Python traceback.

``/proc/self/mem`` is a file that exists and fails every read (EIO), even for root, which reads
a file of mode 000; ``/proc`` a folder where no file can be created."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from omoide.cli import main

UNREADABLE = Path("/proc/self/mem")
UNWRITABLE = Path("/proc")

pytestmark = pytest.mark.skipif(not UNREADABLE.exists(), reason="needs Linux's /proc")


@pytest.fixture
def run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("OMOIDE_EMBEDDER", "hash")
    monkeypatch.setenv("OMOIDE_DATA", str(tmp_path / "data"))

    def invoke(*args: str) -> click.testing.Result:
        # catch_exceptions=False: a traceback fails the test instead of being an exit code
        return CliRunner().invoke(main, list(args), catch_exceptions=False)

    return invoke


@pytest.mark.parametrize("source", ["omoide", "mem0", "mcp-memory", "chat"])
def test_importing_a_file_that_cannot_be_read_is_refused_naming_it(run, source: str) -> None:
    done = run("import", "-p", "rin", "--from", source, str(UNREADABLE))
    assert done.exit_code == 1, done.output
    assert f"Error: cannot read {UNREADABLE}: Input/output error" in done.output
    assert "Traceback" not in done.output
    assert "rin" not in run("persona", "list").output  # the persona it made is gone again


@pytest.mark.parametrize("source", ["omoide", "mem0", "chat"])
def test_a_file_that_cannot_be_read_and_one_not_utf8_are_refused_alike(
    tmp_path: Path, source: str
) -> None:
    """Session 36: a file the command cannot read was a ``click.ClickException`` ("cannot read
    PATH: …"), one that is not UTF-8 an ``InvalidInput`` ("PATH is not UTF-8 text"): now one
    refusal, ``cannot read PATH: why``, one line on stderr and exit status 1, through the
    installed entry point."""
    not_utf8 = tmp_path / "latin1.jsonl"
    not_utf8.write_bytes('{"text": "café"}\n'.encode("latin-1"))
    env = {**os.environ, "OMOIDE_DATA": str(tmp_path / "data"), "OMOIDE_EMBEDDER": "hash"}
    omoide = Path(sys.executable).parent / "omoide"
    for path, why in [(UNREADABLE, "Input/output error"), (not_utf8, "not UTF-8 text")]:
        done = subprocess.run(
            [str(omoide), "import", "-p", "rin", "--from", source, str(path)],
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
            stdin=subprocess.DEVNULL,
        )
        assert done.returncode == 1, done.stderr
        assert done.stderr.startswith(f"Error: cannot read {path}: {why}"), done.stderr
        assert done.stderr.count("\n") == 1, done.stderr  # one line, no traceback


def test_restoring_from_a_file_that_cannot_be_read_is_refused_naming_it(run) -> None:
    done = run("restore", "--from", str(UNREADABLE))
    assert done.exit_code == 1, done.output
    assert f"Error: {UNREADABLE} is not a readable SQLite database" in done.output


@pytest.mark.parametrize(
    "command", [("persona", "list"), ("memory", "add", "-p", "rin", "hi"), ("stats", "-p", "rin")]
)
def test_a_data_folder_where_nothing_can_be_written_is_named(
    run, monkeypatch: pytest.MonkeyPatch, command: tuple[str, ...]
) -> None:
    monkeypatch.setenv("OMOIDE_DATA", str(UNWRITABLE))
    done = run(*command)
    assert done.exit_code == 1, done.output
    assert done.output.startswith(f"Error: cannot write in the data folder '{UNWRITABLE}': ")
    assert "OMOIDE_DATA or --data" in done.output


@pytest.mark.parametrize(
    ("url", "said"),
    [
        ("postgresql://ken:s3cret@[::1/db", 'matching "]"'),
        ("postgresql://ken:s3cret@db.example/x?bogus=1", 'invalid URI query parameter: "bogus"'),
    ],
)
def test_a_postgresql_url_its_parser_refuses_is_named_without_its_password(
    run, monkeypatch: pytest.MonkeyPatch, url: str, said: str
) -> None:
    pytest.importorskip("psycopg")
    monkeypatch.setenv("OMOIDE_DATABASE_URL", url)
    done = run("persona", "list")
    assert done.exit_code == 1, done.output
    assert done.output.startswith("Error: the PostgreSQL URL postgresql://ken:***@"), done.output
    assert said in done.output and "s3cret" not in done.output
