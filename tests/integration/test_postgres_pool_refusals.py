"""The server's refusals are said as Omoide's errors by the pool's connection context itself
(``store/postgres/pool.py``), so any statement on a pooled connection gets them, a query path
that names no refusal included: a cancelled statement (57014) and a read-only database (25006)
a 503 naming the cause, a connection the server ended (57P01) a 503 with ``Retry-After: 1``,
text holding NUL a 422. A dump's snapshot, which holds its connection across calls, too.

Before: each query path wrapped its statements by hand (``server_refusals``, eight places); a
path that forgot was a 500."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from pg_testing import PgServer

from omoide.errors import InvalidInput, StorageUnavailable
from omoide.store.postgres.db import PgDatabase
from omoide.store.postgres.transfer import PgPersonaDump

pytestmark = pytest.mark.postgres_only


@pytest.fixture
def db(pg_server: PgServer) -> Iterator[PgDatabase]:
    """A pool of its own (a session setting a test makes dies with it)."""
    database = PgDatabase(pg_server.emptied(), max_size=2)
    yield database
    database.close()


def test_a_cancelled_statement_on_a_bare_pooled_connection_is_503(db: PgDatabase) -> None:
    with pytest.raises(StorageUnavailable) as raised, db.pool.connection() as raw:
        raw.execute("SET statement_timeout = '50ms'")
        raw.execute("SELECT pg_sleep(2)")
    assert "(canceling statement due to statement timeout)" in str(raised.value)
    assert "raise the database role's statement_timeout" in str(raised.value)


def test_a_write_into_a_read_only_database_is_503(db: PgDatabase) -> None:
    with pytest.raises(StorageUnavailable) as raised, db.pool.connection() as raw:
        raw.execute("SET default_transaction_read_only = on")
        raw.execute("CREATE TABLE qa38_never (a int)")
    assert "the database is read-only" in str(raised.value)


def test_a_connection_the_server_ends_is_503_and_the_pool_serves_again(db: PgDatabase) -> None:
    with pytest.raises(StorageUnavailable) as raised, db.pool.connection() as raw:
        raw.execute("SELECT pg_terminate_backend(pg_backend_pid())")
    assert "was lost" in str(raised.value)
    assert raised.value.retry_after == "1"  # type: ignore[attr-defined]
    db.ping()  # a new connection


def test_text_holding_nul_is_refused_as_input(db: PgDatabase) -> None:
    with pytest.raises(InvalidInput) as raised, db.pool.connection() as raw:
        raw.execute("SELECT %s::text", ("a\x00b",))
    assert str(raised.value) == "text must not contain NUL (U+0000) characters"


def test_a_dump_whose_connection_the_server_ends_is_503(db: PgDatabase) -> None:
    """The snapshot's connection is held across the dump's calls: what fails meanwhile is
    handed to the pool's context when the dump ends."""
    with pytest.raises(StorageUnavailable) as raised, PgPersonaDump(db, 1, "rin") as dump:
        dump._conn.raw.execute("SELECT pg_terminate_backend(pg_backend_pid())")  # type: ignore[union-attr]
    assert "was lost" in str(raised.value)
