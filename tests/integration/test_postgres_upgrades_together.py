"""Servers starting together on a PostgreSQL database at an older schema apply each migration
once: each waits for the advisory lock and finds what another applied (the upgrade itself:
test_postgres_upgrades.py)."""

from __future__ import annotations

import logging
import threading

import psycopg
import pytest
from pg_old_rows import NUMBERS, T0, owner
from pg_testing import SEE_ALL, PgServer
from pg_upgrade_checks import migrations_record

from omoide.store.postgres.db import PgDatabase
from omoide.store.postgres.migrations import MIGRATIONS, apply_migrations


def test_stores_opened_together_on_an_old_database_apply_each_migration_once(
    pg_server: PgServer, caplog: pytest.LogCaptureFixture
) -> None:
    """Three opens at once on a database at migration 1: each waits for the advisory lock and
    finds what another applied; none fails on a table another created."""
    caplog.set_level(logging.INFO, logger="omoide.store.postgres.migrations")
    with pg_server.unmigrated("together") as url:
        with owner(url) as raw:
            apply_migrations(raw, upto=1)
            raw.execute("INSERT INTO personas (name, created_at) VALUES ('rin', %s)", (T0,))
        caplog.clear()
        gate = threading.Barrier(3)
        failures: list[BaseException] = []

        def open_one() -> None:
            try:
                gate.wait()
                PgDatabase(url, max_size=1).close()
            except BaseException as exc:  # reported below, with the test's assertion
                failures.append(exc)

        threads = [threading.Thread(target=open_one) for _ in range(3)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(120)
        assert failures == []
        applied = [r.getMessage() for r in caplog.records if r.msg.startswith("applied migration")]
        assert sorted(applied) == [
            f"applied migration {m.number:04d}_{m.name}" for m in MIGRATIONS[1:]
        ]
        assert [number for number, _ in migrations_record(url)] == NUMBERS
        with psycopg.connect(url, options=SEE_ALL) as conn:
            assert conn.execute("SELECT name FROM personas").fetchall() == [("rin",)]
