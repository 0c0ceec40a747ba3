"""PostgreSQL: the VACUUM after a committed erase that cannot run (here it waits for its table,
held by another VACUUM's lock: a ``CREATE INDEX CONCURRENTLY`` such as the HNSW build, a manual
VACUUM, autovacuum) does not hold the erase nor fail it: the DELETE answers 200 with
``scrub_pending`` true, the memory is gone, and the VACUUM is owed and retried in the
background until it runs, as SQLite's refused checkpoint is (docs/deploy.md).

Before: the erase's VACUUM waited for the lock without limit after the commit, so the DELETE
hung as long as the other lock was held (an index build: minutes), and any error of the VACUUM
(a pool without a free connection, a server refusing it) was the erase's 503 although the erase
had committed, so a retried DELETE got a 404."""

from __future__ import annotations

import threading
import time

import psycopg
import pytest
from omoide_testing import LiveServer

pytestmark = pytest.mark.postgres_only

HELD_S = 12.0  # how long the other lock is held (the erase must not wait for it)


def _vacuums(url: str) -> int:
    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute(
            "SELECT vacuum_count FROM pg_stat_user_tables WHERE relname = 'memories'"
        ).fetchone()
    assert row is not None
    return int(row[0])


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
