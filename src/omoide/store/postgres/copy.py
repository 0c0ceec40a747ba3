"""Copy a SQLite data folder's database into an empty PostgreSQL database (``omoide migrate``).

Both schemas are the same numbered migrations, so every table is copied column for column
(the columns the two share; PostgreSQL's generated search columns are derived again on insert),
ids included, parents before children, in one transaction on the target: a failure leaves the
target as it was. Vectors travel as the same float32 bytes; the keyword index rows (FTS5's
``rowid``/``body``) are copied as stored, the notes' under their memory id (SQLite keys them by
persona). Afterwards each identity sequence continues after the largest copied id, and jobs
that were running (their process is not coming back) are pending.
The source is opened read-only and left untouched.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

from omoide.errors import Conflict, InvalidInput
from omoide.store.postgres.db import CrossPersonaDb, PgDatabase
from omoide.store.sqlite.db import Database
from omoide.store.sqlite.indexes import MEMORY_FTS

__all__ = ["COPIED_TABLES", "copy_sqlite_to_postgres"]

# Parents before children (foreign keys are checked on each insert).
COPIED_TABLES = (
    "personas",
    "api_keys",
    "embedder",
    "memories",
    "memory_strength",
    "memory_versions",
    "memory_links",
    "memory_vectors",
    "memory_tags",
    "memory_blocks",
    "user_state_history",
    "persona_state_history",
    "jobs",
    "sessions",
    "session_events",
    "event_vectors",
    "episodes",
    "episode_vectors",
    "memory_sources",
    "memories_fts",
    "memories_fts_tri",
    "session_events_fts",
    "session_events_fts_tri",
    "episodes_fts",
    "episodes_fts_tri",
)
_BATCH = 2000

Progress = Callable[[str, int], None]


def _sqlite_columns(src: sqlite3.Connection, table: str) -> list[str]:
    if table.endswith(("_fts", "_fts_tri")):
        return ["rowid", "body"]  # FTS5 tables: the hidden rowid and the one column
    return [r[1] for r in src.execute(f'PRAGMA table_info("{table}")')]


def _read(table: str, columns: list[str]) -> str:
    """The source columns; the SQLite notes' index stores rows under persona-keyed rowids
    (``store/sqlite/fts.py``), PostgreSQL's under the memory id."""
    if table in (MEMORY_FTS.words_table, MEMORY_FTS.trigram_table):
        return ", ".join(MEMORY_FTS.base_rowid_sql() if c == "rowid" else c for c in columns)
    return ", ".join(columns)


def copy_sqlite_to_postgres(
    db_file: Path, url: str, *, progress: Progress | None = None
) -> dict[str, int]:
    """Copy every row of ``db_file`` into the database at ``url``; returns rows per table.

    The target must hold no persona yet (it is created and migrated when empty). The source is
    migrated to the current schema first, exactly as opening it with ``omoide`` would.
    """
    if not db_file.is_file():
        raise InvalidInput(f"no Omoide database at {db_file}")
    Database(db_file).close()  # bring the source to the current schema
    src = sqlite3.connect(f"file:{db_file}?mode=ro", uri=True)
    target = CrossPersonaDb(PgDatabase(url, max_size=2))  # every persona's rows
    counts: dict[str, int] = {}
    try:
        with target.write() as conn:
            if conn.execute("SELECT COUNT(*) FROM personas").fetchone()[0]:
                raise Conflict(
                    "the target database already holds personas; migrate into an empty database"
                )
            for table in COPIED_TABLES:
                wanted = _sqlite_columns(src, table)
                present = {
                    r[0]: r[1]
                    for r in conn.execute(
                        "SELECT column_name, is_generated FROM information_schema.columns "
                        "WHERE table_schema = current_schema() AND table_name = ?",
                        (table,),
                    )
                }
                columns = [c for c in wanted if present.get(c) == "NEVER"]
                names = ", ".join(columns)
                insert = f"INSERT INTO {table} ({names}) VALUES ({', '.join('?' * len(columns))})"
                rows = src.execute(f"SELECT {_read(table, columns)} FROM {table}")
                copied = 0
                while batch := rows.fetchmany(_BATCH):
                    conn.executemany(insert, batch)
                    copied += len(batch)
                    if progress is not None:
                        progress(table, copied)
                counts[table] = copied
                if "id" in columns:
                    # past the largest id SQLite ever gave (AUTOINCREMENT, migration 20), not
                    # only the largest still stored: an erased row's id is never given again
                    given = src.execute(
                        "SELECT seq FROM sqlite_sequence WHERE name = ?", (table,)
                    ).fetchone()
                    conn.execute(
                        f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                        f"GREATEST(COALESCE((SELECT MAX(id) FROM {table}), 0), ?) + 1, "
                        "false)",
                        (int(given[0]) if given else 0,),
                    )
            conn.execute(
                "UPDATE jobs SET status = 'pending', started_at = NULL, "
                "claimed_by = NULL, worker = NULL, lease_until = NULL "
                "WHERE status = 'running'"
            )
    finally:
        src.close()
        target.close()
    return counts
