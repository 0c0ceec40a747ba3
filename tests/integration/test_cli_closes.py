"""Every ``omoide`` command closes the app it built, on both stores: run in-process (a test, a
program that embeds the CLI), a command that left it to the process's exit kept its SQLite
connections open until the garbage collector found them, and one of them held back the
checkpoint of a later erase in the same process; on PostgreSQL, its pool's connections (each a
server backend) stayed open the same way.

What a command leaves open is read from ``/proc/self/fd``: the files under the data folder
(SQLite's database, WAL and shared memory; the folder's lock) and the sockets this process did
not hold before the command (PostgreSQL's connections)."""

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


def _open() -> list[str]:
    """What this process's file descriptors point at (paths, ``socket:[inode]`` …)."""
    held = []
    for fd in FDS.iterdir():
        try:
            held.append(os.readlink(fd))
        except OSError:  # the listing's own descriptor, closed meanwhile
            continue
    return held


def _open_under(folder: Path, sockets_before: set[str]) -> list[str]:
    """The files under ``folder`` this process holds open (database, WAL, shared memory …),
    and the sockets it holds that are not in ``sockets_before`` (a connection's)."""
    held = []
    for target in _open():
        if target.startswith("socket:"):
            if target not in sockets_before:
                held.append(target)
        elif Path(target).is_relative_to(folder):
            held.append(Path(target).name)
    return sorted(held)


def _sockets() -> set[str]:
    return {target for target in _open() if target.startswith("socket:")}


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
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    store_environ: dict[str, str],
    no_collection: None,
) -> None:
    data = (tmp_path / "data").resolve()
    monkeypatch.delenv("OMOIDE_DATABASE_URL", raising=False)
    for name, value in {
        "OMOIDE_EMBEDDER": "hash",
        "OMOIDE_DATA": str(data),
        **store_environ,
    }.items():
        monkeypatch.setenv(name, value)
    runner = CliRunner()
    left_open: dict[str, list[str]] = {}

    def run(*args: str) -> str:
        sockets = _sockets()
        result = runner.invoke(main, list(args), catch_exceptions=False)
        assert result.exit_code == 0, (args, result.output)
        if held := _open_under(data, sockets):  # before any collection could close them
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
