"""PostgreSQL's migration 22 (SQLite's too: tests/integration/test_migrations.py): a successor
fact stored before evolution gave it a start begins at the earliest ``valid_until`` of the facts
it closed; one with a start of its own, or an end not after that, keeps its window."""

from __future__ import annotations

import psycopg
from pg_testing import SEE_ALL, PgServer

from omoide.store.postgres.db import PgDatabase
from omoide.store.postgres.migrations import apply_migrations
from omoide.store.postgres.rls import CROSS_PERSONA, bind_session

T1, T2, T3 = ("2026-01-02T00:00:00+00:00", "2026-01-03T00:00:00+00:00", "2026-01-04T00:00:00+00:00")
ROWS = (
    ("mem_tokyo", None, T2, "mem_osaka"),
    ("mem_nagoya", None, T3, "mem_osaka"),
    ("mem_osaka", None, None, None),
    ("mem_cat", None, T2, "mem_dog"),
    ("mem_dog", T1, None, None),
    ("mem_tea", None, T2, "mem_coffee"),
    ("mem_coffee", None, T1, None),
)


def test_migration_22_starts_successors_when_they_closed_their_predecessor(
    pg_server: PgServer,
) -> None:
    migrated = _migrated(pg_server, "m22", 21, ROWS)  # 22 fills the starts
    starts = {key: start for key, start, _ in migrated}
    assert starts == {
        "mem_tokyo": None,
        "mem_nagoya": None,
        "mem_osaka": T2,
        "mem_cat": None,
        "mem_dog": T1,
        "mem_tea": None,
        "mem_coffee": None,
    }


def test_migration_24_gives_a_fact_closed_before_it_began_an_empty_window(
    pg_server: PgServer,
) -> None:
    """SQLite's: tests/integration/test_migrations.py."""
    rows = (
        ("mem_planned", T3, T2, "mem_stay"),
        ("mem_stay", T2, None, None),
        ("mem_held", T1, T2, "mem_next"),
        ("mem_next", None, None, None),
    )
    windows = {key: (start, end) for key, start, end in _migrated(pg_server, "m24", 23, rows)}
    assert windows == {
        "mem_planned": (T3, T3),
        "mem_stay": (T2, None),
        "mem_held": (T1, T2),
        "mem_next": (None, None),
    }


def _migrated(
    pg_server: PgServer,
    name: str,
    upto: int,
    rows: tuple[tuple[str, str | None, str | None, str | None], ...],
) -> list[tuple[str, str | None, str | None]]:
    """Every memory's (key, valid_from, valid_until) after ``rows`` (key, valid_from,
    valid_until, superseded_by) were stored at schema ``upto`` and the database was opened
    (which migrates it)."""
    with pg_server.unmigrated(name) as url:
        with psycopg.connect(url, autocommit=True) as raw:
            bind_session(raw, CROSS_PERSONA)
            apply_migrations(raw, upto=upto)
            pid = raw.execute(
                "INSERT INTO personas (name, created_at) VALUES ('rin', %s) RETURNING id", (T1,)
            ).fetchone()[0]
            for key, start, end, successor in rows:
                raw.execute(
                    "INSERT INTO memories (key, persona_id, content, importance, created_at, "
                    "updated_at, valid_from, valid_until, superseded_by) "
                    "VALUES (%s, %s, %s, 0.5, %s, %s, %s, %s, %s)",
                    (key, pid, f"text of {key}", T1, T1, start, end, successor),
                )
        PgDatabase(url, max_size=1).close()  # opening migrates
        with psycopg.connect(url, options=SEE_ALL) as conn:
            return conn.execute("SELECT key, valid_from, valid_until FROM memories").fetchall()
