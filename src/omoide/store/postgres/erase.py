"""Hard deletes for the user's "forget" in PostgreSQL (the rules of ``store/sqlite/erase.py``).

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

from omoide.errors import NotFound
from omoide.model import Erased, VersionChange
from omoide.store.postgres.db import PgDatabase
from omoide.store.sqlite.erase import (
    COUNT_OPEN_JOBS,
    TAUGHT_SOURCES,
    said_in,
    take_back_evolution,
    with_remainders,
)
from omoide.store.sqlite.memories import MemoryStore
from omoide.store.sqlite.state import erase_session_state

__all__ = ["erase_persona", "erase_session", "purge_memories", "purge_memory"]

CHANGED_BY = "forget"

_MEMORY_CHILDREN = (
    "memory_versions",
    "memory_strength",
    "memory_vectors",
    "memory_tags",
    "memory_sources",
)
_MEMORY_TABLES = (
    "memories",
    *_MEMORY_CHILDREN,
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


def _ids(conn: Any, sql: str, *params: object) -> list[int]:
    return [int(r[0]) for r in conn.execute(sql, params)]


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
        pointing = _ids(
            conn,
            f"SELECT id FROM memories WHERE persona_id = ? AND {column} = ANY(?)",
            memories.persona_id,
            keys,
        )
        for other in pointing:
            if other not in doomed:
                memories.versioned_update(
                    conn,
                    other,
                    {column: None},
                    now=now,
                    change=VersionChange.UPDATE,
                    changed_by=CHANGED_BY,
                )
    conn.execute("DELETE FROM memory_links WHERE a = ANY(?) OR b = ANY(?)", (ids, ids))
    for table in _MEMORY_CHILDREN:
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
        found = with_remainders(conn, memories.persona_id, [memories.id_of(key)])
        sessions = said_in(conn, memories.persona_id, list(found))
        keys = _purge_found(conn, memories, found, now=now)
    return Erased(memories=len(keys), keys=tuple(keys), said_in=sessions)


def erase_session(
    db: PgDatabase, memories: MemoryStore, session_id: str, *, with_notes: bool, now: datetime
) -> Erased:
    """Erase one conversation (see the SQLite adapter's ``erase_session``)."""
    persona_id = memories.persona_id
    tables = (*_EPISODE_TABLES, *(_MEMORY_TABLES if with_notes else ("memory_sources", "jobs")))
    with db.erasing(persona_id, tables) as conn:
        row = conn.execute(
            "SELECT id FROM sessions WHERE persona_id = ? AND session_id = ?",
            (persona_id, session_id),
        ).fetchone()
        if row is None:
            raise NotFound(
                f"no session {session_id!r} for persona {memories.persona!r}",
                persona=memories.persona,
                session_id=session_id,
            )
        pk = int(row[0])
        events = _ids(conn, "SELECT id FROM session_events WHERE session_pk = ?", pk)
        episodes = _ids(conn, "SELECT id FROM episodes WHERE session_pk = ?", pk)
        episode_refs = [str(e) for e in episodes]
        purged: list[str] = []
        if with_notes:
            notes = _ids(
                conn,
                "SELECT DISTINCT memory_id FROM memory_sources WHERE event_id = ANY(?)",
                events,
            )
            notes += _ids(
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
        erase_session_state(conn, memories.persona, session_id)
        conn.execute("DELETE FROM sessions WHERE id = ?", (pk,))
        _delete_jobs(conn, persona_id, "session_id", [session_id])
        _delete_jobs(conn, persona_id, "episode_id", episodes)
        conn.execute(
            "UPDATE personas SET event_revision = event_revision + 1 WHERE id = ?", (persona_id,)
        )
    return Erased(
        memories=len(purged),
        keys=tuple(purged),
        sessions=1,
        events=len(events),
        episodes=len(episodes),
    )


def _taught_here_alone(conn: Any, notes: Sequence[int], session_pk: int) -> list[int]:
    """The notes this conversation alone taught (see the SQLite adapter's)."""
    ids = sorted(set(notes))
    kept = set(
        _ids(
            conn,
            "SELECT DISTINCT s.memory_id FROM memory_sources s JOIN "
            "session_events e ON e.id = s.event_id WHERE s.memory_id = ANY(?) "
            "AND e.session_pk != ?",
            ids,
            session_pk,
        )
    )
    kept.update(
        _ids(
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
        memory_ids = _ids(conn, "SELECT id FROM memories WHERE persona_id = ?", persona_id)
        events = _ids(conn, "SELECT id FROM session_events WHERE persona_id = ?", persona_id)
        episodes = _ids(conn, "SELECT id FROM episodes WHERE persona_id = ?", persona_id)
        sessions = conn.execute(
            "SELECT COUNT(*) FROM sessions WHERE persona_id = ?", (persona_id,)
        ).fetchone()[0]
        jobs = conn.execute(COUNT_OPEN_JOBS, (persona_id,)).fetchone()[0]
        conn.execute(
            "DELETE FROM memory_links WHERE a = ANY(?) OR b = ANY(?)", (memory_ids, memory_ids)
        )
        for table in _MEMORY_CHILDREN:
            conn.execute(f"DELETE FROM {table} WHERE memory_id = ANY(?)", (memory_ids,))
        conn.execute("DELETE FROM memory_sources WHERE event_id = ANY(?)", (events,))
        _unindex(conn, "memories", memory_ids)
        _erase_episode_tier(conn, events, episodes)
        for table in ("sessions", "memories"):
            conn.execute(f"DELETE FROM {table} WHERE persona_id = ?", (persona_id,))
        for table, column in tables:
            conn.execute(
                f"DELETE FROM {table} WHERE {column} = ?",
                (persona_id if column == "persona_id" else name,),
            )
        conn.execute("DELETE FROM personas WHERE id = ?", (persona_id,))
    return Erased(
        memories=len(memory_ids),
        sessions=int(sessions),
        events=len(events),
        episodes=len(episodes),
        jobs=int(jobs),
    )


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
