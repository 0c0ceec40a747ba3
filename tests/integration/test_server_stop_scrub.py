"""``omoide serve`` and ``omoide mcp`` settle an erase's owed scrub as they stop, as a command
that erased does before it ends (``cli_common.SCRUB_WAIT_S``, test_cli_erase_scrub.py): a scrub
an older read held back past the erase is waited for, and done once that read ends, while the
process that held it stays connected; one still owed when the wait is over is said on stderr in
one line (the shared wording, ``SCRUB_PENDING_MEANS``), and the text stays in the files for the
next process to open the folder.

Before: ``serve`` never closed its store (uvicorn raises SIGTERM again once it has stopped, and
the process ended there) and ``mcp`` closed it with one try at once: the thread that retried the
scrub died with the process, and the erased text stayed in the folder's files. ``mcp`` sent
SIGTERM died at once, its store not closed; sent SIGINT, it waited for its client's next line."""

from __future__ import annotations

import functools
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner
from mcp_checks import OPENING_LINES
from older_read import older_read
from omoide_testing import files_holding, free_port

from omoide.cli import main
from omoide.cli_common import SCRUB_LEFT, SCRUB_WAIT_S
from omoide.model import SCRUB_PENDING_MEANS

pytestmark = pytest.mark.sqlite_only  # an older SQLite read holds the scrub back; PostgreSQL's
# VACUUM at close is settled by the same close (``Database.close``: test_cli_erase_scrub.py)

PIN = "QWKZX-7741"
WAITING = f"waiting up to {SCRUB_WAIT_S:g} s to scrub them"
OWED = f"the server stopped with an erase's scrub owed: {SCRUB_PENDING_MEANS}; {SCRUB_LEFT}"
# ``omoide`` with the scrub wait cut to 1 s, for a stop whose scrub stays held past it
SHORT_WAIT = (
    "import sys; from omoide import cli_common; cli_common.SCRUB_WAIT_S = 1.0; "
    "from omoide.cli import main; main(sys.argv[1:], prog_name='omoide')"
)


