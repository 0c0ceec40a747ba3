"""A SQLite database closed while another thread reads (``Database.close``: a server stopping
while a job's handler a stop no longer waited for, or a request, still reads). Each connection
is closed once no statement runs in it and none of its cursors has rows left to read: an idle
one at once, one mid-read as that read ends; a statement on it after that is refused as the
close says (a 503), never sqlite3's "Cannot operate on a closed database.".

Before (session 47): the close closed every connection but a write's and a checkpoint's at once,
under a statement another thread was running: the process died of a segmentation fault (-11),
in a subprocess here as in a server's stop."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest

from omoide.errors import StorageUnavailable
from omoide.store.sqlite.db import Database

pytestmark = pytest.mark.sqlite_only  # about the SQLite file's connections

# A reader inside a statement (a SQL function of its own holds it there) while the main thread
# closes the database; what the reader ended with is printed as JSON. In a process of its own:
# a crash is what it is about.
_CLOSE_UNDER_A_STATEMENT = textwrap.dedent(
    """
    import json, sys, threading, time
    from omoide.store.sqlite.db import Database

    db = Database(sys.argv[1])
    inside, out = threading.Event(), {}

    def slow(x):
        inside.set()
        time.sleep(0.5)
        return x

    def reader():
        conn = db.conn()
        conn.create_function("slow", 1, slow)
        try:
            out["row"] = list(conn.execute("SELECT slow(7)").fetchone())
            conn.execute("SELECT 2")
        except Exception as exc:
            out["next"] = f"{type(exc).__name__}: {exc}"

    thread = threading.Thread(target=reader)
    thread.start()
    inside.wait(10)
    db.close()
    thread.join(10)
    print(json.dumps(out))
    """
)


def test_a_statement_another_thread_runs_ends_before_its_connection_is_closed(
    tmp_path: Path,
) -> None:
    path = tmp_path / "omoide.db"
    Database(path).close()
    done = subprocess.run(
        [sys.executable, "-c", _CLOSE_UNDER_A_STATEMENT, str(path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, (done.returncode, done.stderr[-2000:])  # was -11
    out = json.loads(done.stdout)
    assert out["row"] == [7]  # the read under way was served whole
    assert out["next"].startswith("StorageUnavailable: the database of the data folder '")
    assert "was closed (the server is stopping): try again once it runs again" in out["next"]


def _in_thread(work: object) -> tuple[threading.Event, threading.Event, list[object]]:
    """Run ``work(step)`` in a thread; ``step`` sets the first event and waits for the second."""
    paused, go_on, out = threading.Event(), threading.Event(), []

    def step() -> None:
        paused.set()
        assert go_on.wait(10)

    def run() -> None:
        try:
            out.append(work(step))  # type: ignore[operator]
        except Exception as exc:
            out.append(exc)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    assert paused.wait(10)
    return go_on, paused, out


def _finished(out: list[object]) -> object:
    for _ in range(1000):
        if out:
            return out[0]
        threading.Event().wait(0.01)
    raise AssertionError("the reader did not end")


def test_rows_left_to_read_are_read_to_their_end_after_the_close(tmp_path: Path) -> None:
    db = Database(tmp_path / "omoide.db")
    with db.write() as conn:
        conn.execute("CREATE TABLE notes (n INTEGER)")
        conn.executemany("INSERT INTO notes VALUES (?)", [(n,) for n in range(1000)])

    def read(step: object) -> object:
        conn = db.conn()
        rows = conn.execute("SELECT n FROM notes ORDER BY n")
        first = rows.fetchmany(10)
        step()  # type: ignore[operator]  # the close comes here, mid-read
        got = [r[0] for r in first + rows.fetchall()]
        try:
            conn.execute("SELECT 1")
        except StorageUnavailable as exc:
            return got, str(exc)
        return got, None

    go_on, _, out = _in_thread(read)
    db.close()
    go_on.set()
    got, refused = _finished(out)  # type: ignore[misc]
    assert got == list(range(1000))
    assert refused is not None and "was closed" in refused


def test_an_idle_connection_of_another_thread_is_closed_at_once(tmp_path: Path) -> None:
    db = Database(tmp_path / "omoide.db")

    def idle(step: object) -> object:
        conn = db.conn()
        conn.execute("SELECT 1").fetchall()
        step()  # type: ignore[operator]  # idle here while the close comes
        return conn

    go_on, _, out = _in_thread(idle)
    db.close()
    go_on.set()
    conn = _finished(out)
    with pytest.raises(StorageUnavailable, match="was closed"):
        conn.execute("SELECT 1")  # type: ignore[attr-defined]
    with pytest.raises(Exception, match="closed database"):
        conn.total_changes  # type: ignore[attr-defined]  # sqlite3's own: it is closed  # noqa: B018


def test_the_closed_refusal_names_the_folder_as_every_message_names_a_path(
    tmp_path: Path,
) -> None:
    """In single quotes, its controls escaped (``engine.errors.path_named``): Python's repr
    wrote a folder holding a quote in double quotes, and a C1 control as ``\\x85``."""
    folder = tmp_path / "it's\x85"
    db = Database(folder / "omoide.db")
    db.close()
    shown = str(folder).replace("\x85", "\\u0085")
    with pytest.raises(StorageUnavailable) as refused, db.write():
        pass
    assert str(refused.value) == (
        f"the database of the data folder '{shown}' was closed (the server is stopping); "
        "nothing of this write was stored: try again once it runs again"
    )
