"""Hard deletes for the user's "forget" — the one exception to "nothing is lost" (DESIGN §2).

Three things can be erased: one memory (a purge), one conversation (its events, episodes and,
on request, the notes consolidated from it) and a whole persona. Each is one transaction run
through :meth:`Database.erasing` (``secure_delete``, then a truncating WAL checkpoint), and each
runs FTS5 ``optimize`` on the indexes it touched, so the erased text is left nowhere in the data
folder: not in the tables, not in a version's before-image, not in an FTS segment, not in the
WAL. What survives is only what the user did not ask to forget; a memory that pointed at an
erased one (``superseded_by``, ``summary_ref``) has the pointer cleared with a version row.

A purged memory takes with it the remainders split off from it (``with_remainders``): when
evolution closed a compound memory, the part it left current is a new memory holding part of
the purged text.

A purged memory's evolution is taken back where it left something of the memory on others:
its semantic links go with it, and the tags it merged into an older memory are removed from
that memory and its history (``take_back_evolution``). A memory it closed as contradicted
stays closed (only the pointer to it is cleared): the closure holds none of the purged text, and
reopening the old fact would assert it again, which the user did not ask for.

The rules that are the same in standard SQL live in ``erase_rules`` (the PostgreSQL adapter
runs them too); this module holds what is SQLite's: chunked ``IN`` lists, job payloads read with
``json_extract``, FTS5 ``unindex``/``optimize`` and the catalogue in ``sqlite_master``.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping, Sequence
from datetime import datetime

from omoide.model import Erased
from omoide.store.sqlite.db import Database
from omoide.store.sqlite.erase_rules import (
    MEMORY_CHILDREN,
    TAUGHT_SOURCES,
    chunks,
    clear_pointer,
    purge_by_key,
    run_in,
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
from omoide.store.sqlite.indexes import EPISODE_FTS, EVENT_FTS, MEMORY_FTS
from omoide.store.sqlite.memories import MemoryStore

__all__ = ["Erased", "erase_persona", "erase_session", "purge_memories", "purge_memory"]


def _delete_jobs(
    conn: sqlite3.Connection, persona_id: int, field: str, values: Sequence[int | str]
) -> None:
    """Queued (or finished) jobs whose payload names one of ``values`` under ``field``."""
    run_in(
        conn,
        "DELETE FROM jobs WHERE persona_id = ? AND "
        f"CAST(json_extract(payload, '$.{field}') AS TEXT) IN ({{marks}})",
        [str(v) for v in values],
        persona_id,
    )


def purge_memories(
    conn: sqlite3.Connection, memories: MemoryStore, ids: Sequence[int], *, now: datetime
) -> list[str]:
    """Erase memories of ``memories``' persona, and their remainders, inside an erasing
    transaction; returns the keys erased.

    Removes each memory with every version, link (both directions), tag, source, vector, FTS
    row and job naming it. A surviving memory that pointed at one of them loses the pointer,
    with a version row (its before-image holds the erased memory's key, never its text).
    """
    return _purge_found(conn, memories, with_remainders(conn, memories.persona_id, ids), now=now)


def _purge_found(
    conn: sqlite3.Connection, memories: MemoryStore, found: Mapping[int, str], *, now: datetime
) -> list[str]:
    """:func:`purge_memories` of memories already closed over their remainders (id → key)."""
    if not found:
        return []
    ids, keys = list(found), list(found.values())
    doomed = set(ids)
    take_back_evolution(conn, memories, keys, doomed, now=now)
    for column in ("superseded_by", "summary_ref"):
        pointing: list[int] = []
        for chunk in chunks(keys):
            pointing += select_ids(
                conn,
                f"SELECT id FROM memories WHERE persona_id = ? AND {column} "
                f"IN ({','.join('?' * len(chunk))})",
                memories.persona_id,
                *chunk,
            )
        clear_pointer(conn, memories, column, pointing, doomed, now=now)
    run_in(conn, "DELETE FROM memory_links WHERE a IN ({marks})", ids)
    run_in(conn, "DELETE FROM memory_links WHERE b IN ({marks})", ids)
    for table in MEMORY_CHILDREN:
        run_in(conn, f"DELETE FROM {table} WHERE memory_id IN ({{marks}})", ids)
    MEMORY_FTS.unindex(conn, ids, persona_id=memories.persona_id)
    _delete_jobs(conn, memories.persona_id, "key", keys)
    run_in(
        conn,
        "DELETE FROM memories WHERE persona_id = ? AND id IN ({marks})",
        ids,
        memories.persona_id,
    )
    MEMORY_FTS.optimize(conn)
    memories.drop_from_index(conn, ids)
    return keys


def purge_memory(db: Database, memories: MemoryStore, key: str, *, now: datetime) -> Erased:
    """Erase one memory by key (active or tombstoned); NotFound for an unknown key."""
    with db.erasing() as conn:
        return purge_by_key(conn, memories, key, _purge_found, now=now)


def erase_session(
    db: Database, memories: MemoryStore, session_id: str, *, with_notes: bool, now: datetime
) -> Erased:
    """Erase one conversation: its events, their FTS rows and vectors, its episodes, the user
    state learned from it and the session itself; with ``with_notes`` also the notes
    consolidated from it (found exactly by provenance: their source events, or their source
    episode). Notes that are kept lose their provenance to the erased turns. NotFound for an
    unknown session."""
    persona_id = memories.persona_id
    with db.erasing() as conn:
        pk = session_pk(conn, memories, session_id)
        events, episodes = session_tier(conn, pk)
        episode_refs = [str(e) for e in episodes]
        purged: list[str] = []
        if with_notes:
            notes: list[int] = []
            for chunk in chunks(events):
                notes += select_ids(
                    conn,
                    "SELECT DISTINCT memory_id FROM memory_sources WHERE "
                    f"event_id IN ({','.join('?' * len(chunk))})",
                    *chunk,
                )
            for chunk in chunks(episode_refs):
                notes += select_ids(
                    conn,
                    "SELECT id FROM memories WHERE persona_id = ? AND "
                    f"source_ref IN ({','.join('?' * len(chunk))})",
                    persona_id,
                    *chunk,
                )
            purged = purge_memories(conn, memories, _taught_here_alone(conn, notes, pk), now=now)
        run_in(conn, "DELETE FROM memory_sources WHERE event_id IN ({marks})", events)
        run_in(
            conn,
            "UPDATE memories SET source_ref = NULL WHERE persona_id = ? AND "
            "source_ref IN ({marks})",
            episode_refs,
            persona_id,
        )
        _erase_episode_tier(conn, events, episodes)
        close_session(conn, memories, session_id, pk, episodes, _delete_jobs)
    return session_erased(purged, events, episodes)


def _taught_here_alone(
    conn: sqlite3.Connection, notes: Sequence[int], session_pk: int
) -> list[int]:
    """The notes of ``notes`` this conversation alone taught: made by consolidation (or split
    from such a note by evolution), with no turn of another conversation among their sources.
    A note another conversation also stated, or one written by hand, is kept."""
    kept: set[int] = set()
    for chunk in chunks(sorted(set(notes))):
        marks = ",".join("?" * len(chunk))
        kept.update(
            select_ids(
                conn,
                "SELECT DISTINCT s.memory_id FROM memory_sources s JOIN "
                "session_events e ON e.id = s.event_id WHERE s.memory_id IN "
                f"({marks}) AND e.session_pk != ?",
                *chunk,
                session_pk,
            )
        )
        kept.update(
            select_ids(
                conn,
                f"SELECT id FROM memories WHERE id IN ({marks}) AND source NOT IN {TAUGHT_SOURCES}",
                *chunk,
            )
        )
    return [n for n in dict.fromkeys(notes) if n not in kept]


def _erase_episode_tier(
    conn: sqlite3.Connection, events: Sequence[int], episodes: Sequence[int]
) -> None:
    """Episodes, events, their vectors and FTS rows (episodes first: they name their events)."""
    EVENT_FTS.unindex(conn, events)
    EPISODE_FTS.unindex(conn, episodes)
    run_in(conn, "DELETE FROM episode_vectors WHERE episode_id IN ({marks})", episodes)
    run_in(conn, "DELETE FROM episodes WHERE id IN ({marks})", episodes)
    run_in(conn, "DELETE FROM event_vectors WHERE event_id IN ({marks})", events)
    run_in(conn, "DELETE FROM session_events WHERE id IN ({marks})", events)
    EVENT_FTS.optimize(conn)
    EPISODE_FTS.optimize(conn)


def erase_persona(db: Database, persona_id: int, name: str) -> Erased:
    """Erase a persona and every row keyed by it, in every table (its API keys included).

    Tables are known by name where the order matters (children before parents); then every
    other table with a ``persona_id`` or ``persona`` column is swept, so a table added later is
    not forgotten.
    """
    with db.erasing() as conn:
        held = persona_census(conn, persona_id)
        run_in(conn, "DELETE FROM memory_links WHERE a IN ({marks})", held.memory_ids)
        run_in(conn, "DELETE FROM memory_links WHERE b IN ({marks})", held.memory_ids)
        for table in MEMORY_CHILDREN:
            run_in(conn, f"DELETE FROM {table} WHERE memory_id IN ({{marks}})", held.memory_ids)
        run_in(conn, "DELETE FROM memory_sources WHERE event_id IN ({marks})", held.events)
        MEMORY_FTS.unindex(conn, held.memory_ids, persona_id=persona_id)
        MEMORY_FTS.optimize(conn)
        _erase_episode_tier(conn, held.events, held.episodes)
        drop_persona_rows(conn, persona_id, name, _persona_columns(conn))
    return held.erased()


def _persona_columns(conn: sqlite3.Connection) -> list[tuple[str, str]]:
    """(table, column) for every ordinary table keyed by a persona id or name."""
    found = []
    tables = [
        r[0]
        for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name != 'personas' "
            "AND sql NOT LIKE 'CREATE VIRTUAL%' AND name NOT LIKE 'sqlite_%' ORDER BY rowid"
        )
    ]
    for table in tables:
        columns = {r[1] for r in conn.execute(f'PRAGMA table_info("{table}")')}
        for column in ("persona_id", "persona"):
            if column in columns:
                found.append((table, column))
    return found
