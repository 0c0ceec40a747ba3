"""Session 36's data-lifecycle probe through the CLI (click's runner, a real SQLite folder): a
data folder on a read-only file system, a full disk, and an import whose process was killed
before it printed the key of the persona it made."""

from __future__ import annotations

import errno
import os
from pathlib import Path
from typing import Any

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
        ("persona", "list"),
        ("export", "-p", "rin"),
        ("search", "-p", "rin", "tea"),
        ("memory", "add", "-p", "rin", "The user likes green tea"),
    ],
)
def test_a_data_folder_on_a_read_only_file_system_is_named(
    run, data: Path, monkeypatch: pytest.MonkeyPatch, command: tuple[str, ...]
) -> None:
    """A folder already 0700 on a read-only mount (a backup's snapshot, a container's read-only
    volume): every command was a traceback of the chmod that tightens an older install's
    folder, which had nothing to tighten."""
    assert run("persona", "create", "rin").exit_code == 0
    read_only(monkeypatch, data)
    done = run(*command)
    assert done.exit_code == 1, done.output
    assert done.output.startswith(f"Error: cannot write in the data folder '{data}': "), done.output
    assert "Read-only file system" in done.output