@pytest.fixture
def env(data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """A folder with persona rin and one memory holding :data:`PIN`; the environment of an
    ``omoide`` process on it."""
    monkeypatch.delenv("OMOIDE_DATABASE_URL", raising=False)
    values = {"OMOIDE_DATA": str(data_dir), "OMOIDE_EMBEDDER": "hash"}
    for name, value in values.items():
        monkeypatch.setenv(name, value)
    made = CliRunner().invoke(main, ["persona", "create", "rin", "--json"])
    assert made.exit_code == 0, made.output
    values["key"] = json.loads(made.stdout)["api_key"]
    added = CliRunner().invoke(main, ["memory", "add", "-p", "rin", f"The code is {PIN}."])
    assert added.exit_code == 0, added.output
    values["memory"] = added.stdout.split()[-1]
    return {**os.environ, **values}


def _serving(env: dict[str, str], command: list[str]) -> tuple[subprocess.Popen[str], str]:
    port = free_port()
    child = subprocess.Popen(
        [*command, "serve", "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{url}/health", timeout=2).status_code == 200:
                return child, url
        except httpx.TransportError:
            time.sleep(0.1)
    child.kill()
    raise AssertionError(f"omoide serve did not answer: {child.communicate()[1]}")


def _until_waiting(child: subprocess.Popen[str]) -> list[str]:
    """The lines ``child`` says on stderr as it stops, up to the one saying its close waits for
    the owed scrub (all of them if it ends without it: the caller's assertions say so). The
    read that holds the scrub is ended only then: ended at a set time after the stop, it could
    end before a slow close began (a loaded machine), whose scrub then needed no wait."""
    assert child.stderr is not None
    said: list[str] = []
    deadline = time.monotonic() + 60
    while not said or ("waiting up to " not in said[-1] and said[-1]):
        said.append(child.stderr.readline())
        assert time.monotonic() < deadline, said
    return said


def _purge_over_http(env: dict[str, str], url: str) -> None:
    headers = {"Authorization": f"Bearer {env['key']}"}
    done = httpx.delete(
        f"{url}/api/memories/rin/{env['memory']}?purge=true", headers=headers, timeout=30
    )
    assert done.status_code == 200, done.text
    assert done.json()["scrub_pending"] is True  # held by the older read


def _stopped_serve(
    env: dict[str, str],
    command: list[str],
    end_read: Callable[[], None],
    signum: signal.Signals = signal.SIGTERM,
) -> str:
    """``omoide serve`` purging the memory while the read holds its scrub, then stopped
    (``signum``); the read ended 1.5 s into the close's wait for the scrub (``end_read``, a
    no-op to keep it); its stderr. A server stopped on purpose exits 0, saying nothing more
    (before: SIGTERM ended it by the signal uvicorn raised again, status -15)."""
    child, url = _serving(env, command)
    try:
        _purge_over_http(env, url)
        child.send_signal(signum)
        said = _until_waiting(child)
        ends = threading.Timer(1.5, end_read)
        ends.start()
        _out, err = child.communicate(timeout=60)
        ends.join()
        err = "".join(said) + err
        assert child.returncode == 0, err
        assert "Aborted!" not in err and "Traceback" not in err, err
    finally:
        if child.poll() is None:
            child.kill()
            child.communicate()
    return err


def _mcp_purged(env: dict[str, str], command: list[str]) -> subprocess.Popen[str]:
    """``omoide mcp`` that purged the memory (``memory_delete``, ``purge``) while the read
    holds its scrub, its client still connected."""
    child = subprocess.Popen(
        [*command, "mcp", "--persona", "rin"],
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert child.stdin is not None and child.stdout is not None
    try:
        call = {
            "jsonrpc": "2.0",
            "id": 2,
            "method": "tools/call",
            "params": {"name": "memory_delete", "arguments": {"key": env["memory"], "purge": True}},
        }
        child.stdin.write("\n".join([*OPENING_LINES, json.dumps(call)]) + "\n")
        child.stdin.flush()
        answers = [json.loads(child.stdout.readline()) for _ in range(2)]
        result = answers[1]["result"]
        assert result["structuredContent"]["scrub_pending"] is True, result
        said = result["content"][0]["text"]
        assert f"{SCRUB_PENDING_MEANS[0].upper()}{SCRUB_PENDING_MEANS[1:]}; the server" in said
    except BaseException:
        child.kill()
        child.wait()
        raise
    return child


def _stopped_mcp(
    env: dict[str, str],
    command: list[str],
    end_read: Callable[[], None],
    signum: signal.Signals | None = None,
) -> str:
    """``omoide mcp`` purging the memory while the read holds its scrub (:func:`_mcp_purged`),
    then its client gone (stdin closed), or, with ``signum``, sent that signal with its client
    still connected (it exits 0); the read ended 1.5 s into the close's wait for the scrub;
    its stderr."""
    child = _mcp_purged(env, command)
    assert child.stdin is not None and child.stderr is not None
    try:
        if signum is None:
            child.stdin.close()
        else:
            child.send_signal(signum)
        said = _until_waiting(child)
        ends = threading.Timer(1.5, end_read)
        ends.start()
        if signum is not None:  # bounded: before, SIGINT waited for the client's next line
            child.wait(timeout=60)  # (its stderr, a few log lines, fits in the pipe)
        err = "".join(said) + child.stderr.read()
        child.wait(timeout=60)
        ends.join()
        if signum is not None:
            assert child.returncode == 0, err
            assert "Traceback" not in err, err
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    return err


STOPS = [
    pytest.param(_stopped_serve, id="serve"),
    pytest.param(functools.partial(_stopped_serve, signum=signal.SIGINT), id="serve-sigint"),
    pytest.param(_stopped_mcp, id="mcp"),
    # before: SIGTERM ended the process at once (its store never closed, the scrub not
    # waited for), and SIGINT waited for the client's next line or its closing the pipe
    pytest.param(functools.partial(_stopped_mcp, signum=signal.SIGTERM), id="mcp-sigterm"),
    pytest.param(functools.partial(_stopped_mcp, signum=signal.SIGINT), id="mcp-sigint"),
]


@pytest.mark.parametrize("stopped", STOPS)
def test_a_server_that_stops_settles_the_scrub_an_erase_owes(
    env: dict[str, str], data_dir: Path, stopped: Callable[..., str]
) -> None:
    with older_read(data_dir) as end_read:
        started = time.monotonic()
        err = stopped(env, [sys.executable, "-m", "omoide"], end_read)
        assert WAITING in err, err
        assert OWED not in err
        assert files_holding(data_dir, PIN) == []  # the read's connection is still open
        assert time.monotonic() - started < 60


@pytest.mark.parametrize("stopped", STOPS)
def test_a_server_that_stops_with_the_scrub_still_held_says_so_in_one_line(
    env: dict[str, str], data_dir: Path, stopped: Callable[..., str]
) -> None:
    with older_read(data_dir):
        err = stopped(env, [sys.executable, "-c", SHORT_WAIT], lambda: None)
        assert "waiting up to 1 s to scrub them" in err, err
        assert [line for line in err.splitlines() if line.startswith("the server stopped")] == [
            OWED
        ]
        assert files_holding(data_dir, PIN)  # left for the next process to open the folder
    listed = CliRunner().invoke(main, ["persona", "list"])  # that next process
    assert listed.exit_code == 0, listed.output
    assert files_holding(data_dir, PIN) == []


def _serve_purged(env: dict[str, str], command: list[str]) -> subprocess.Popen[str]:
    """``omoide serve`` that purged the memory over HTTP while the read holds its scrub."""
    child, url = _serving(env, command)
    try:
        _purge_over_http(env, url)
    except BaseException:
        child.kill()
        child.communicate()
        raise
    return child


@pytest.mark.parametrize(
    "purged", [pytest.param(_serve_purged, id="serve"), pytest.param(_mcp_purged, id="mcp")]
)
def test_a_second_ctrl_c_stops_the_scrub_wait_at_once_saying_what_it_left(
    env: dict[str, str], data_dir: Path, purged: Callable[..., subprocess.Popen[str]]
) -> None:
    """Session 44: a second Ctrl+C while ``omoide serve`` waited for an erase's owed scrub did
    nothing: the wait ran its full 10 s. It now stops waiting at once, says so, and the
    server ends as the wait's end would: the owed scrub said in its one line (the erased text
    left in the files for the next process to open the folder, which scrubs it), the store
    closed, exit status 0. Session 45: ``omoide mcp`` the same (it only logged the signal)."""
    with older_read(data_dir):
        child = purged(env, [sys.executable, "-m", "omoide"])
        try:
            child.send_signal(signal.SIGINT)
            deadline = time.monotonic() + 30
            assert child.stderr is not None
            said: list[str] = []
            while not any(WAITING in line for line in said):  # the wait has begun
                said.append(child.stderr.readline())
                assert time.monotonic() < deadline, said
            asked = time.monotonic()
            child.send_signal(signal.SIGINT)
            while not any(line.startswith("the server stopped") for line in said):
                said.append(child.stderr.readline())  # what the wait ended with
                assert time.monotonic() < deadline + 30, said
            took = time.monotonic() - asked  # the process's own exit (its models freed) aside
            _out, err = child.communicate(timeout=60)
        finally:
            if child.poll() is None:
                child.kill()
                child.communicate()
        err = "".join(said) + err
        assert child.returncode == 0, err
        assert took < SCRUB_WAIT_S / 2, (took, err)  # the wait alone was SCRUB_WAIT_S
        assert "Traceback" not in err and "Aborted!" not in err, err
        assert "stopped waiting for the erase's scrub (a second Ctrl+C)" in err, err
        assert [line for line in err.splitlines() if line.startswith("the server stopped")] == [
            OWED
        ]
        assert files_holding(data_dir, PIN)  # left for the next process to open the folder
    listed = CliRunner().invoke(main, ["persona", "list"])  # that next process
    assert listed.exit_code == 0, listed.output
    assert files_holding(data_dir, PIN) == []


def test_a_second_ctrl_c_while_a_request_is_open_still_closes_the_app(
    env: dict[str, str], data_dir: Path
) -> None:
    """A second Ctrl+C while ``omoide serve`` waited for an open request (its body still
    coming) is uvicorn's forced quit, which skips the app's shutdown: the app was closed only
    as the event loop cancelled its lifespan, and the lifespan's and the open request's
    cancellations were two tracebacks on stderr. The app's shutdown runs all the same, at once
    (no scrub wait): the owed scrub said in its one line, no traceback, exit status 0."""
    with older_read(data_dir):
        child, url = _serving(env, [sys.executable, "-m", "omoide"])
        host, port = url.removeprefix("http://").split(":")
        try:
            _purge_over_http(env, url)
            with socket.create_connection((host, int(port)), timeout=10) as held:
                held.sendall(
                    f"POST /api/memories/rin HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "
                    f"{env['key']}\r\nContent-Type: application/json\r\nContent-Length: 100"
                    '\r\n\r\n{"content": '.encode()
                )
                time.sleep(0.5)  # the request is in the app, waiting for the rest of its body
                child.send_signal(signal.SIGINT)
                time.sleep(1)  # uvicorn waits for it (up to 3 s)
                child.send_signal(signal.SIGINT)
                _out, err = child.communicate(timeout=30)
        finally:
            if child.poll() is None:
                child.kill()
                child.communicate()
    assert child.returncode == 0, err
    assert "Traceback" not in err, err
    assert [line for line in err.splitlines() if line.startswith("the server stopped")] == [OWED]
