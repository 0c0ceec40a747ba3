"""Private files: the data folder is 0700, the database and its WAL and SHM files 0600.

SQLite creates ``-wal`` and ``-shm`` with the mode of the database file, so creating that file
0600 before the first connection is enough for all three; files of an older install are
tightened when opened. The folder is made 0700 when created here, and tightened when it is
ours and not a shared sticky folder such as ``/tmp``.
"""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path

from omoide.engine.errors import path_named
from omoide.errors import InvalidInput

__all__ = ["FILE_MODE", "FOLDER_MODE", "open_private", "private_database", "private_folder"]

FOLDER_MODE = 0o700
FILE_MODE = 0o600

_SIDE_FILES = ("-wal", "-shm", "-journal")


def private_folder(path: Path) -> None:
    """Create ``path`` (and missing parents) 0700, or tighten it if it is ours."""
    if not path.exists():
        try:
            path.mkdir(parents=True, mode=FOLDER_MODE, exist_ok=True)
        except OSError as exc:
            raise _unwritable(path, exc) from None
        os.chmod(path, FOLDER_MODE)  # mkdir's mode is filtered by the umask
        return
    info = path.stat()
    if not stat.S_ISDIR(info.st_mode):
        # a file (or a device: --data /dev/null) is no folder, and its mode is not ours to
        # change: chmod 0700 here once made /dev/null unwritable for every other user
        raise InvalidInput(f"the data folder {path_named(path)} is not a folder")
    ours = info.st_uid == os.getuid() and not info.st_mode & stat.S_ISVTX
    if ours and stat.S_IMODE(info.st_mode) != FOLDER_MODE:
        # Not allowed (EPERM) or a read-only file system (EROFS, where even a folder already
        # 0700 could not be chmod-ed, and every command was a traceback): left as it is, and
        # the database's own open says what cannot be written.
        with contextlib.suppress(OSError):
            os.chmod(path, FOLDER_MODE)


def private_database(path: Path) -> None:
    """Create the database file 0600 (its WAL and SHM inherit the mode); tighten old ones."""
    private_folder(path.parent)
    os.close(open_private(path))
    for candidate in (path, *(path.with_name(path.name + s) for s in _SIDE_FILES)):
        with contextlib.suppress(OSError):  # gone, not ours, or a read-only file system
            if stat.S_IMODE(candidate.stat().st_mode) != FILE_MODE:
                os.chmod(candidate, FILE_MODE)


def open_private(path: Path) -> int:
    """A descriptor of ``path`` in the data folder, read-write, created 0600 when missing."""
    try:
        return os.open(path, os.O_RDWR | os.O_CREAT, FILE_MODE)
    except OSError as exc:
        raise _unwritable(path.parent, exc) from None


def _unwritable(folder: Path, exc: OSError) -> InvalidInput:
    """A data folder where the database or its lock cannot be made (no permission, a
    read-only file system, a folder such as /proc): the OSError's traceback before."""
    return InvalidInput(
        f"cannot write in the data folder {path_named(folder)}: "
        f"{exc.strerror or exc}; give a folder you can write (OMOIDE_DATA or --data)"
    )
