"""A command that erases (``omoide memory delete --purge``, ``session delete``, ``persona
delete``) ends soon after its erase: the scrub the erase owes (SQLite: the WAL checkpoint an
older read holds back; PostgreSQL: the VACUUM another lock holds back) is done before it
exits, waiting up to ``SCRUB_WAIT_S`` for what holds it, and said on stderr while it waits.
Checked where the text could still be: the data folder's bytes (SQLite), the database's rows
and its record of owed VACUUMs (PostgreSQL), right after the command, with what held the scrub
back still connected (so no other process's open or close did it).

Before: the command's process ended with the scrub owed. On SQLite the text stayed in the
files until another process opened the folder; on PostgreSQL the VACUUM was not even tried
again at close, and waited for the next process to open the database."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import psycopg
import pytest
from click.testing import CliRunner, Result
from older_read import older_read
from omoide_testing import files_holding
from pg_testing import rows_holding

from omoide import cli_common
from omoide.cli import main

PIN = "QWKZX-5309"  # a marker no other text in the store contains
QUIET_S = 1.5  # how long into the command's wait for the scrub what holds it back still lasts


@pytest.fixture
def cli_env(
    store_environ: dict[str, str], data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> dict[str, str]:
    """The environment of an ``omoide`` command on the test's store."""
    monkeypatch.delenv("OMOIDE_DATABASE_URL", raising=False)
    env = {"OMOIDE_DATA": str(data_dir), "OMOIDE_EMBEDDER": "hash", **store_environ}
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return env


def _run(*args: str) -> Result:
    done = CliRunner().invoke(main, list(args), catch_exceptions=False)
    assert done.exit_code == 0, done.output
    return done


def _remembered(text: str) -> str:
    """A new memory of persona rin holding ``text``; its key."""
    return _run("memory", "add", "-p", "rin", text).stdout.split()[-1]


@contextmanager
def _vacuum_held(url: str, lasting_s: float) -> Iterator[Callable[[], None]]:
    """Another transaction holding what a VACUUM of ``memories`` takes, for ``lasting_s`` or
    until the block calls what it is given; its connection stays open until the block ends."""
    holder = psycopg.connect(url)
    holder.execute("LOCK TABLE memories IN SHARE UPDATE EXCLUSIVE MODE")
    ends = threading.Timer(lasting_s, holder.rollback)
    ends.start()
    try:
        yield holder.rollback
    finally:
        ends.cancel()
        ends.join()
        holder.rollback()
        holder.close()


def _owed(url: str) -> set[str]:
    with psycopg.connect(url, autocommit=True) as conn:
        return {row[0] for row in conn.execute("SELECT table_name FROM owed_vacuums")}


@contextmanager
def _scrub_held(cli_env: dict[str, str], lasting_s: float) -> Iterator[Callable[[], None]]:
    """What holds an erase's scrub back in the store, for ``lasting_s`` or until the block
    calls what it is given (what held it then stays connected, idle, until the block ends)."""
    url = cli_env.get("OMOIDE_DATABASE_URL")
    held = (
        older_read(Path(cli_env["OMOIDE_DATA"]), lasting_s)
        if url is None
        else _vacuum_held(url, lasting_s)
    )
    with held as end:
        yield end


def _holding(cli_env: dict[str, str], text: str) -> list[str]:
    """Where the store still holds ``text``: files of the folder, or columns of rows."""
    url = cli_env.get("OMOIDE_DATABASE_URL")
    return (
        files_holding(Path(cli_env["OMOIDE_DATA"]), text)
        if url is None
        else rows_holding(url, text)
    )


def _ended_into_the_wait(monkeypatch: pytest.MonkeyPatch, end: Callable[[], None]) -> list[float]:
    """What holds the scrub back (``end``) ended :data:`QUIET_S` into the command's close
    (``cli_common._close``: the wait for the scrub, said on stderr); how long that close took,
    once it is over. Ended at a set time after the command began instead, it could end while
    a slow command (a loaded machine) still ran the erase's own wait, whose scrub then owed
    nothing."""
    real, took = cli_common._close, []

    def close(app: Any, hurry: threading.Event | None = None) -> None:
        began = time.monotonic()
        ends = threading.Timer(QUIET_S, end)
        ends.start()
        try:
            real(app, hurry)
        finally:
            took.append(time.monotonic() - began)
            ends.cancel()
            ends.join()

    monkeypatch.setattr(cli_common, "_close", close)
    return took


@pytest.mark.parametrize(
    "erase",
    [
        pytest.param(lambda key: ("memory", "delete", "-p", "rin", "--purge", key), id="purge"),
        pytest.param(lambda _key: ("persona", "delete", "rin", "--yes"), id="persona"),
    ],
)
def test_a_cli_erase_does_its_owed_scrub_before_it_exits(
    cli_env: dict[str, str], erase: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    _run("persona", "create", "rin")
    key = _remembered(f"The user's door code is {PIN}.")
    with _scrub_held(cli_env, 60.0) as end_hold:
        waited = _ended_into_the_wait(monkeypatch, end_hold)
        done = _run(*erase(key), "--json")  # type: ignore[operator]
        assert json.loads(done.stdout)["scrub_pending"] is False, done.output
        assert f"waiting up to {cli_common.SCRUB_WAIT_S:g} s to scrub them" in done.stderr
        assert QUIET_S - 0.1 < waited[0] < cli_common.SCRUB_WAIT_S, waited  # until it ended
        assert _holding(cli_env, PIN) == []  # what held it back is still connected
        url = cli_env.get("OMOIDE_DATABASE_URL")
        if url is not None:
            assert _owed(url) == set()


def test_a_cli_erase_whose_scrub_stays_held_says_so_and_leaves_it_owed(
    cli_env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Held past the command's wait: the erase stands, the output says where the text still is,
    and the scrub stays owed (PostgreSQL: recorded) for the next process to open the store,
    which does it even while what held it stays connected.

    Before (SQLite): the next command left the text in the files while any other connection
    to the file stayed open (here: what held the scrub, or an earlier command's, open until
    the garbage collector closed it): only the close of the last one checkpointed."""
    monkeypatch.setattr(cli_common, "SCRUB_WAIT_S", 1.0)
    url = cli_env.get("OMOIDE_DATABASE_URL")
    _run("persona", "create", "rin")
    key = _remembered(f"The user's door code is {PIN}.")
    with _scrub_held(cli_env, 60.0) as end_hold:
        done = _run("memory", "delete", "-p", "rin", "--purge", key)
        assert done.stdout.startswith(f"erased {key}\n"), done.output
        assert cli_common.SCRUB_PENDING in done.stdout
        assert "waiting up to 1 s to scrub them" in done.stderr
        if url is None:
            assert files_holding(Path(cli_env["OMOIDE_DATA"]), PIN)
        else:
            assert rows_holding(url, PIN) == []  # PostgreSQL's promise is rows: no row holds it
            assert _owed(url) == {"memories"}
        # What held it ended, still connected: the next command that opens the store does the
        # scrub before it ends.
        end_hold()
        monkeypatch.setattr(cli_common, "SCRUB_WAIT_S", 10.0)
        _remembered("The user grows tomatoes.")
        assert _holding(cli_env, PIN) == []
        if url is not None:
            assert _owed(url) == set()
