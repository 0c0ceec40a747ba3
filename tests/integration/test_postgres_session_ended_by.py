"""PostgreSQL's migration 23 (SQLite's too: tests/integration/test_migrations.py): sessions
ended before ``ended_by`` existed read as unknown (NULL), open or ended. Ending sessions on
the migrated schema is tested over HTTP on both stores (api/test_session_end_cause_api.py)."""

from __future__ import annotations

import psycopg
from pg_testing import SEE_ALL, PgServer

from omoide.store.postgres.db import PgDatabase
from omoide.store.postgres.migrations import apply_migrations
from omoide.store.postgres.rls import CROSS_PERSONA, bind_session

T1, T2 = "2026-01-02T09:00:00+00:00", "2026-01-02T10:00:00+00:00"


def test_migration_23_leaves_earlier_ends_unknown(pg_server: PgServer) -> None:
    with pg_server.unmigrated("m23") as url:
        with psycopg.connect(url, autocommit=True) as raw:
            bind_session(raw, CROSS_PERSONA)
            apply_migrations(raw, upto=22)
            pid = raw.execute(
                "INSERT INTO personas (name, created_at) VALUES ('rin', %s) RETURNING id", (T1,)
            ).fetchone()[0]
            for session_id, ended in (("done", T2), ("open", None)):
                raw.execute(
                    "INSERT INTO sessions (persona_id, session_id, started_at, "
                    "ended_at, metadata) VALUES (%s, %s, %s, %s, '{}')",
                    (pid, session_id, T1, ended),
                )
        PgDatabase(url, max_size=1).close()  # opening migrates: 23 adds the column
        with psycopg.connect(url, options=SEE_ALL) as conn:
            rows = conn.execute(
                "SELECT session_id, ended_at IS NOT NULL, ended_by "
                "FROM sessions ORDER BY session_id"
            ).fetchall()
    assert rows == [("done", True, None), ("open", False, None)]
