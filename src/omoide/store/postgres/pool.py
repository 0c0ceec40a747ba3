"""The connection pool: ``psycopg_pool``'s, whose wait for a connection is bounded
(``OMOIDE_PG_POOL_WAIT``) and ends in a 503 naming why none came, instead of its
``PoolTimeout``, a 500 after a fixed 60 s.

No connection comes in time for one of two reasons, told apart by one connection attempt
made then: the server cannot be connected to (it is down or restarting, or refuses: SQLSTATE
53300 ``too_many_connections`` when its ``max_connections`` or the database's or role's
``CONNECTION LIMIT`` is reached, 57P03 while it starts), and the attempt's error is that
cause; or it can, and every connection of the pool (``OMOIDE_PG_POOL_SIZE``) stayed in use
for the whole wait.

Every statement Omoide sends runs on a connection of :meth:`Pool.connection`, whose context
says what the server refuses as Omoide's errors (``refusals.py``: a full disk, the server's
503s, text holding NUL): written there once, so no query path can forget it."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import psycopg
from psycopg.conninfo import conninfo_to_dict
from psycopg_pool import ConnectionPool, PoolTimeout

from omoide.engine.errors import named
from omoide.errors import StorageUnavailable
from omoide.store.postgres.refusals import refused

__all__ = ["PING_WAIT_S", "POOL_WAIT_S", "Pool"]

POOL_WAIT_S = 10.0
"""Seconds a request waits for a pooled connection by default (``OMOIDE_PG_POOL_WAIT``)."""

PING_WAIT_S = 1.0
"""Seconds the health check waits for a pooled connection (then the same 503 naming why none
came, after at most :data:`_PROBE_S` more to find the cause)."""

_PROBE_S = 3  # libpq's connect_timeout for the attempt that finds the cause (whole seconds)
_PSYCOPG_PREFIXES = ("connection failed: ", "connection is bad: ")  # psycopg's, before libpq's


class Pool(ConnectionPool):  # type: ignore[type-arg]
    """A :class:`~psycopg_pool.ConnectionPool` whose timeout is a
    :class:`~omoide.errors.StorageUnavailable` naming the cause, and whose connections'
    refusals are Omoide's errors."""

    @contextlib.contextmanager
    def connection(self, timeout: float | None = None) -> Iterator[Any]:
        """A pooled connection, its server's refusals said as Omoide's errors while it is
        held (the pool then drops a connection the server ended)."""
        with super().connection(timeout) as raw, refused(raw):
            yield raw

    def getconn(self, timeout: float | None = None) -> Any:
        try:
            return super().getconn(timeout)
        except PoolTimeout as exc:
            waited = self.timeout if timeout is None else timeout
            raise none_came(self.conninfo, self.max_size, waited) from exc


def none_came(conninfo: str, size: int, waited: float) -> StorageUnavailable:
    """Why no connection to ``conninfo`` came in ``waited`` seconds, as the 503 to answer."""
    name = conninfo_to_dict(conninfo).get("dbname") or "(unknown)"
    try:
        psycopg.connect(conninfo, connect_timeout=_PROBE_S, autocommit=True).close()
    except psycopg.Error as exc:
        return StorageUnavailable(
            f"the PostgreSQL database {named(name)} cannot be connected to ({_cause(exc)}); "
            "nothing of this request was stored: check that the server runs and accepts "
            "connections (max_connections, the database's or role's CONNECTION LIMIT), then "
            "send it again",
            retry_after="5",
        )
    return StorageUnavailable(
        f"all {size} connections to the PostgreSQL database {named(name)} stayed in use for "
        f"{waited:g} s (OMOIDE_PG_POOL_SIZE, OMOIDE_PG_POOL_WAIT); nothing of this request "
        "was stored: send it again, or give each server more connections if it recurs",
        retry_after="1",
    )


def _cause(exc: psycopg.Error) -> str:
    """The server's one-line refusal (``too many connections for database "x"``), else libpq's
    first line (``connection to server at "db" (10.0.0.5), port 5432 failed: Connection
    refused``). Never the password: libpq does not repeat it."""
    line = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
    for prefix in _PSYCOPG_PREFIXES:
        line = line.removeprefix(prefix)
    _, fatal, said = line.rpartition(" failed: FATAL:")
    return said.strip() if fatal else line
