"""While storage is unavailable the job workers say so once, not once per poll: one WARNING
line for the outage (no traceback), polls ever less often while it lasts, and one INFO line
when storage serves again. A PostgreSQL server of the test's own is stopped and started again
(the run's shared one serves the other tests).

Before: every poll logged ``job worker error`` at ERROR with a full traceback for the expected
``StorageUnavailable``, for as long as the server was down."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from pg_testing import PgServer, start_pg_server

from omoide.clock import FixedClock
from omoide.jobs import OUTAGE_FIRST_WAIT_S, JobRunner
from omoide.model import Job
from omoide.store.postgres.db import PgDatabase
from omoide.store.postgres.jobs import PgJobStore

pytestmark = pytest.mark.postgres_only

WAIT_S = 0.3  # the pool's wait for a connection: the 503 comes this soon


@pytest.fixture
def own_server() -> Iterator[PgServer]:
    server, folder = start_pg_server()
    try:
        yield server
    finally:
        server.stop()
        folder.cleanup()


class Polls(PgJobStore):
    """The real queue, counting the workers' polls."""

    polls = 0

    def claim(self, **kwargs: Any) -> Job | None:
        self.polls += 1
        return super().claim(**kwargs)


def _until(check: Callable[[], bool], timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def _said(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name == "omoide.jobs"]


def _last_said(caplog: pytest.LogCaptureFixture, level: int) -> bool:
    said = _said(caplog)
    return bool(said) and said[-1].levelno == level


def test_an_outage_is_one_warning_and_its_end_one_info(
    own_server: PgServer, clock: FixedClock, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="omoide.jobs")
    with own_server.database() as url:
        db = PgDatabase(url, max_size=2, wait_s=WAIT_S)
        jobs = Polls(db)
        runner = JobRunner(jobs, clock, {}, workers=2, poll_s=0.05, tick=lambda: None)
        runner.start()
        try:
            own_server.stop()
            # While the server shuts down, one of the pool's connections can still answer a poll
            # after another was cut (CI saw WARNING, INFO, WARNING): each line is true. The
            # steady outage is measured once the server is down and the last line is a warning.
            _until(lambda: _last_said(caplog, logging.WARNING))
            before, jobs.polls = len(_said(caplog)), 0
            time.sleep(3 * OUTAGE_FIRST_WAIT_S + 3 * WAIT_S)  # polls 1 s, then 2 s apart
            polls, stopping, during = jobs.polls, _said(caplog)[:before], _said(caplog)[before:]
            own_server.restart()
            _until(lambda: _last_said(caplog, logging.INFO))
            jobs.polls = 0
            _until(lambda: jobs.polls > 10)  # polled every poll_s again
        finally:
            runner.stop()
            db.close()
    # each worker: its first poll that failed, if after the warning, then those 1 s and 2 s
    # later, at most (polled every poll_s plus the pool's wait, 0.35 s, each made about 11)
    assert polls <= 2 * 3, polls
    assert during == []  # not a line per poll while the outage lasts
    said = [(r.levelname, r.exc_info) for r in stopping]
    assert said[0] == ("WARNING", None)
    assert said == [("WARNING", None), ("INFO", None)] * (len(said) // 2) + [("WARNING", None)]
    for warning in (r.getMessage() for r in stopping if r.levelno == logging.WARNING):
        assert warning.startswith("storage unavailable; background jobs wait until it serves again")
        assert "PostgreSQL database" in warning
    after = [(r.levelname, r.getMessage()[:27]) for r in _said(caplog)[len(stopping) :]]
    assert after[0] == ("INFO", "storage serves again after ")
    assert not [r for r in _said(caplog)[len(stopping) :] if r.levelno >= logging.WARNING]
