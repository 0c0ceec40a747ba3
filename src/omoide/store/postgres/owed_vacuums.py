"""The VACUUM an erase owes in PostgreSQL, recorded in the database so that no restart forgets it.

An erase leaves the erased text in dead row versions until its tables are vacuumed (``erase.py``).
Inside its own transaction it records each table it touched in ``owed_vacuums`` (migration 25),
with its transaction id; after the commit the owed tables are vacuumed, and a table's records are
paid once a VACUUM of it succeeds that began after their erases had committed (a snapshot taken
before the try's first VACUUM says which: an erase committing meanwhile stays owed). A VACUUM that
cannot run yet leaves its table owed, and only the tables still owed are tried again: by the
process that erased (``PgDatabase.erasing``), and at open by the next process, whichever
process's erase owed it and however it stopped.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import psycopg
from psycopg import sql as pgsql

__all__ = ["OWE", "SELECT_OWED", "vacuum_owed"]

# Inside the erase's transaction (the shared SQL's placeholders): one record per table.
OWE = (
    "INSERT INTO owed_vacuums (table_name, erased_by) "
    "SELECT t, pg_current_xact_id() FROM unnest(?::text[]) AS t ON CONFLICT DO NOTHING"
)
SELECT_OWED = "SELECT DISTINCT table_name FROM owed_vacuums ORDER BY table_name"
_SNAPSHOT = "SELECT pg_current_snapshot()::text"
_PAID = (
    "DELETE FROM owed_vacuums WHERE table_name = ANY(%s) "
    "AND pg_visible_in_snapshot(erased_by, %s::pg_snapshot)"
)


def vacuum_owed(raw: psycopg.Connection[Any], say: Callable[..., None]) -> list[str]:
    """VACUUM each owed table on ``raw`` (autocommit, its lock timeout set); returns the tables
    still owed, each failure said through ``say``. A connection that broke raises.

    One snapshot, taken before the first VACUUM, says which erases every VACUUM that succeeds
    began after: their records of its table are paid; an erase that committed later stays
    owed (its own try, or the next, covers it)."""
    tables = [row[0] for row in raw.execute(SELECT_OWED)]
    if not tables:
        return []
    snapshot = raw.execute(_SNAPSHOT).fetchone()
    failed = [table for table in tables if not _vacuumed(raw, table, say)]
    paid = [table for table in tables if table not in failed]
    if paid:
        try:
            raw.execute(_PAID, (paid, snapshot[0] if snapshot else None))
        except psycopg.Error as exc:
            if raw.closed:
                raise
            say("the VACUUM of %s after an erase ran, but was not recorded: %s", paid, exc)
            return tables  # still recorded as owed: vacuumed again by the next try
    return failed


def _vacuumed(raw: psycopg.Connection[Any], table: str, say: Callable[..., None]) -> bool:
    try:
        raw.execute(pgsql.SQL("VACUUM {}").format(pgsql.Identifier(table)))
    except psycopg.Error as exc:
        if raw.closed:
            raise
        say("VACUUM %s after an erase failed: %s", table, exc)
        return False
    return True
