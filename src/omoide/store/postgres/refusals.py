"""What PostgreSQL refuses, said as Omoide's errors instead of a 500: text holding NUL (SQLite's
text can), a write the server's disk has no room for (the same 507 as SQLite's full disk), a
privilege the database role lacks (a 503 naming the role, the statement and the grant to give),
and the server's other refusals a user can meet (a 503 naming the cause and what to do)."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from typing import Any

import psycopg
from psycopg import errors as pg

from omoide.engine.errors import named
from omoide.errors import InvalidInput, StorageFull, StorageUnavailable

__all__ = ["lacks_privilege", "operation", "refused"]


@contextlib.contextmanager
def refused(raw: psycopg.Connection[Any]) -> Iterator[None]:
    """Every refusal below, for what runs on ``raw`` (the pool's connection context applies
    it: ``pool.py``)."""
    with _nul_refused(), _server_refusals(raw):
        yield


@contextlib.contextmanager
def _nul_refused() -> Iterator[None]:
    """PostgreSQL text cannot hold NUL characters (SQLite's can): a clear refusal, not a 500."""
    try:
        yield
    except psycopg.DataError as exc:
        if "NUL (0x00)" not in str(exc):
            raise
        raise InvalidInput("text must not contain NUL (U+0000) characters") from None


# What to do about each refusal that is the server's, not the request's (the transaction was
# rolled back): said after the server's own message.
_ADVICE: tuple[tuple[type[psycopg.Error], str], ...] = (
    (pg.OutOfMemory, "the PostgreSQL server is out of memory: try again later"),
    (
        pg.QueryCanceled,
        "the statement was cancelled (the server's statement_timeout, or an administrator): "
        "try again; if it recurs, raise the database role's statement_timeout",
    ),
    (
        pg.ReadOnlySqlTransaction,
        "the database is read-only (a standby, or default_transaction_read_only): point "
        "OMOIDE_DATABASE_URL at the primary server",
    ),
)
# A write that lost to a concurrent one: the same request is likely to succeed at once.
_RETRY = (pg.SerializationFailure, pg.DeadlockDetected)


@contextlib.contextmanager
def _server_refusals(raw: psycopg.Connection[Any]) -> Iterator[None]:
    """The server's refusals as Omoide's errors: a full disk (SQLSTATE 53100 ``disk_full``: a
    data file, an index or a temporary file could not grow) is the same :class:`StorageFull`
    as SQLite's (HTTP 507), naming the database; out of memory (53200), a cancelled statement
    (57014), a read-only database (25006) and a write that lost
    to a concurrent one (40001 serialization failure, 40P01 deadlock; ``Retry-After: 1``) are
    a :class:`StorageUnavailable` (503) naming the cause, and so is a connection the server
    ended (a restart, ``pg_terminate_backend``; ``Retry-After: 1``). The transaction is
    rolled back.

    A full disk under the WAL is no error at all: the server stops, and the connection is
    lost."""
    try:
        yield
    except pg.InsufficientPrivilege as exc:  # a statement not sent by PgConnection
        raise lacks_privilege(raw, exc) from exc
    except psycopg.errors.DiskFull as exc:
        raise StorageFull(
            f"the disk of the PostgreSQL database {named(_name(raw))} is full "
            f"({_said(exc, 'no space left on device')}); nothing of this "
            "write was stored: free some space on the database server and try again"
        ) from exc
    except _RETRY as exc:
        raise StorageUnavailable(
            f"this write conflicted with a concurrent one in the PostgreSQL database "
            f"{named(_name(raw))} ({_said(exc, 'serialization failure')}); nothing of it was "
            "stored: send it again",
            retry_after="1",
        ) from exc
    except tuple(kind for kind, _ in _ADVICE) as exc:
        advice = next(text for kind, text in _ADVICE if isinstance(exc, kind))
        raise StorageUnavailable(
            f"the PostgreSQL database {named(_name(raw))} refused the request "
            f"({_said(exc, type(exc).__name__)}); nothing of it was stored: {advice}"
        ) from exc
    except psycopg.OperationalError as exc:
        if not raw.broken:
            raise
        # the server restarted or ended this connection (57P01 admin_shutdown, a failover, a
        # network cut): the pool drops it, and the next request gets a new one
        raise StorageUnavailable(
            f"the connection to the PostgreSQL database {named(_name(raw))} was lost "
            f"({_said(exc, 'connection closed')}); nothing of this request was stored: "
            "send it again",
            retry_after="1",
        ) from exc


# the statements whose privilege a grant names (SELECT, INSERT, UPDATE, DELETE on a table)
_GRANTED = ("SELECT", "INSERT", "UPDATE", "DELETE")
_GRANTED_WORD = re.compile(r"\b(?:SELECT|INSERT|UPDATE|DELETE)\b", re.IGNORECASE)


def operation(statement: str | None) -> str:
    """The operation a refused ``statement`` names: its first SELECT, INSERT, UPDATE or DELETE
    (a ``WITH due AS (UPDATE …)`` is an UPDATE, an ``INSERT … SELECT`` an INSERT), else its
    first word (``CREATE``); "" for none."""
    found = _GRANTED_WORD.search(statement or "")
    if found is not None:
        return found.group().upper()
    words = (statement or "").split(None, 1)
    return words[0].upper() if words else ""


def lacks_privilege(
    raw: psycopg.Connection[Any], exc: psycopg.Error, statement: str | None = None
) -> StorageUnavailable:
    """SQLSTATE 42501 ``insufficient_privilege`` as a 503: the role Omoide connects as was not
    granted what ``statement`` (:func:`operation` names it; None: one of this request's)
    needs, e.g. a role given SELECT alone, or tables a migration added after the
    grants. The server's words name the object ("permission denied for table memories"). The
    persona wall's row-level security refuses with the same code (a fault of Omoide's): its
    words, "violates row-level security policy", are in the message too."""
    verb = operation(statement)
    what = verb or "a statement of this request"
    user = _role(raw)
    grant = f" (GRANT {verb} ON that table TO {user})" if verb in _GRANTED else ""
    return StorageUnavailable(
        f"the PostgreSQL database {named(_name(raw))} refused {what} to the role {named(user)}, "
        f"which lacks the privilege ({_said(exc, 'permission denied')}); nothing of this "
        f"request was stored: grant the role that privilege{grant}, or connect as the owner "
        "of Omoide's tables (docs/deploy.md)"
    )


def _role(raw: psycopg.Connection[Any]) -> str:
    """The role the connection was opened as."""
    try:
        return raw.info.user
    except psycopg.Error:
        return "(unknown)"


def _name(raw: psycopg.Connection[Any]) -> str:
    """The database's name (a closed connection still knows the one it was opened on)."""
    try:
        return raw.info.dbname
    except psycopg.Error:
        return "(unknown)"


def _said(exc: psycopg.Error, default: str) -> str:
    """The server's own one-line message (never the statement or its values)."""
    return exc.diag.message_primary or default
