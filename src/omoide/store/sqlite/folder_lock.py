"""One embedding model in use per SQLite data folder at a time, across processes.

The folder records the model its vectors come from, and a process checks that record when it
starts. ``omoide reindex`` changes the record, so a server (or ``omoide mcp``) running on the
folder during a reindex would go on writing vectors of the old model under the new record, and
its semantic search would silently compare vectors of two models. Hence ``<data>/omoide.lock``:
``omoide serve`` and ``omoide mcp`` hold it shared while they run; ``omoide reindex`` holds it
exclusively, so it refuses while a server uses the folder and a server refuses to start while
a reindex runs. An advisory ``flock``: the kernel drops it when the process ends, however it
ends. With ``OMOIDE_DATABASE_URL`` the folder holds no data and servers may run on other hosts:
no lock is taken (stop every server before ``omoide reindex`` by hand).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import IO

from omoide.errors import Conflict
from omoide.store.sqlite.files import private_folder

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX: no lock, as before
    fcntl = None  # type: ignore[assignment]

__all__ = ["LOCK_NAME", "hold_for_reindex", "hold_for_serving"]

LOCK_NAME = "omoide.lock"


def _open(data_dir: Path) -> IO[bytes]:
    private_folder(data_dir)
    fd = os.open(data_dir / LOCK_NAME, os.O_RDWR | os.O_CREAT, 0o600)
    return os.fdopen(fd, "r+b")


def _hold(data_dir: Path, *, exclusive: bool, refused: str) -> IO[bytes] | None:
    if fcntl is None:
        return None
    handle = _open(data_dir)
    try:
        fcntl.flock(handle, (fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH) | fcntl.LOCK_NB)
    except BlockingIOError:
        handle.close()
        raise Conflict(refused) from None
    return handle


def hold_for_serving(data_dir: Path) -> IO[bytes] | None:
    """The shared hold of a server (``serve``, ``mcp``) for as long as the returned handle is
    open; Conflict while ``omoide reindex`` runs on the folder."""
    return _hold(data_dir, exclusive=False, refused=(
        f"`omoide reindex` is re-embedding the data folder {data_dir}; start the server when it "
        "has finished"))


def hold_for_reindex(data_dir: Path) -> IO[bytes] | None:
    """The exclusive hold of ``omoide reindex``; Conflict while a server uses the folder."""
    return _hold(data_dir, exclusive=True, refused=(
        f"a server (`omoide serve` or `omoide mcp`) is using the data folder {data_dir}; stop "
        "it before `omoide reindex`, which changes the embedder the folder's vectors come "
        "from (a running server would go on writing vectors of the old one)"))
