"""A data folder that stops taking writes while the server runs (a file system the kernel
remounted read-only after a disk error, a file made immutable, a disk failing writes): a write
is a 503 ``storage_unavailable`` naming the folder and what to do, nothing of it stored, and
the server writes again once the folder does. Before: a 500 ``internal`` (SQLite's "disk I/O
error" reached the app's last-resort handler).

The failure is real: ``omoide.db`` and its write-ahead log made immutable (``chattr +i``) under
the running server, so SQLite's next write into them fails with the operating system's
``EPERM`` (as one into a file system remounted read-only fails with ``EROFS``: Linux refuses to
remount a file system read-only while a file on it is open for writing, so the server's folder
cannot be remounted under it here). The ``-shm`` index stays writable: SQLite maps it into
memory, and a store into an immutable mapping would kill the process (SIGBUS)."""

from __future__ import annotations

import shutil
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from omoide_testing import LiveServer, files_holding

# SQLite's files in the data folder; PostgreSQL's data files are the server's own
pytestmark = pytest.mark.sqlite_only


def _chattr(flag: str, files: list[Path]) -> bool:
    done = subprocess.run(["chattr", flag, *map(str, files)], capture_output=True, text=True)
    return done.returncode == 0


@contextmanager
def _immutable(db: Path, *, log_too: bool = True) -> Iterator[None]:
    """``db`` and its WAL (``log_too``) immutable while the block runs (skipped where
    ``chattr +i`` is not allowed: not root, or a file system without the flag)."""
    files = [db, db.with_name(db.name + "-wal")] if log_too else [db]
    if shutil.which("chattr") is None or not _chattr("+i", files):
        pytest.skip("no immutable files here (chattr +i needs root and ext2/3/4, xfs, btrfs …)")
    try:
        yield
    finally:
        assert _chattr("-i", files)


def test_a_write_into_a_folder_that_stopped_taking_writes_is_503_and_nothing_stored(
    held_server: LiveServer,
) -> None:
    key = held_server.create_persona("rin")
    omoide = held_server.omoide
    data = str(omoide.settings.data_dir)
    with held_server.client(key) as rin:
        assert rin.post("/api/memories/rin", json={"content": "The user keeps bees."}).is_success
        with _immutable(omoide.settings.db_path):
            refused = [
                rin.post("/api/memories/rin", json={"content": "The user grows tomatoes."}),
                rin.put("/api/user-state/rin", json={"city": "Osaka"}),
            ]
            listed = rin.get("/api/memories/rin")
            found = rin.get("/api/search/rin", params={"q": "bees"})  # a recall is not kept
        for reply in refused:
            assert reply.status_code == 503, reply.text
            error = reply.json()["error"]
            assert error["code"] == "storage_unavailable"
            message = error["message"]
            assert message.startswith(f"the data folder '{data}' "), message
            assert "nothing of this write was stored" in message, message
            assert "writable again" in message and "try again" in message, message
        assert listed.status_code == 200, listed.text  # reads go on
        assert [m["content"] for m in listed.json()["memories"]] == ["The user keeps bees."]
        assert found.status_code == 200, found.text
        assert [r["content"] for r in found.json()["results"]] == ["The user keeps bees."]
        again = rin.post("/api/memories/rin", json={"content": "The user grows tomatoes."})
        assert again.status_code == 201, again.text  # writable again: written again
        contents = sorted(m["content"] for m in rin.get("/api/memories/rin").json()["memories"])
    assert contents == ["The user grows tomatoes.", "The user keeps bees."]


def _scrubbed(folder: Path, text: str, wait_s: float = 10.0) -> list[str]:
    """The files still holding ``text`` once the owed scrub had ``wait_s`` to happen."""
    deadline = time.monotonic() + wait_s
    while (held := files_holding(folder, text)) and time.monotonic() < deadline:
        time.sleep(0.1)
    return held


def test_a_purge_whose_scrub_the_folder_refuses_is_erased_and_says_the_scrub_is_pending(
    held_server: LiveServer,
) -> None:
    """The purge commits (its write-ahead log takes writes), then the checkpoint that scrubs
    the database file is refused (the file immutable): the reply is the purge's, saying
    ``scrub_pending``, and the server scrubs the files once the folder takes writes again.
    Before: a 500 ``internal`` for a purge that had been committed."""
    key = held_server.create_persona("rin")
    omoide = held_server.omoide
    data = omoide.settings.data_dir
    with held_server.client(key) as rin:
        made = rin.post("/api/memories/rin", json={"content": "The user keeps ZQXJV bees."})
        memory = made.json()["memory"]["key"]
        with _immutable(omoide.settings.db_path, log_too=False):
            purged = rin.delete(f"/api/memories/rin/{memory}", params={"purge": "true"})
            assert purged.status_code == 200, purged.text
            assert purged.json()["scrub_pending"] is True
            assert rin.get(f"/api/memories/rin/{memory}").status_code == 404  # erased
            assert files_holding(data, "ZQXJV")  # its text: still in the files
        assert _scrubbed(data, "ZQXJV") == []  # the folder takes writes: scrubbed
        kept = rin.post("/api/memories/rin", json={"content": "The user grows tomatoes."})
        gone = rin.delete(f"/api/memories/rin/{kept.json()['memory']['key']}?purge=true")
        assert gone.json()["scrub_pending"] is False
