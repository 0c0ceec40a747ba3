"""``omoide serve`` and ``omoide mcp`` stopped while a job runs wait for it (``jobs.STOP_WAIT_S``
in all, one deadline for every worker), and a second Ctrl+C ends that wait at once: the job is
put back in the queue, its attempt not counted, for the next start; the store is closed; exit
status 0.

Before: each worker thread was waited for 10 s of its own, one after another, and a second
Ctrl+C did not end the wait (``omoide mcp`` only logged it); the job left was still ``running``
under its lease."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner
from omoide_testing import free_port

from omoide.cli import main
from omoide.jobs import STOP_WAIT_S

pytestmark = pytest.mark.sqlite_only  # the stop is the command's; the queue is tested on both

# ``omoide`` whose job runner has one job queued that runs for two minutes, saying when it starts
SLOW_JOB = """
import sys, time
from omoide import jobs
real_init = jobs.JobRunner.__init__
def init(self, queue, clock, handlers, **kwargs):
    def slow(job):
        print(f"job {job.id} running", file=sys.stderr, flush=True)
        time.sleep(120)
    handlers["test.slow"] = slow
    real_init(self, queue, clock, handlers, **kwargs)
    queue.enqueue(kind="test.slow", persona_id=None, payload={}, now=clock.now())
jobs.JobRunner.__init__ = init
from omoide.cli import main
main(sys.argv[1:], prog_name="omoide")
"""


@pytest.fixture
def env(data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    monkeypatch.delenv("OMOIDE_DATABASE_URL", raising=False)
    values = {"OMOIDE_DATA": str(data_dir), "OMOIDE_EMBEDDER": "hash", "OMOIDE_WORKERS": "2"}
    for name, value in values.items():
        monkeypatch.setenv(name, value)
    made = CliRunner().invoke(main, ["persona", "create", "rin", "--json"])
    assert made.exit_code == 0, made.output
    values["key"] = json.loads(made.stdout)["api_key"]
    return {**os.environ, **values}


def _serve(env: dict[str, str]) -> subprocess.Popen[str]:
    port = free_port()
    child = subprocess.Popen(
        [sys.executable, "-c", SLOW_JOB, "serve", "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/health", timeout=2).status_code == 200:
                return child
        except httpx.TransportError:
            time.sleep(0.1)
    child.kill()
    raise AssertionError(f"omoide serve did not answer: {child.communicate()[1]}")


def _mcp(env: dict[str, str]) -> subprocess.Popen[str]:
    """``omoide mcp``, its client connected (stdin held open) all along."""
    return subprocess.Popen(
        [sys.executable, "-c", SLOW_JOB, "mcp", "--persona", "rin"],
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )


def _slow_jobs(data_dir: Path) -> list[tuple[str, int]]:
    db = sqlite3.connect(data_dir / "omoide.db")
    try:
        rows = db.execute("SELECT status, attempts FROM jobs WHERE kind = 'test.slow'")
        return [tuple(r) for r in rows.fetchall()]
    finally:
        db.close()


@pytest.mark.parametrize(
    "started", [pytest.param(_serve, id="serve"), pytest.param(_mcp, id="mcp")]
)
def test_a_second_ctrl_c_ends_the_wait_for_a_running_job_which_runs_on_the_next_start(
    env: dict[str, str], data_dir: Path, started: object
) -> None:
    child = started(env)  # type: ignore[operator]
    assert child.stderr is not None
    try:
        said: list[str] = []
        deadline = time.monotonic() + 60
        while not any(" running" in line and line.startswith("job ") for line in said):
            said.append(child.stderr.readline())
            assert time.monotonic() < deadline, said
        job_id = int(said[-1].split()[1])
        child.send_signal(signal.SIGINT)
        time.sleep(1.5)  # the stop waits for the job
        assert child.poll() is None
        asked = time.monotonic()
        child.send_signal(signal.SIGINT)
        _out, err = child.communicate(timeout=60)
        took = time.monotonic() - asked
    finally:
        if child.poll() is None:
            child.kill()
            child.communicate()
    err = "".join(said) + err
    assert child.returncode == 0, err
    assert took < STOP_WAIT_S / 2, (took, err)  # the wait alone had 8.5 s to run
    assert "Traceback" not in err and "Aborted!" not in err, err
    put_back = (
        f"stopped with 1 job still running (ids {job_id}): put back in the queue, they run "
        "again on the next start"
    )
    assert len([line for line in err.splitlines() if put_back in line]) == 1, err
    assert _slow_jobs(data_dir) == [("pending", 0)]  # its attempt not counted
