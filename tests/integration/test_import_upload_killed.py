"""An HTTP import whose server is killed mid-upload leaves no copy of the file outside the data
folder, and the next server removes the one it left inside.

Before, the body was spooled to the system's temporary folder (``tempfile``), which a killed
process cannot clean: the half-sent file (the user's memories) stayed there, outside the 0700
data folder. A real ``omoide serve`` process, its ``TMPDIR`` a folder of the test's own, an
upload sent slowly, and ``kill -9`` while it is being received.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
from omoide_testing import free_port

OMOIDE = Path(sys.executable).parent / "omoide"
ADMIN = "omo_admin_killed-upload"


def _serve(data: Path, temp: Path, log: Path) -> tuple[subprocess.Popen[bytes], int]:
    port = free_port()
    env = {
        **os.environ,
        "OMOIDE_EMBEDDER": "hash",
        "OMOIDE_DATA": str(data),
        "OMOIDE_PORT": str(port),
        "OMOIDE_ADMIN_KEY": ADMIN,
        "OMOIDE_WORKERS": "0",
        "TMPDIR": str(temp),
    }
    env.pop("OMOIDE_DATABASE_URL", None)
    with log.open("ab") as out:
        proc = subprocess.Popen(
            [str(OMOIDE), "serve"], env=env, stdout=out, stderr=out, stdin=subprocess.DEVNULL
        )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        assert proc.poll() is None, log.read_text(errors="replace")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/health", timeout=2).status_code == 200:
                return proc, port
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise AssertionError(log.read_text(errors="replace"))


def _files(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file())


def _spooled(folder: Path, head: bytes, timeout: float = 30) -> bool:
    """Whether some file under ``folder`` starts with ``head`` (the upload, received and
    written past the spooling file's buffer)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if any(p.read_bytes().startswith(head) for p in folder.rglob("*") if p.is_file()):
            return True
        time.sleep(0.1)
    return False


def test_an_upload_killed_half_way_leaves_nothing_outside_the_data_folder(tmp_path: Path) -> None:
    data, temp, log = tmp_path / "data", tmp_path / "tmp", tmp_path / "serve.log"
    temp.mkdir()
    proc, port = _serve(data, temp, log)
    try:
        key = httpx.post(
            f"http://127.0.0.1:{port}/api/personas",
            headers={"Authorization": f"Bearer {ADMIN}"},
            json={"name": "rin"},
        ).json()["api_key"]
        head = b'{"type": "header", "format": "omoide-export", "version": 1}\n'
        sent = head + b'{"type": "memory", "content": "' + b"The user keeps bees. " * 2000
        with socket.create_connection(("127.0.0.1", port)) as sock:
            sock.sendall(
                b"POST /api/import/rin HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                + f"Authorization: Bearer {key}\r\n".encode()
                + b"Content-Type: application/x-ndjson\r\nContent-Length: 100000\r\n\r\n"
                + sent
            )
            # the first part received and spooled; the rest never comes
            assert _spooled(tmp_path, head), _files(tmp_path)
            proc.send_signal(signal.SIGKILL)
            proc.wait(10)
        assert _files(temp) == []  # before: the half-sent file, left in TMPDIR
        (left,) = _files(data / "uploads")
        assert sent.startswith((data / "uploads" / left).read_bytes())
        proc, port = _serve(data, temp, log)  # the next server removes it
        assert _files(data / "uploads") == []
    finally:
        proc.kill()
        proc.wait(10)


def test_a_live_upload_is_not_removed_as_stale_and_is_removed_when_done(tmp_path: Path) -> None:
    """Two servers may share a data folder (on PostgreSQL): the lock, not the file's age, tells
    an abandoned upload from one still being received."""
    from omoide.api.http.uploads import clear_stale_uploads, upload_file

    with upload_file(tmp_path) as path:
        path.write_bytes(b"{}\n")
        assert clear_stale_uploads(tmp_path) == 0
        assert path.exists()
    assert _files(tmp_path / "uploads") == []
