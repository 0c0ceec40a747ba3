"""What PostgreSQL refuses, said as Omoide's errors instead of a 500: text holding NUL (SQLite's
text can) and a write the server's disk has no room for (the same 507 as SQLite's full disk)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import psycopg

from omoide.errors import InvalidInput, StorageFull

__all__ = ["disk_full_refused", "nul_refused"]


@contextlib.contextmanager
def nul_refused() -> Iterator[None]:
    """PostgreSQL text cannot hold NUL characters (SQLite's can): a clear refusal, not a 500."""
    try:
        yield
    except psycopg.DataError as exc:
        if "NUL (0x00)" not in str(exc):
            raise
        raise InvalidInput("text must not contain NUL (U+0000) characters") from None


@contextlib.contextmanager
def disk_full_refused(raw: psycopg.Connection[Any]) -> Iterator[None]:
    """The server's disk has no room for a write (SQLSTATE 53100 ``disk_full``: a data file,
    an index or a temporary file could not grow): the transaction is rolled back, so the same
    :class:`StorageFull` as SQLite's full disk (HTTP 507), naming the database, not a 500.

    Only 53100: the rest of class 53 (out of memory, too many connections, a configured limit
    such as ``temp_file_limit``) is not a full disk. A full disk under the WAL is no error at
    all: the server stops, and the connection is lost."""
    try:
        yield
    except psycopg.errors.DiskFull as exc:
        raise StorageFull(
            f"the disk of the PostgreSQL database {raw.info.dbname!r} is full "
            f"({exc.diag.message_primary or 'no space left on device'}); nothing of this "
            "write was stored: free some space on the database server and try again"
        ) from exc
