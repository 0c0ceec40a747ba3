"""Upgrading an existing PostgreSQL database, as a user running the PostgreSQL store takes it when
a new Omoide starts on it (SQLite's: test_migrations.py).

For every migration N (the list is ``MIGRATIONS``, so one added later is covered as well): a new
database is brought to schema N, given the rows a persona's use leaves at that version (written
with plain SQL as the code of that version wrote them, since today's store expects the latest
schema), then opened by today's Omoide. Every migration is then recorded once; every row written
before is still there, changed only where a later migration documents a change; the data reads
through today's services (search, sessions, state, blocks, keys, queue) and takes new writes;
a second open applies nothing; and the schema is the one a new database gets (columns, indexes,
constraints, triggers, functions, row-level security and its policies).

Rows written before their keyword tables existed (notes at schema 1; turns and episodes at 5)
are not in those tables afterwards: migrations 2 and 6 create them empty, as SQLite's do. No
Omoide ever wrote such rows on PostgreSQL (its first release created schemas 1-13 together, and
a first start stopped between two migrations leaves no row), so keyword search is asserted from
the schemas that have the tables; those rows are still found by meaning.

The rows of each version: tests/support/pg_old_rows.py; the checks of what the upgrade left:
tests/support/pg_upgrade_checks.py. Servers starting together on an old database:
test_postgres_upgrades_together.py.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pg_old_rows import NUMBERS, owner, write_rows
from pg_testing import PgServer
from pg_upgrade_checks import (
    all_rows,
    check_reads,
    check_rewrites,
    check_rows_kept,
    migrations_record,
    open_app,
    schema_of,
)

from omoide.store.postgres.migrations import apply_migrations


@pytest.fixture(scope="module")
def fresh_schema(pg_server: PgServer) -> dict[str, Any]:
    """The schema of a database made new by today's Omoide."""
    with pg_server.database() as url:
        return schema_of(url)


@pytest.mark.parametrize("upto", NUMBERS, ids=[f"from_{n}" for n in NUMBERS])
def test_a_database_at_every_version_upgrades_to_the_latest_with_its_rows(
    pg_server: PgServer, upto: int, tmp_path: Path, fresh_schema: dict[str, Any]
) -> None:
    with pg_server.unmigrated(f"up{upto}") as url:
        with owner(url) as raw:
            assert apply_migrations(raw, upto=upto) == [n for n in NUMBERS if n <= upto]
            write_rows(raw, upto)
        before = all_rows(url)

        app = open_app(url, tmp_path)
        try:
            record = migrations_record(url)
            assert [number for number, _ in record] == NUMBERS
            after = all_rows(url)
            check_rows_kept(before, after, upto)
            check_rewrites(url, upto)
            check_reads(app, url, upto)
        finally:
            app.close()
        open_app(url, tmp_path).close()  # a second open applies nothing
        assert migrations_record(url) == record
        assert schema_of(url) == fresh_schema
