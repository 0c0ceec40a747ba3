"""``PgDatabase.close`` closes the connection pool on every path: closed twice, closed while a
connection is checked out (closed as it comes back), an open that fails after the pool was
opened (a newer Omoide's schema; a store whose tables a migration record says exist, but do not),
and a close whose last try of an owed VACUUM is interrupted (Ctrl+C). Each is checked on the
server: no connection of the pool is left (``pg_stat_activity``, by an application name of the
test's own)."""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Iterator

import psycopg
import pytest
from pg_testing import PgServer

from omoide.errors import Conflict
from omoide.store.postgres.db import PgDatabase
from omoide.store.postgres.store import PostgresStore

pytestmark = pytest.mark.postgres_only

_NAMES = itertools.count(1)


@pytest.fixture
def database(pg_server: PgServer) -> Iterator[str]:
    """A fresh migrated database of this test's own (its URL)."""
    with pg_server.database() as url:
        yield url


def _named(url: str) -> tuple[str, str]:
    """``url`` with an application name no other connection has, and that name."""
    name = f"omoide-close-{next(_NAMES)}-{time.monotonic_ns()}"
    return f"{url}{'&' if '?' in url else '?'}application_name={name}", name


def _connections(pg_server: PgServer, name: str) -> int:
    """The server's connections of the application ``name``."""
    with psycopg.connect(pg_server.admin_url, autocommit=True) as conn:
        row = conn.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE application_name = %s", (name,)
        ).fetchone()
    return int(row[0]) if row else 0


def _none_left(pg_server: PgServer, name: str) -> bool:
    """Whether the server has no connection of ``name`` left (a closed one may take a moment to
    leave ``pg_stat_activity``)."""
    deadline = time.monotonic() + 10
    while _connections(pg_server, name):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def test_a_database_closed_twice_closes_its_pool_once(pg_server: PgServer, database: str) -> None:
    url, name = _named(database)
    db = PgDatabase(url, max_size=2)
    db.ping()
    assert _connections(pg_server, name) >= 1
    db.close()
    db.close()  # nothing more to close: no error
    assert db.pool.closed
    assert _none_left(pg_server, name)


def test_a_connection_checked_out_during_the_close_is_closed_as_it_comes_back(
    pg_server: PgServer, database: str
) -> None:
    url, name = _named(database)
    db = PgDatabase(url, max_size=2)
    inside, go_on, done = threading.Event(), threading.Event(), []

    def write() -> None:  # a job's handler a stop no longer waited for, mid-write
        with db.write() as conn:
            conn.execute("SELECT 1")
            inside.set()
            go_on.wait(30)
        done.append(True)

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    assert inside.wait(10)
    started = time.monotonic()
    db.close()
    assert time.monotonic() - started < 10  # not held up by the connection checked out
    assert db.pool.closed
    assert _connections(pg_server, name) == 1  # the writer's, still in its transaction
    go_on.set()
    writer.join(10)
    assert done == [True]  # its transaction committed on its connection
    assert _none_left(pg_server, name)  # then closed, not put back in the closed pool


def test_an_open_refused_after_the_pool_opened_leaves_no_connection(
    pg_server: PgServer, database: str
) -> None:
    url, name = _named(database)
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(
            "INSERT INTO schema_migrations (number, name, applied_at) "
            "VALUES (9999, 'a newer Omoide', '2099-01-01')"
        )
    with pytest.raises(Conflict):
        PgDatabase(url, max_size=2)
    assert _none_left(pg_server, name)


def test_a_store_whose_open_fails_after_its_database_opened_leaves_no_connection(
    pg_server: PgServer, database: str
) -> None:
    """The store's first reads (the largest persona, for the ANN index) fail: a table the
    migration record says exists is gone. Before: the pool the store's database had opened was
    left open, its connection and threads with it, with no object left to close it."""
    url, name = _named(database)
    with psycopg.connect(url, autocommit=True) as conn:  # (its owner's to drop)
        conn.execute("DROP TABLE memories CASCADE")
    with pytest.raises(psycopg.errors.UndefinedTable):
        PostgresStore(url, model_id="hash", dim=8)
    assert _none_left(pg_server, name)


class _CtrlC(threading.Event):
    """A ``give_up`` whose wait is where a Ctrl+C lands: the close's wait between two tries
    of an owed VACUUM (a command's bounded wait for an erase's scrub, ``cli_common.holding``)."""

    def wait(self, timeout: float | None = None) -> bool:
        raise KeyboardInterrupt


def test_a_close_interrupted_while_it_tries_an_owed_vacuum_still_closes_the_pool(
    pg_server: PgServer, database: str
) -> None:
    url, name = _named(database)
    with psycopg.connect(url, autocommit=True) as conn:  # a VACUUM owed that cannot run
        conn.execute(
            "INSERT INTO owed_vacuums (table_name, erased_by) VALUES ('qa48_gone', '1'::xid8)"
        )
    db = PgDatabase(url, max_size=2)
    assert db.scrub_pending
    with pytest.raises(KeyboardInterrupt):
        db.close(scrub_wait_s=30, give_up=_CtrlC())
    assert db.pool.closed
    assert _none_left(pg_server, name)
