"""Hard deletes for the user's "forget" in PostgreSQL (the rules of ``store/sqlite/erase.py``,
those that hold in standard SQL run from ``store/sqlite/erase_rules.py``).

The same three erasures with the same effects: one memory, one conversation (optionally with
its notes), one persona. Each is one transaction holding the persona's write lock; ids are
passed as arrays (``= ANY(?)``), job payloads are read as JSON, and the tables keyed by a
persona are found in the catalogue. After the commit the touched tables are vacuumed, so the
dead row versions that still held the erased text are removed from the data files (what FTS5
``optimize`` and the WAL checkpoint do for the SQLite file).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from omoide.model import Erased
from omoide.store.postgres.db import PgDatabase
from omoide.store.sqlite.erase_rules import (
    MEMORY_CHILDREN,
    TAUGHT_SOURCES,
    clear_pointer,
    purge_by_key,
    select_ids,
    take_back_evolution,
    with_remainders,
)
from omoide.store.sqlite.erase_steps import (
    close_session,
    drop_persona_rows,
    persona_census,
    session_erased,
    session_pk,
    session_tier,
)
from omoide.store.sqlite.memories import MemoryStore

__all__ = ["erase_persona", "erase_session", "purge_memories", "purge_memory"]

# The tables each erasure touches, vacuumed after it.
_MEMORY_TABLES = (
    "memories",
    *MEMORY_CHILDREN,
    "memory_links",
    "memories_fts",
    "memories_fts_tri",
    "jobs",
)
_EPISODE_TABLES = (
    "sessions",
    "session_events",
    "event_vectors",
    "episodes",
    "episode_vectors",
    "session_events_fts",
    "session_events_fts_tri",
    "episodes_fts",
    "episodes_fts_tri",
    "user_state_history",
    "persona_state_history",
)


def _delete_jobs(conn: Any, persona_id: int, field: str, values: Sequence[int | str]) -> None:
    """Queued (or finished) jobs whose payload names one of ``values`` under ``field``."""
    if values:
        conn.execute(
            "DELETE FROM jobs WHERE persona_id = ? AND (payload::jsonb ->> ?) = ANY(?)",
            (persona_id, field, [str(v) for v in values]),
        )


def _unindex(conn: Any, name: str, ids: Sequence[int]) -> None:
    for table in (f"{name}_fts", f"{name}_fts_tri"):
        conn.execute(f"DELETE FROM {table} WHERE rowid = ANY(?)", (list(ids),))


def purge_memories(
    conn: Any, memories: MemoryStore, ids: Sequence[int], *, now: datetime
) -> list[str]:
    """Erase memories of ``memories``' persona, and their remainders, inside an erasing
    transaction; returns the keys erased."""
    return _purge_found(conn, memories, with_remainders(conn, memories.persona_id, ids), now=now)


def _purge_found(
    conn: Any, memories: MemoryStore, found: Mapping[int, str], *, now: datetime
) -> list[str]:
    """:func:`purge_memories` of memories already closed over their remainders (id → key)."""
    if not found:
        return []
    ids, keys = list(found), list(found.values())
    doomed = set(ids)
    take_back_evolution(conn, memories, keys, doomed, now=now)
    for column in ("superseded_by", "summary_ref"):
        pointing = select_ids(
            conn,
            f"SELECT id FROM memories WHERE persona_id = ? AND {column} = ANY(?)",
            memories.persona_id,
            keys,
        )
        clear_pointer(conn, memories, column, pointing, doomed, now=now)
    conn.execute("DELETE FROM memory_links WHERE a = ANY(?) OR b = ANY(?)", (ids, ids))
    for table in MEMORY_CHILDREN:
        conn.execute(f"DELETE FROM {table} WHERE memory_id = ANY(?)", (ids,))
    _unindex(conn, "memories", ids)
    _delete_jobs(conn, memories.persona_id, "key", keys)
    conn.execute(
        "DELETE FROM memories WHERE persona_id = ? AND id = ANY(?)", (memories.persona_id, ids)
    )
    memories.drop_from_index(conn, ids)
    return keys


def purge_memory(db: PgDatabase, memories: MemoryStore, key: str, *, now: datetime) -> Erased:
    """Erase one memory by key (active or tombstoned); NotFound for an unknown key."""
    with db.erasing(memories.persona_id, _MEMORY_TABLES) as conn:
        return purge_by_key(conn, memories, key, _purge_found, now=now)


def erase_session(
    db: PgDatabase, memories: MemoryStore, session_id: str, *, with_notes: bool, now: datetime
) -> Erased:
    """Erase one conversation (see the SQLite adapter's ``erase_session``)."""
    persona_id = memories.persona_id
    tables = (*_EPISODE_TABLES, *(_MEMORY_TABLES if with_notes else ("memory_sources", "jobs")))
    with db.erasing(persona_id, tables) as conn:
        pk = session_pk(conn, memories, session_id)
        events, episodes = session_tier(conn, pk)
        episode_refs = [str(e) for e in episodes]
        purged: list[str] = []
        if with_notes:
            notes = select_ids(
                conn,
                "SELECT DISTINCT memory_id FROM memory_sources WHERE event_id = ANY(?)",
                events,
            )
            notes += select_ids(
                conn,
                "SELECT id FROM memories WHERE persona_id = ? AND source_ref = ANY(?)",
                persona_id,
                episode_refs,
            )
            purged = purge_memories(conn, memories, _taught_here_alone(conn, notes, pk), now=now)
        conn.execute("DELETE FROM memory_sources WHERE event_id = ANY(?)", (events,))
        conn.execute(
            "UPDATE memories SET source_ref = NULL WHERE persona_id = ? AND source_ref = ANY(?)",
            (persona_id, episode_refs),
        )
        _erase_episode_tier(conn, events, episodes)
        close_session(conn, memories, session_id, pk, episodes, _delete_jobs)
    return session_erased(purged, events, episodes)


def _taught_here_alone(conn: Any, notes: Sequence[int], session_pk: int) -> list[int]:
    """The notes this conversation alone taught (see the SQLite adapter's)."""
    ids = sorted(set(notes))
    kept = set(
        select_ids(
            conn,
            "SELECT DISTINCT s.memory_id FROM memory_sources s JOIN "
            "session_events e ON e.id = s.event_id WHERE s.memory_id = ANY(?) "
            "AND e.session_pk != ?",
            ids,
            session_pk,
        )
    )
    kept.update(
        select_ids(
            conn,
            f"SELECT id FROM memories WHERE id = ANY(?) AND source NOT IN {TAUGHT_SOURCES}",
            ids,
        )
    )
    return [n for n in dict.fromkeys(notes) if n not in kept]


def _erase_episode_tier(conn: Any, events: Sequence[int], episodes: Sequence[int]) -> None:
    """Episodes, events, their vectors and keyword rows (episodes first: they name events)."""
    _unindex(conn, "session_events", events)
    _unindex(conn, "episodes", episodes)
    conn.execute("DELETE FROM episode_vectors WHERE episode_id = ANY(?)", (list(episodes),))
    conn.execute("DELETE FROM episodes WHERE id = ANY(?)", (list(episodes),))
    conn.execute("DELETE FROM event_vectors WHERE event_id = ANY(?)", (list(events),))
    conn.execute("DELETE FROM session_events WHERE id = ANY(?)", (list(events),))


def erase_persona(db: PgDatabase, persona_id: int, name: str) -> Erased:
    """Erase a persona and every row keyed by it, in every table (its API keys included)."""
    with db.write(persona_id) as conn:
        tables = _persona_columns(conn)
    every = tuple(
        dict.fromkeys(
            (*_MEMORY_TABLES, *_EPISODE_TABLES, "memory_links", *(t for t, _ in tables), "personas")
        )
    )
    with db.erasing(persona_id, every) as conn:
        held = persona_census(conn, persona_id)
        memory_ids = held.memory_ids
        conn.execute(
            "DELETE FROM memory_links WHERE a = ANY(?) OR b = ANY(?)", (memory_ids, memory_ids)
        )
        for table in MEMORY_CHILDREN:
            conn.execute(f"DELETE FROM {table} WHERE memory_id = ANY(?)", (memory_ids,))
        conn.execute("DELETE FROM memory_sources WHERE event_id = ANY(?)", (held.events,))
        _unindex(conn, "memories", memory_ids)
        _erase_episode_tier(conn, held.events, held.episodes)
        drop_persona_rows(conn, persona_id, name, tables)
    return held.erased()


def _persona_columns(conn: Any) -> list[tuple[str, str]]:
    """(table, column) for every table of the schema keyed by a persona id or name."""
    rows = conn.execute(
        "SELECT c.table_name, c.column_name FROM information_schema.columns c "
        "JOIN information_schema.tables t ON t.table_schema = c.table_schema "
        "AND t.table_name = c.table_name WHERE c.table_schema = current_schema() "
        "AND t.table_type = 'BASE TABLE' AND c.table_name <> 'personas' "
        "AND c.column_name IN ('persona_id', 'persona') ORDER BY c.table_name, c.column_name"
    )
    return [(r[0], r[1]) for r in rows]
