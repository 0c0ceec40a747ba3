"""Every ``omoide`` command closes the app it built: run in-process (a test, a program that
embeds the CLI), a command that left it to the process's exit kept its SQLite connections open
until the garbage collector found them, and one of them held back the checkpoint of a later
erase in the same process."""

from __future__ import annotations

import gc
import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from omoide.cli import main

FDS = Path("/proc/self/fd")


def _open_under(folder: Path) -> list[str]:
    """The files under ``folder`` this process holds open (database, WAL, shared memory …)."""
    held = []
    for fd in FDS.iterdir():
        try:
            target = Path(os.readlink(fd))
        except OSError:  # the listing's own descriptor, closed meanwhile
            continue
        if target.is_relative_to(folder):
            held.append(target.name)
    return sorted(held)


@pytest.fixture
def no_collection() -> Iterator[None]:
    """No automatic garbage collection while the commands run: a connection left to it stays
    open until the test collects."""
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
        gc.collect()


@pytest.mark.skipif(not FDS.is_dir(), reason="needs /proc/self/fd (Linux)")
def test_no_command_leaves_the_database_open(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, no_collection: None
) -> None:
    data = (tmp_path / "data").resolve()
    monkeypatch.setenv("OMOIDE_EMBEDDER", "hash")
    monkeypatch.setenv("OMOIDE_DATA", str(data))
    runner = CliRunner()
    left_open: dict[str, list[str]] = {}

    def run(*args: str) -> str:
        result = runner.invoke(main, list(args), catch_exceptions=False)
        assert result.exit_code == 0, (args, result.output)
        if held := _open_under(data):  # before any collection could close them
            left_open[" ".join(args)] = held
            gc.collect()  # so that the next command is judged on its own
        return result.stdout

    run("persona", "create", "rin")
    run("persona", "list")
    key = json.loads(run("memory", "add", "-p", "rin", "User lives in Tokyo", "--json"))["memory"][
        "key"
    ]
    run("memory", "get", "-p", "rin", key)
    run("memory", "history", "-p", "rin", key)
    run("memory", "list", "-p", "rin")
    run("search", "-p", "rin", "Tokyo")
    run("stats", "-p", "rin")
    run("session", "list", "-p", "rin")
    run("jobs", "status", "-p", "rin")
    run("jobs", "wait", "-p", "rin", "--no-run")
    run("jobs", "wait", "-p", "rin")
    run("decay")
    run("reindex")
    run("export", "-p", "rin", "--out", str(tmp_path / "rin.jsonl"))
    run("export", "-p", "rin")
    issued = json.loads(run("persona", "key", "create", "rin", "--json"))["key_id"]
    run("persona", "key", "list", "rin")
    run("persona", "key", "revoke", "rin", str(issued))
    run("memory", "delete", "-p", "rin", key)
    assert left_open == {}
