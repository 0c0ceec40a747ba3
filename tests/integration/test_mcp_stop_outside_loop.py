"""``omoide mcp`` sent SIGTERM or SIGINT outside its protocol loop, while its store is built
(a model loading) or while it closes (an erase's owed scrub waited for), stops in order: the
build is unwound, the close goes on to its end, and the process exits 0 with no traceback.

Before: only the loop had handlers: SIGTERM killed the process there (status -15, the store
not closed), SIGINT said "Aborted!" and exited 1, the close cut short. Its client closing the
pipe during the close printed a ``RuntimeWarning`` (session 45)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from mcp_checks import OPENING_LINES

from omoide.cli import main

pytestmark = pytest.mark.sqlite_only  # the signal handling is the command's, not the store's

# ``omoide`` whose build and close each say so on stderr and take a while
SLOW = """
import sys, time
from omoide import cli
real_build, real_close = cli._build, cli.close_server
def build(data):
    print("building", file=sys.stderr, flush=True)
    time.sleep(float(sys.argv[1]))
    return real_build(data)
def close(app, **kwargs):
    print("closing", file=sys.stderr, flush=True)
    time.sleep(float(sys.argv[2]))
    real_close(app, **kwargs)
    print("closed", file=sys.stderr, flush=True)
cli._build, cli.close_server = build, close
cli.main(sys.argv[3:], prog_name="omoide")
"""


@pytest.fixture
def env(data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    monkeypatch.delenv("OMOIDE_DATABASE_URL", raising=False)
    values = {"OMOIDE_DATA": str(data_dir), "OMOIDE_EMBEDDER": "hash"}
    for name, value in values.items():
        monkeypatch.setenv(name, value)
    made = CliRunner().invoke(main, ["persona", "create", "rin"])
    assert made.exit_code == 0, made.output
    return {**os.environ, **values}


def _stopped(env: dict[str, str], signum: signal.Signals, at: str, waits: tuple[str, str]) -> str:
    """``omoide mcp`` sent ``signum`` once its stderr says ``at``; its stderr, after it exited
    0 (its client closes stdin at once: the protocol loop ends as soon as it starts)."""
    child = subprocess.Popen(
        [sys.executable, "-c", SLOW, *waits, "mcp", "--persona", "rin"],
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert child.stdin is not None and child.stderr is not None
    child.stdin.close()
    try:
        said = []
        while (line := child.stderr.readline()) and line != f"{at}\n":
            said.append(line)
        assert line == f"{at}\n", "".join(said)
        child.send_signal(signum)
        started = time.monotonic()
        err = "".join(said) + line + child.stderr.read()
        child.wait(timeout=60)
        assert child.returncode == 0, err
        assert "Traceback" not in err and "Aborted" not in err, err
        assert time.monotonic() - started < 20, err  # not the build's 30 s sleep
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    return err


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=lambda s: s.name)
def test_a_stop_during_the_build_unwinds_it_and_exits_0(
    env: dict[str, str], signum: signal.Signals
) -> None:
    err = _stopped(env, signum, "building", ("30", "0"))
    assert "closing" not in err  # no store was built: nothing to close
    # the folder is left as it was, usable at once
    done = subprocess.run(
        [sys.executable, "-m", "omoide.cli", "persona", "list"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert (done.returncode, done.stdout) == (0, "rin\t0 memories\n"), done.stderr


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=lambda s: s.name)
def test_a_stop_during_the_close_lets_it_finish_and_exits_0(
    env: dict[str, str], signum: signal.Signals
) -> None:
    err = _stopped(env, signum, "closing", ("0", "2"))
    assert err.endswith("closed\n"), err


def test_stdin_closed_while_the_stop_runs_warns_of_nothing(env: dict[str, str]) -> None:
    """Session 45: the client closed the pipe once a stop had begun (the protocol loop gone),
    and stdin's reader thread, handing over the pipe's end, printed ``RuntimeWarning:
    coroutine 'Queue.put' was never awaited`` on stderr; the hand-over is closed unrun now."""
    child = subprocess.Popen(
        [sys.executable, "-c", SLOW, "0", "2", "mcp", "--persona", "rin"],
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert child.stdin is not None and child.stdout is not None and child.stderr is not None
    try:
        child.stdin.write(OPENING_LINES[0] + "\n")
        child.stdin.flush()
        assert '"id":1' in child.stdout.readline().replace(" ", "")  # the loop reads stdin
        child.send_signal(signal.SIGTERM)
        said = []
        while (line := child.stderr.readline()) and line != "closing\n":
            said.append(line)
        assert line == "closing\n", "".join(said)
        child.stdin.close()  # the client goes while the stop runs
        err = "".join(said) + line + child.stderr.read()
        child.wait(timeout=60)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert child.returncode == 0, err
    assert err.endswith("closed\n"), err
    assert "RuntimeWarning" not in err and "never awaited" not in err, err
    assert "Traceback" not in err, err
