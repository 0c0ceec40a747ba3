"""One embedding model in use per SQLite data folder at a time, across processes.

The folder records the model its vectors come from, and a process checks that record when it
starts. ``omoide reindex`` changes the record, so a process writing to the folder during a
reindex (a server, ``omoide mcp``, ``omoide memory add``, ``omoide import``…) would go on
writing vectors of the old model under the new record, or erase a row the reindex is about to
write a vector for; ``omoide restore`` replaces the database a running process has open. Hence
``<data>/omoide.lock``: every process that writes memories, conversations or their vectors
holds it shared while it runs (servers, and the CLI's writing commands:
``cli_common.holding``); ``omoide reindex`` and ``omoide restore`` hold it exclusively, so they
refuse while any of those runs, and those refuse while a reindex or restore runs; so does
``omoide migrate``, whose copy into PostgreSQL would miss what a server wrote after it.
Commands that only read, or write nothing with a vector (keys, personas created, decay), take
no hold. An
advisory ``flock``: the kernel drops it when the process ends, however it ends. With
``OMOIDE_DATABASE_URL`` the folder holds no data and servers may run on other hosts: no lock is
taken (stop every server before ``omoide reindex`` by hand).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import IO

from omoide.errors import Conflict
from omoide.store.sqlite.files import open_private, private_folder

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX: no lock, as before
    fcntl = None  # type: ignore[assignment]

__all__ = ["EXCLUSIVE_REASONS", "LOCK_NAME", "hold_exclusive", "hold_shared"]

LOCK_NAME = "omoide.lock"


def _open(data_dir: Path) -> IO[bytes]:
    private_folder(data_dir)
    return os.fdopen(open_private(data_dir / LOCK_NAME), "r+b")


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


def hold_shared(data_dir: Path, command: str) -> IO[bytes] | None:
    """The shared hold of a process that writes to the folder (``omoide <command>``: ``serve``,
    ``mcp``, ``memory add``…) for as long as the returned handle is open; Conflict while
    ``omoide reindex``, ``omoide restore`` or ``omoide migrate`` holds the folder."""
    return _hold(
        data_dir,
        exclusive=False,
        refused=(
            f"the data folder {data_dir} is in use by `omoide reindex`, `omoide restore` or "
            f"`omoide migrate`, which rewrites or copies it; run `omoide {command}` again when it "
            "has finished"
        ),
    )


# Why a command needs the folder to itself, said when it is refused.
EXCLUSIVE_REASONS = {
    "reindex": "which changes the embedder the folder's vectors come from (a running server "
    "would go on writing vectors of the old one)",
    "restore": "which replaces the folder's database (a running server would go on using the "
    "one it opened)",
    "migrate": "which copies the folder's database as it is at that moment (what a running "
    "server wrote afterwards would be missing from the copy)",
}


def hold_exclusive(data_dir: Path, command: str) -> IO[bytes] | None:
    """The exclusive hold of ``omoide <command>`` (``reindex``, ``restore``, ``migrate``);
    Conflict while a server or a writing command uses the folder."""
    return _hold(
        data_dir,
        exclusive=True,
        refused=(
            f"another Omoide process is using the data folder {data_dir}: a server (`omoide serve` "
            "or `omoide mcp`) or a command writing to it (`omoide memory add`, `omoide import`, "
            f"`omoide jobs wait`…); stop it before `omoide {command}`, "
            f"{EXCLUSIVE_REASONS[command]}"
        ),
    )
