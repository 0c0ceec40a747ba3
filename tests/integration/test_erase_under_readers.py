"""A purge while a read of an older snapshot lasts (an export being downloaded slowly, another
process's long query), against a real SQLite folder: other writes go on at once, and the
erased text leaves the WAL as soon as that read ends, not only at the next erase; and when the
process that owes the checkpoint dies first, the next process to open the folder does it."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from omoide_testing import files_holding

from omoide import cli_common
from omoide.cli import main
from omoide.wiring import Omoide

pytestmark = pytest.mark.sqlite_only

PIN = "QWKZX-5309"  # a marker no other text in the folder contains


def create(app: Omoide, persona: str, content: str) -> Any:
    return app.memories.create(persona, app.memories.build_new(content=content)).memory


@contextmanager
def older_snapshot(data_dir: Path) -> Iterator[None]:
    """A reader of another connection (as another process would be) holding a snapshot taken
    before the purge, as a slow export download holds one."""
    conn = sqlite3.connect(data_dir / "omoide.db", isolation_level=None)
    conn.execute("BEGIN")
    conn.execute("SELECT COUNT(*) FROM memories").fetchone()
    try:
        yield
    finally:
        conn.execute("COMMIT")
        conn.close()


def wait_until(condition: Any, timeout: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return False


def in_thread(work: Any) -> threading.Thread:
    thread = threading.Thread(target=work, daemon=True)  # daemon: a hang fails, never blocks
    thread.start()
    return thread


def test_a_purge_under_a_long_read_holds_back_no_other_write(
    app: Omoide, persona: str, data_dir: Path
) -> None:
    secret = create(app, persona, f"The user's door code is {PIN}")
    with older_snapshot(data_dir):
        purge = in_thread(lambda: app.memories.purge(persona, secret.key))
        time.sleep(0.5)  # the purge has committed and waits for its checkpoint
        write = in_thread(lambda: create(app, persona, "The user went hiking in Nagano"))
        # Before: the purge held the process's write lock while its checkpoint waited for the
        # reader (30 s per try, 50 tries), so every write of the server waited with it.
        write.join(timeout=10.0)  # a loaded machine's margin, a third of one checkpoint's wait
        assert not write.is_alive(), "a write waited behind a purge's checkpoint"
        purge.join(timeout=10.0)
        assert not purge.is_alive(), "the purge did not return while the read lasted"
    # The reader ended: the owed checkpoint follows within moments, with no further erase.
    assert wait_until(lambda: files_holding(data_dir, PIN) == [])


def test_an_owed_checkpoint_is_settled_when_the_folder_is_closed(
    make_app: Any, data_dir: Path
) -> None:
    app = make_app()
    app.auth.create_persona("rin")
    secret = create(app, "rin", f"The user's door code is {PIN}")
    with older_snapshot(data_dir):
        purge = in_thread(lambda: app.memories.purge("rin", secret.key))
        purge.join(timeout=10.0)
        assert not purge.is_alive(), "the purge did not return while the read lasted"
    app.store.db.close()
    assert files_holding(data_dir, PIN) == []


def test_a_cli_erase_under_a_long_read_says_its_scrub_is_pending_and_the_next_command_does_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``omoide memory delete --purge`` and ``omoide persona delete`` while another process
    reads an older snapshot for longer than the command waits for it (``SCRUB_WAIT_S``, here
    short; tests/integration/test_cli_erase_scrub.py: one that ends within it): erased, and
    the output says the text is still in the folder's files (``scrub_pending`` in JSON); the
    next command, that read ended, scrubs them."""
    monkeypatch.setattr(cli_common, "SCRUB_WAIT_S", 0.2)
    data = tmp_path / "data"
    monkeypatch.setenv("OMOIDE_DATA", str(data))
    monkeypatch.setenv("OMOIDE_EMBEDDER", "hash")
    monkeypatch.delenv("OMOIDE_DATABASE_URL", raising=False)

    def run(*args: str) -> str:
        done = CliRunner().invoke(main, list(args), catch_exceptions=False)
        assert done.exit_code == 0, done.output
        return done.stdout  # stderr says the command waits for the scrub

    run("persona", "create", "rin")
    run("persona", "create", "ai")
    memory = run("memory", "add", "-p", "rin", f"The user keeps {PIN} bees.").split()[-1]
    run("memory", "add", "-p", "ai", "The user's code is ZQXJV-4827.")
    with older_snapshot(data):
        said = run("memory", "delete", "-p", "rin", "--purge", memory)
        assert said.startswith(f"erased {memory}\n"), said
        assert "still in the data folder's files (a read of an older snapshot" in said, said
        erased = json.loads(run("persona", "delete", "ai", "--yes", "--json"))
        assert erased["status"] == "erased" and erased["scrub_pending"] is True
        assert files_holding(data, PIN) and files_holding(data, "ZQXJV-4827")
    said = run("memory", "add", "-p", "rin", "The user grows tomatoes.")
    gone = json.loads(run("memory", "delete", "-p", "rin", "--purge", said.split()[-1], "--json"))
    assert gone["scrub_pending"] is False
    assert files_holding(data, PIN) == [] and files_holding(data, "ZQXJV-4827") == []


def _another_process(data: Path, code: str) -> str:
    """Run ``code`` in a new Python process on the folder (as another Omoide would); its
    output."""
    env = {**os.environ, "OMOIDE_DATA": str(data), "OMOIDE_EMBEDDER": "hash"}
    env.pop("OMOIDE_DATABASE_URL", None)
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_a_checkpoint_owed_by_a_process_that_died_is_done_when_the_next_one_opens(
    make_app: Any, data_dir: Path
) -> None:
    """Why an owed checkpoint is not recorded in the file (``Database.erasing``): opening the
    folder tries one checkpoint. Pinned here with the erasing process killed (no close, no last
    try) and the reader's connection left open, idle, so SQLite's own checkpoint at the close
    of the last connection to the file never runs.

    Before: the open relied on that one (it opens and closes a connection first), and with
    any other connection open the erased text stayed in the database file."""
    app = make_app()
    app.auth.create_persona("rin")
    key = create(app, "rin", f"The user's door code is {PIN}").key
    app.close()
    reader = sqlite3.connect(data_dir / "omoide.db", isolation_level=None)  # another process's
    try:
        reader.execute("BEGIN")
        reader.execute("SELECT COUNT(*) FROM memories").fetchone()  # an older snapshot's read
        said = _another_process(
            data_dir,
            f"""
            import os
            from omoide.config import Settings
            from omoide.wiring import build
            app = build(Settings.from_env(), llm=None)
            print(app.memories.purge("rin", {key!r}).scrub_pending, flush=True)
            os._exit(0)  # killed: neither its retries nor its close ever run
            """,
        )
        assert said.split() == ["True"]
        reader.execute("COMMIT")  # the read ends; its connection stays open, idle
        assert files_holding(data_dir, PIN) == ["omoide.db"]
        _another_process(
            data_dir,
            """
            import os
            from omoide.config import Settings
            from omoide.store.sqlite.db import Database
            Database(Settings.from_env().db_path)
            os._exit(0)  # what it did at its open alone
            """,
        )
        assert files_holding(data_dir, PIN) == []
    finally:
        reader.close()
