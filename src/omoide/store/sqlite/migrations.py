"""Numbered schema migrations, applied in order on open and recorded in ``schema_migrations``.

A migration is a name plus a function of the connection (so DDL that is generated, like the FTS
tables, stays in one place). This module numbers them and runs them; what each one does is
data elsewhere: its SQL text in ``migration_sql.py``, or, where it is code, a step in
``migration_steps.py``. Never edit a released migration: add the next one.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass

from omoide.store.sqlite.damage import writing
from omoide.store.sqlite.indexes import MEMORY_FTS
from omoide.store.sqlite.migration_sql import (
    CONTEXT,
    CORE,
    DASHBOARD_INDEXES,
    EMBEDDER,
    EMPTY_UNSTARTED_WINDOWS,
    FORGET_PROVENANCE,
    JOB_LEASES,
    JOBS,
    KEY_FINGERPRINTS,
    SESSION_ENDED_BY,
    SESSION_IDLE,
    SESSIONS,
    SUCCESSOR_STARTS,
    TAGS,
    VECTOR_MODEL_INDEXES,
)
from omoide.store.sqlite.migration_steps import (
    autoincrement_ids,
    episode_event_fts,
    memory_fts,
    open_turns_fts,
)

__all__ = ["MIGRATIONS", "Migration", "applied_migrations", "apply_migrations"]

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Migration:
    number: int
    name: str
    apply: Callable[[sqlite3.Connection], None]
    # Rebuilds a table other tables refer to: foreign keys are off while it runs (they cannot
    # be switched inside a transaction) and checked before it commits (sqlite.org/lang_altertable).
    rebuilds: bool = False


def _script(sql: str) -> Callable[[sqlite3.Connection], None]:
    def run(conn: sqlite3.Connection) -> None:
        for statement in _split(sql):
            conn.execute(statement)

    return run


def _split(sql: str) -> list[str]:
    return [s.strip() for s in sql.split(";") if s.strip()]


MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "core", _script(CORE)),
    Migration(2, "memory_fts", memory_fts),
    Migration(3, "context_state_blocks", _script(CONTEXT)),
    Migration(4, "jobs", _script(JOBS)),
    Migration(5, "sessions_episodes", _script(SESSIONS)),
    Migration(6, "episode_event_fts", episode_event_fts),
    # A tag filter scanned json_each over every row of the persona (86 ms at 100k).
    Migration(7, "memory_tags", _script(TAGS)),
    Migration(8, "embedder", _script(EMBEDDER)),
    Migration(9, "open_turns_fts", open_turns_fts),
    Migration(10, "session_idle", _script(SESSION_IDLE)),
    Migration(11, "dashboard_indexes", _script(DASHBOARD_INDEXES)),
    Migration(12, "job_leases", _script(JOB_LEASES)),
    Migration(13, "key_fingerprints", _script(KEY_FINGERPRINTS)),
    # The notes' keyword index keyed by persona (store/sqlite/fts.py): a search walks only its
    # persona's rows instead of joining every matching row of every persona.
    Migration(14, "persona_keyed_fts", MEMORY_FTS.key_by_persona),
    # PostgreSQL's row-level security (store/postgres/rls.py); one SQLite file has no roles to
    # wall, so here the number is only kept in step.
    Migration(15, "persona_walls", _script("SELECT 1")),
    Migration(16, "forget_provenance", _script(FORGET_PROVENANCE)),
    # 17-19 are PostgreSQL's own (store/postgres/migrations.py).
    Migration(20, "autoincrement_ids", autoincrement_ids, rebuilds=True),
    Migration(21, "vector_model_indexes", _script(VECTOR_MODEL_INDEXES)),
    Migration(22, "successor_starts", _script(SUCCESSOR_STARTS)),
    Migration(23, "session_ended_by", _script(SESSION_ENDED_BY)),
    Migration(24, "empty_unstarted_windows", _script(EMPTY_UNSTARTED_WINDOWS)),
    # 25 is PostgreSQL's own (the VACUUMs erases owe; an owed WAL checkpoint needs no record:
    # Database.erasing).
)


def applied_migrations(conn: sqlite3.Connection) -> list[int]:
    conn.execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations "
        "(number INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
    )
    return [row[0] for row in conn.execute("SELECT number FROM schema_migrations ORDER BY number")]


def apply_migrations(conn: sqlite3.Connection, *, upto: int | None = None) -> list[int]:
    """Apply every pending migration (each in its own transaction); returns the numbers applied."""
    done = set(applied_migrations(conn))
    applied = []
    for migration in MIGRATIONS:
        if migration.number in done or (upto is not None and migration.number > upto):
            continue
        if migration.rebuilds:
            conn.execute("PRAGMA foreign_keys = OFF")
        try:
            if _apply(conn, migration):
                applied.append(migration.number)
        finally:
            if migration.rebuilds:
                conn.execute("PRAGMA foreign_keys = ON")
    return applied


def _apply(conn: sqlite3.Connection, migration: Migration) -> bool:
    """One migration in its own transaction; False when another process applied it first."""
    with writing(conn):  # a disk I/O error in it is no failed read
        return _applied(conn, migration)


def _applied(conn: sqlite3.Connection, migration: Migration) -> bool:
    conn.execute("BEGIN IMMEDIATE")
    try:
        if conn.execute(
            "SELECT 1 FROM schema_migrations WHERE number = ?", (migration.number,)
        ).fetchone():  # another process applied it
            conn.execute("COMMIT")
            return False
        migration.apply(conn)
        conn.execute(
            "INSERT INTO schema_migrations (number, name, applied_at) "
            "VALUES (?, ?, strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now'))",
            (migration.number, migration.name),
        )
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    logger.info("applied migration %04d_%s", migration.number, migration.name)
    return True
