"""The numbered schema migrations that are code rather than a script: DDL generated from the
FTS index definitions, a back-fill that needs Python, and the table rebuilds that add
AUTOINCREMENT. ``migrations.py`` numbers and runs them."""

from __future__ import annotations

import json
import re
import sqlite3

from omoide.engine.attachments import turn_text
from omoide.store.sqlite.indexes import EPISODE_FTS, EVENT_FTS, MEMORY_FTS


def memory_fts(conn: sqlite3.Connection) -> None:
    """The notes' keyword index (``indexes.MEMORY_FTS``)."""
    for statement in MEMORY_FTS.ddl():
        conn.execute(statement)


def episode_event_fts(conn: sqlite3.Connection) -> None:
    """The keyword indexes of episodes and turns."""
    for statement in (*EPISODE_FTS.ddl(), *EVENT_FTS.ddl()):
        conn.execute(statement)


def open_turns_fts(conn: sqlite3.Connection) -> None:
    """Turns used to enter the keyword index only when their episode closed; now every turn is
    indexed when posted, so index the turns of segments that were still open."""
    rows = conn.execute("SELECT id, content, metadata FROM session_events WHERE episode_id IS NULL")
    EVENT_FTS.index(conn, [(r[0], turn_text(r[1], json.loads(r[2] or "{}"))) for r in rows])


# Ids a client sees (a turn's ``event_id`` in search sources, an episode's id, a job's id, an API
# key's id) must never name another row later. A plain ``INTEGER PRIMARY KEY`` takes the
# largest id in the table + 1, so after a purge erased the newest rows their ids went to the
# next rows written; AUTOINCREMENT never hands out an id again. SQLite cannot add it to a
# table, so each is rebuilt from its own current definition (columns added by later
# migrations included) and its indexes recreated. The ids a purge erased before this
# migration are not known any more: numbering continues after the largest id still stored.
_AUTOINCREMENT_TABLES = ("session_events", "episodes", "jobs", "api_keys")
_ROWID_KEY = re.compile(r"\bid(\s+)INTEGER PRIMARY KEY\b(?!\s+AUTOINCREMENT)")


def autoincrement_ids(conn: sqlite3.Connection) -> None:
    """Rebuild each table of :data:`_AUTOINCREMENT_TABLES` with an AUTOINCREMENT id (see above)."""
    for table in _AUTOINCREMENT_TABLES:
        ddl = conn.execute(
            "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", (table,)
        ).fetchone()[0]
        rebuilt, found = _ROWID_KEY.subn(r"id\1INTEGER PRIMARY KEY AUTOINCREMENT", ddl, count=1)
        if not found:
            continue  # already AUTOINCREMENT
        temp = f"{table}__autoincrement"
        rebuilt = re.sub(rf"^CREATE TABLE\s+\"?{table}\"?", f"CREATE TABLE {temp}", rebuilt)
        indexes = [
            r[0]
            for r in conn.execute(
                "SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? "
                "AND sql IS NOT NULL",
                (table,),
            )
        ]
        columns = ", ".join(f'"{r[1]}"' for r in conn.execute(f'PRAGMA table_info("{table}")'))
        conn.execute(rebuilt)
        conn.execute(f"INSERT INTO {temp} ({columns}) SELECT {columns} FROM {table}")
        conn.execute(f"DROP TABLE {table}")
        conn.execute(f"ALTER TABLE {temp} RENAME TO {table}")
        for index in indexes:
            conn.execute(index)
    broken = conn.execute("PRAGMA foreign_key_check").fetchall()
    if broken:
        raise sqlite3.IntegrityError(f"foreign keys broken after the rebuild: {broken[:5]}")
