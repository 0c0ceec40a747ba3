"""The writes a stop makes after its waits are bounded too: putting back the jobs still running
(``JobRunner.stop``: up to ``jobs.PUT_BACK_WAIT_S``) and writing the key uses noted
(``AuthService.flush`` in ``Omoide.close``: up to ``auth.KEY_USE_WAIT_S``), each of which waits
for the database's write lock, which a job's handler the stop left may hold as long as it runs.
What is not written then is said: a job stays leased and runs again once its lease runs out
(put back at once if the lock comes free before the process ends); a key's use is not kept.

Before (session 47): the stop waited for the put back without bound (for as long as the
handler held the lock), and ``Omoide.close`` raised a ``TimeoutError`` after 10 s of
``AuthService.flush``, so the store was never closed; the key-use thread, an executor's worker,
was then joined at the process's exit for as long as its write waited."""

from __future__ import annotations

import contextlib
import logging
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from omoide import jobs
from omoide.clock import FixedClock
from omoide.errors import StorageUnavailable
from omoide.jobs import JobRunner
from omoide.model import Job
from omoide.service.auth import KEY_USE_WAIT_S
from omoide.store.sqlite.db import CLOSE_WAIT_S
from omoide.wiring import Omoide

pytestmark = pytest.mark.sqlite_only  # the write lock of one SQLite file, in this process

SLOW = "test.slow"


@pytest.fixture
def go_on() -> Iterator[threading.Event]:
    event = threading.Event()
    yield event
    event.set()  # what held the write lock ends with the test


def _status(app: Omoide, job_id: int) -> tuple[str, int]:
    row = (
        app.store.db.conn()
        .execute("SELECT status, attempts FROM jobs WHERE id = ?", (job_id,))
        .fetchone()
    )
    return row[0], row[1]


def test_a_stop_does_not_wait_without_bound_to_put_back_a_job_holding_the_write_lock(
    app: Omoide,
    clock: FixedClock,
    go_on: threading.Event,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(jobs, "PUT_BACK_WAIT_S", 0.5)
    inside = threading.Event()

    def handler(job: Job) -> None:  # a job whose write lasts past the stop's wait
        with app.store.db.write():
            inside.set()
            go_on.wait(30)

    job_id = app.jobs.enqueue(kind=SLOW, persona_id=None, payload={}, now=clock.now())
    runner = JobRunner(app.jobs, clock, {SLOW: handler}, workers=1)
    runner.start()
    assert inside.wait(10)
    threading.Timer(20.0, go_on.set).start()  # (before: the stop waited until then)
    started = time.monotonic()
    with caplog.at_level(logging.INFO, logger="omoide.jobs"):
        assert runner.stop(timeout=0.3) is False
    assert time.monotonic() - started < 10.0  # its waits, 0.3 s and 0.5 s, not the lock's 20 s
    said = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert said == [
        f"stopped with 1 job still running (ids {job_id}), not yet put back in the queue: the "
        "database's write lock is held (by one of them, or another process); not waited for: "
        "each runs again on the next start, once its lease of 60 s runs out (at once if this "
        "process puts it back before it ends)"
    ]
    assert _status(app, job_id) == ("running", 1)  # still leased: nothing lost

    # the lock comes free: the job is put back after all, and said so (the line follows the
    # write, on the put back's thread)
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="omoide.jobs"):
        go_on.set()
        deadline = time.monotonic() + 30
        while not any(r.levelno >= logging.WARNING for r in caplog.records):
            assert time.monotonic() < deadline, _status(app, job_id)
            time.sleep(0.02)
    assert _status(app, job_id) == ("pending", 0)
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING] == [
        f"stopped with 1 job still running (ids {job_id}): put back in the queue, they run "
        "again on the next start"
    ]


def test_the_close_does_not_wait_without_bound_to_write_a_key_use(
    app: Omoide, go_on: threading.Event, caplog: pytest.LogCaptureFixture
) -> None:
    _, key = app.auth.create_persona("rin")
    held = threading.Event()

    def hold() -> None:  # a write the close cannot wait for (a job's handler a stop left)
        with contextlib.suppress(StorageUnavailable), app.store.db.write():
            held.set()
            go_on.wait(30)  # then refused at its end: the store was closed meanwhile

    threading.Thread(target=hold, daemon=True).start()
    assert held.wait(10)
    app.auth.authenticate(f"Bearer {key}")  # its use is noted, to be written off the request
    started = time.monotonic()
    with caplog.at_level(logging.WARNING):
        app.close()  # before: a TimeoutError after 10 s, the store left open
    assert time.monotonic() - started < KEY_USE_WAIT_S + CLOSE_WAIT_S + 5.0  # not the 30 s
    assert (
        "the last use of 1 key was not written within 2 s (the database's write lock stayed "
        "held): its last_used_at keeps the time written before"
    ) in [r.getMessage() for r in caplog.records]


# A process that stops while its key use waits for a write lock held to the end: it exits.
_EXIT_WITH_A_KEY_USE_WAITING = textwrap.dedent(
    """
    import sys, threading, time
    from pathlib import Path
    from omoide.config import Settings
    from omoide.embed.hashing import HashEmbedder
    from omoide.wiring import build

    app = build(
        Settings.from_env({}, data_dir=Path(sys.argv[1])), embedder=HashEmbedder(), llm=None
    )
    _, key = app.auth.create_persona("rin")
    held = threading.Event()

    def hold():
        with app.store.db.write():
            held.set()
            time.sleep(120)

    threading.Thread(target=hold, daemon=True).start()
    held.wait(10)
    app.auth.authenticate(f"Bearer {key}")
    app.close()
    print("closed", flush=True)
    """
)


def test_a_process_stopping_with_a_key_use_unwritten_exits(tmp_path: Path) -> None:
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-c", _EXIT_WITH_A_KEY_USE_WAITING, str(tmp_path / "data")],
        capture_output=True,
        text=True,
        timeout=60,  # before: held at its exit for the lock's 120 s
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout == "closed\n"
    assert time.monotonic() - started < 50
