"""A data folder whose database another program keeps locked in a write (``sqlite3 omoide.db``
left inside ``BEGIN IMMEDIATE``, a stuck backup tool) is, once the busy wait is over, one line
saying so (a 503 ``storage_unavailable`` over HTTP), not a traceback of ``database is locked``.

The other program: a real second SQLite connection holding the write lock; the busy wait
shortened from 30 s to 0.3 s."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from omoide.cli import main
from omoide.store.sqlite import db


@pytest.fixture
def run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("OMOIDE_EMBEDDER", "hash")
    monkeypatch.setenv("OMOIDE_DATA", str(tmp_path / "data"))
    monkeypatch.delenv("OMOIDE_DATABASE_URL", raising=False)

    def invoke(*args: str) -> click.testing.Result:
        return CliRunner().invoke(main, list(args), catch_exceptions=False)

    return invoke


@pytest.fixture
def locked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(db, "BUSY_TIMEOUT_MS", 300)
    other = sqlite3.connect(tmp_path / "data" / "omoide.db", isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    yield
    other.execute("ROLLBACK")
    other.close()


def test_a_database_another_program_keeps_locked_is_one_line(
    run, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    assert run("persona", "create", "rin").exit_code == 0
    request.getfixturevalue("locked")
    done = run("memory", "add", "-p", "rin", "The user keeps bees")
    assert done.exit_code == 1, done.output
    assert done.output.count("\n") == 1, done.output
    data = tmp_path / "data"
    assert done.output.startswith(
        f"Error: the database of the data folder '{data}' stayed locked by another program"
    )
    assert "nothing was written" in done.output and "try again" in done.output
    assert run("memory", "list", "-p", "rin").output == "(no memories)\n"  # reads go on
