"""PostgreSQL: the VACUUM after a committed erase that cannot run (here it waits for its table,
held by another VACUUM's lock: a ``CREATE INDEX CONCURRENTLY`` such as the HNSW build, a manual
VACUUM, autovacuum) does not hold the erase nor fail it: the DELETE answers 200 with
``scrub_pending`` true, the memory is gone, and the VACUUM is owed and retried in the
background until it runs, as SQLite's refused checkpoint is (docs/deploy.md).

Before: the erase's VACUUM waited for the lock without limit after the commit, so the DELETE
hung as long as the other lock was held (an index build: minutes), and any error of the VACUUM
(a pool without a free connection, a server refusing it) was the erase's 503 although the erase
had committed, so a retried DELETE got a 404. And later: a retry VACUUMed again the tables
whose VACUUM had succeeded, and the owed VACUUM lived in the process's memory only, so a restart
before it ran forgot it; now the erase records it in the database (``owed_vacuums``), a retry
takes only the tables still owed, and the next process to open the database runs it."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import psycopg
import pytest
from omoide_testing import LiveServer
from pg_testing import PgServer, rows_holding

from omoide.store.postgres.db import PgDatabase
from omoide.store.postgres.migrations import applied_migrations, apply_migrations
from omoide.wiring import Omoide

pytestmark = pytest.mark.postgres_only

HELD_S = 12.0  # how long the other lock is held (the erase must not wait for it)
PIN = "ZQXJV-4827"


def _vacuums(url: str, table: str = "memories") -> int:
    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute(
            "SELECT vacuum_count FROM pg_stat_user_tables WHERE relname = %s", (table,)
        ).fetchone()
    assert row is not None
    return int(row[0])


def _owed(url: str) -> set[str]:
    """The tables the database records a VACUUM as owed on."""
    with psycopg.connect(url, autocommit=True) as conn:
        return {row[0] for row in conn.execute("SELECT table_name FROM owed_vacuums")}


@contextmanager
def _vacuum_refused(url: str, table: str = "memories") -> Iterator[None]:
    """A transaction holding what every VACUUM of ``table`` takes, while inside."""
    with psycopg.connect(url) as holder:
        holder.execute(f"LOCK TABLE {table} IN SHARE UPDATE EXCLUSIVE MODE")
        yield
        holder.rollback()


def _wait_until(done: Callable[[], bool], timeout_s: float = 15.0) -> bool:
    deadline = time.monotonic() + timeout_s
    while not done():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.2)
    return True


def test_an_erase_whose_vacuum_cannot_run_succeeds_and_owes_the_vacuum(
    server: LiveServer,
) -> None:
    url = server.omoide.settings.database_url
    assert url
    with server.client(server.create_persona("rin")) as rin:
        made = rin.post("/api/memories/rin", json={"content": "The user's PIN is 4721."})
        key = made.json()["memory"]["key"]
        before = _vacuums(url)
        holder = psycopg.connect(url)  # a transaction holding what every VACUUM takes
        holder.execute("LOCK TABLE memories IN SHARE UPDATE EXCLUSIVE MODE")
        released = threading.Timer(HELD_S, holder.rollback)
        released.start()
        try:
            started = time.monotonic()
            reply = rin.delete(f"/api/memories/rin/{key}", params={"purge": "true"})
            took = time.monotonic() - started
            assert reply.status_code == 200, reply.text
            assert reply.json()["scrub_pending"] is True
            assert took < HELD_S / 2, took
            assert rin.get(f"/api/memories/rin/{key}").status_code == 404
            assert server.omoide.store.db.scrub_pending
        finally:
            released.join()
            holder.close()
        deadline = time.monotonic() + 15
        while server.omoide.store.db.scrub_pending and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not server.omoide.store.db.scrub_pending  # the owed VACUUM ran
        assert _vacuums(url) > before
        again = rin.post("/api/memories/rin", json={"content": "The user keeps bees."})
        second = rin.delete(
            f"/api/memories/rin/{again.json()['memory']['key']}", params={"purge": "true"}
        )
        assert second.status_code == 200 and second.json()["scrub_pending"] is False


def test_a_retry_vacuums_only_the_tables_whose_vacuum_is_still_owed(server: LiveServer) -> None:
    url = server.omoide.settings.database_url
    assert url
    db = server.omoide.store.db
    with server.client(server.create_persona("rin")) as rin:
        made = rin.post("/api/memories/rin", json={"content": f"The user's PIN is {PIN}."})
        key = made.json()["memory"]["key"]
        with _vacuum_refused(url):
            with _vacuum_refused(url, "memory_versions"):
                reply = rin.delete(f"/api/memories/rin/{key}", params={"purge": "true"})
                assert reply.status_code == 200 and reply.json()["scrub_pending"] is True
                assert _owed(url) == {"memories", "memory_versions"}  # the others' ran
            assert _wait_until(lambda: _owed(url) == {"memories"})  # a retry ran this one
            versions = _vacuums(url, "memory_versions")
            time.sleep(3.5)  # three more retries, each refused its one table
            assert db.scrub_pending
            # Before: each retry VACUUMed again every table a retry had once found owed.
            assert _vacuums(url, "memory_versions") == versions
        memories = _vacuums(url)
        assert _wait_until(lambda: not db.scrub_pending)
    assert _vacuums(url) > memories
    assert _vacuums(url, "memory_versions") == versions
    assert _owed(url) == set()
    assert rows_holding(url, PIN) == []


def test_a_vacuum_owed_when_the_server_stopped_runs_when_the_next_one_opens(
    make_app: Callable[..., Omoide], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="omoide.store.postgres.db")
    first = make_app()
    url = first.settings.database_url
    assert url
    first.auth.create_persona("rin")
    draft = first.memories.build_new(content=f"The user's PIN is {PIN}.")
    key = first.memories.create("rin", draft).memory.key
    with _vacuum_refused(url):
        erased = first.memories.purge("rin", key)
        assert erased.scrub_pending
        first.close()  # the VACUUM still refused: this process never runs it
        assert _owed(url) == {"memories"}
    # the erase's log and close's name the table its own try and the last try left owed
    said = [r.getMessage() for r in caplog.records if r.name == "omoide.store.postgres.db"]
    assert any(
        m.startswith("the erased rows' old versions stay in the data files of memories ")
        for m in said
    ), said
    assert any(
        m.startswith("the VACUUM owed after an erase on memories was not done") for m in said
    ), said
    before = _vacuums(url)
    # Before: the owed VACUUM was in the stopped process's memory only, and was forgotten.
    second = make_app()
    assert _wait_until(lambda: _owed(url) == set())
    assert _vacuums(url) > before
    assert _wait_until(lambda: not second.store.db.scrub_pending)
    assert rows_holding(url, PIN) == []


def test_migration_25_gives_an_existing_database_its_record_of_owed_vacuums(
    pg_server: PgServer,
) -> None:
    with pg_server.unmigrated("m25") as url:
        with psycopg.connect(url, autocommit=True) as raw:
            apply_migrations(raw, upto=24)
        PgDatabase(url, max_size=1).close()  # opening migrates: 25 adds the table
        with psycopg.connect(url, autocommit=True) as raw:
            assert applied_migrations(raw)[-1] == 25
            assert raw.execute("SELECT COUNT(*) FROM owed_vacuums").fetchone() == (0,)
