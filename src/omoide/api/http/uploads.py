"""Where an HTTP import spools its body: a file in the data folder's ``uploads`` folder, never
the system's temporary folder.

The file is removed when the import ends, however it ends. A server killed mid-upload (kill -9,
a power cut) cannot remove it: in ``/tmp`` it stayed, a copy of the user's memories outside the
0700 data folder, until the system cleaned ``/tmp``. Here it stays inside the data folder, and
the next server to start, or the next import, removes it (:func:`clear_stale_uploads`). Each
upload holds an exclusive ``flock`` on its file while it lasts, which the kernel releases when
its process dies: the lock, not the file's age, tells an abandoned upload from one another
server on the same folder is still receiving.
"""

from __future__ import annotations

import contextlib
import errno
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX: no lock, so no file is known abandoned
    fcntl = None  # type: ignore[assignment]

from omoide.engine.errors import path_named
from omoide.errors import StorageFull

__all__ = ["UPLOADS", "clear_stale_uploads", "no_room_refused", "upload_file"]

UPLOADS = "uploads"
_PREFIX, _SUFFIX = "import-", ".upload"


@contextlib.contextmanager
def upload_file(data_dir: Path) -> Iterator[Path]:
    """A new empty file (0600) in the data folder's uploads folder, locked while the block
    runs and removed when it ends. Abandoned uploads of dead processes are removed first."""
    folder = data_dir / UPLOADS
    with no_room_refused(data_dir):
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        clear_stale_uploads(data_dir)
        fd, path = _locked_file(folder)
    try:
        yield path
    finally:
        path.unlink(missing_ok=True)
        os.close(fd)


_NO_ROOM = (errno.ENOSPC, errno.EDQUOT)


@contextlib.contextmanager
def no_room_refused(data_dir: Path) -> Iterator[None]:
    """The data folder's disk (or the user's quota) has no room for the upload: the same 507
    :class:`StorageFull` as a write of the database that finds no room, not a 500. The upload
    file is removed by :func:`upload_file`; nothing was imported."""
    try:
        yield
    except OSError as exc:
        if exc.errno not in _NO_ROOM:
            raise
        raise StorageFull(
            f"the disk of the data folder {path_named(data_dir)} is full ({exc.strerror}); the "
            "upload was not stored and nothing was imported: free some space and try again"
        ) from None


def _locked_file(folder: Path) -> tuple[int, Path]:
    """A new file and its descriptor, holding its lock. A sweep may lock and remove the file
    between its creation and the lock: then it is no longer the one at its path, and another
    is made."""
    while True:
        fd, name = tempfile.mkstemp(prefix=_PREFIX, suffix=_SUFFIX, dir=folder)
        if fcntl is None:
            return fd, Path(name)
        fcntl.flock(fd, fcntl.LOCK_EX)
        with contextlib.suppress(FileNotFoundError):
            if os.stat(name).st_ino == os.fstat(fd).st_ino:
                return fd, Path(name)
        os.close(fd)


def clear_stale_uploads(data_dir: Path) -> int:
    """Remove the uploads no living process holds (an import whose server was killed); the
    number removed."""
    folder = data_dir / UPLOADS
    if fcntl is None or not folder.is_dir():
        return 0
    removed = 0
    for path in folder.glob(f"{_PREFIX}*{_SUFFIX}"):
        try:
            fd = os.open(path, os.O_RDONLY)
        except OSError:  # gone meanwhile
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:  # held: an import still receiving or reading it
            os.close(fd)
            continue
        try:
            path.unlink(missing_ok=True)
            removed += 1
        finally:
            os.close(fd)
    return removed
