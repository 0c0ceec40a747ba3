"""Hard deletes for the user's "forget" — the one exception to "nothing is lost" (DESIGN §2).

Three things can be erased: one memory (a purge), one conversation (its events, episodes and,
on request, the notes consolidated from it) and a whole persona. Each is one transaction run
through :meth:`Database.erasing` (``secure_delete``, then a truncating WAL checkpoint), and each
runs FTS5 ``optimize`` on the indexes it touched, so the erased text is left nowhere in the data
folder: not in the tables, not in a version's before-image, not in an FTS segment, not in the
WAL. What survives is only what the user did not ask to forget; a memory that pointed at an
erased one (``superseded_by``, ``summary_ref``) has the pointer cleared with a version row.

A purged memory takes with it the remainders split off from it (:func:`with_remainders`): when
evolution closed a compound memory, the part it left current is a new memory holding part of
the purged text.

A purged memory's evolution is taken back where it left something of the memory on others:
its semantic links go with it, and the tags it merged into an older memory are removed from
that memory and its history (:func:`take_back_evolution`). A memory it closed as contradicted
stays closed (only the pointer to it is cleared): the closure holds none of the purged text, and
reopening the old fact would assert it again, which the user did not ask for.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any

from omoide.errors import NotFound
from omoide.model import PERIODIC_KINDS, Erased, VersionChange
from omoide.store.sqlite.db import Database
from omoide.store.sqlite.indexes import EPISODE_FTS, EVENT_FTS, MEMORY_FTS
from omoide.store.sqlite.memories import MemoryStore
from omoide.store.sqlite.memory_writes import SELECT_MEMORY
from omoide.store.sqlite.rows import memory_from_row
from omoide.store.sqlite.state import erase_session_state

__all__ = [
    "TAUGHT_SOURCES",
    "Erased",
    "erase_persona",
    "erase_session",
    "purge_memories",
    "purge_memory",
    "take_back_evolution",
    "with_remainders",
]

_CHUNK = 500
CHANGED_BY = "forget"
# The ``source`` of notes a conversation teaches (consolidated, or split off one by evolution).
TAUGHT_SOURCES = "('consolidation', 'evolution')"

# Children of ``memories`` (deleted before the memories themselves; foreign keys are on).
_MEMORY_CHILDREN = (
    "memory_versions",
    "memory_strength",
    "memory_vectors",
    "memory_tags",
    "memory_sources",
)


def _chunks(ids: Sequence[int | str]) -> Iterable[Sequence[int | str]]:
    for start in range(0, len(ids), _CHUNK):
        yield ids[start : start + _CHUNK]


def _run_in(conn: sqlite3.Connection, sql: str, ids: Sequence[int | str], *params: object) -> None:
    """Run ``sql`` (with ``{marks}`` for an IN list, after ``params``) over ``ids`` in chunks."""
    for chunk in _chunks(ids):
        conn.execute(sql.format(marks=",".join("?" * len(chunk))), (*params, *chunk))


def _ids(conn: sqlite3.Connection, sql: str, *params: object) -> list[int]:
    return [int(r[0]) for r in conn.execute(sql, params)]


def _delete_jobs(
    conn: sqlite3.Connection, persona_id: int, field: str, values: Sequence[int | str]
) -> None:
    """Queued (or finished) jobs whose payload names one of ``values`` under ``field``."""
    _run_in(
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
        for chunk in _chunks(keys):
            pointing += _ids(
                conn,
                f"SELECT id FROM memories WHERE persona_id = ? AND {column} "
                f"IN ({','.join('?' * len(chunk))})",
                memories.persona_id,
                *chunk,
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
    _run_in(conn, "DELETE FROM memory_links WHERE a IN ({marks})", ids)
    _run_in(conn, "DELETE FROM memory_links WHERE b IN ({marks})", ids)
    for table in _MEMORY_CHILDREN:
        _run_in(conn, f"DELETE FROM {table} WHERE memory_id IN ({{marks}})", ids)
    MEMORY_FTS.unindex(conn, ids, persona_id=memories.persona_id)
    _delete_jobs(conn, memories.persona_id, "key", keys)
    _run_in(
        conn,
        "DELETE FROM memories WHERE persona_id = ? AND id IN ({marks})",
        ids,
        memories.persona_id,
    )
    MEMORY_FTS.optimize(conn)
    memories.drop_from_index(conn, ids)
    return keys


def with_remainders(conn: Any, persona_id: int, ids: Sequence[int]) -> dict[int, str]:
    """The memories ``ids`` of the persona and, transitively, every memory evolution split off
    from one of them as the unchanged part of a closed compound (``source`` "evolution",
    ``source_ref`` the closed memory's key): a remainder holds part of its source's text.
    Returns each found memory's key by id, in id order (ids the persona does not hold are left
    out). Standard SQL: the PostgreSQL adapter runs it too."""

    def keys_where(column: str, values: Sequence[int | str]) -> dict[int, str]:
        rows: dict[int, str] = {}
        for chunk in _chunks(values):
            rows.update(
                (int(r[0]), str(r[1]))
                for r in conn.execute(
                    f"SELECT id, key FROM memories WHERE persona_id = ? AND {column} IN "
                    f"({','.join('?' * len(chunk))})",
                    (persona_id, *chunk),
                )
            )
        return rows

    found = keys_where("id", sorted(set(ids)))
    fresh = found
    while fresh:
        fresh = {
            i: k
            for i, k in keys_where(
                "source = 'evolution' AND source_ref", sorted(fresh.values())
            ).items()
            if i not in found
        }
        found.update(fresh)
    return dict(sorted(found.items()))


def said_in(conn: Any, persona_id: int, ids: Sequence[int]) -> tuple[str, ...]:
    """The sessions (by id, sorted) whose turns the memories ``ids`` were drawn from, by
    provenance: their source events, and the episode a consolidation note was built from.
    A purge reports them: the words it erased may still be said there. Standard SQL: the
    PostgreSQL adapter runs it too."""
    found: set[str] = set()
    for chunk in _chunks(sorted(set(ids))):
        marks = ",".join("?" * len(chunk))
        found.update(
            str(r[0])
            for r in conn.execute(
                "SELECT DISTINCT ss.session_id FROM memory_sources s JOIN session_events e ON "
                "e.id = s.event_id JOIN sessions ss ON ss.id = e.session_pk WHERE ss.persona_id = "
                f"? AND s.memory_id IN ({marks})",
                (persona_id, *chunk),
            )
        )
        episodes = [
            int(r[0])
            for r in conn.execute(
                "SELECT source_ref FROM memories WHERE persona_id = ? AND source = "
                f"'consolidation' AND id IN ({marks})",
                (persona_id, *chunk),
            )
            if r[0] is not None and str(r[0]).isdigit()
        ]
        for part in _chunks(episodes):
            found.update(
                str(r[0])
                for r in conn.execute(
                    "SELECT DISTINCT ss.session_id FROM episodes ep JOIN sessions ss ON ss.id = "
                    "ep.session_pk WHERE ss.persona_id = ? AND ep.id IN "
                    f"({','.join('?' * len(part))})",
                    (persona_id, *part),
                )
            )
    return tuple(sorted(found))


def take_back_evolution(
    conn: Any, memories: MemoryStore, keys: Sequence[str], doomed: set[int], *, now: datetime
) -> list[int]:
    """Undo what the memories ``keys`` (being purged) contributed to others by their evolution:
    the tags an EXTEND merged into an older memory, and the importance it raised. Returns the
    ids of the memories changed.

    The extend's version rows (they name their cause) are deleted, and the taken-back tags are
    scrubbed from every other image of that memory's history, so the purged memory's tags are
    nowhere afterwards. A tag stays when another change of the memory also added it (its own
    creation, a user's edit, another memory's extend). Importance goes back to its value before
    the extend only if that extend was the memory's last importance change. Standard SQL: the
    PostgreSQL adapter runs it too. A supersede is not undone (module docstring).
    """
    rows: list[Any] = []
    for chunk in _chunks(list(keys)):
        rows += conn.execute(
            "SELECT v.id, v.memory_id FROM memory_versions v JOIN memories m ON m.id = "
            "v.memory_id WHERE m.persona_id = ? AND v.change = ? AND v.cause IN "
            f"({','.join('?' * len(chunk))})",
            (memories.persona_id, VersionChange.EXTEND, *chunk),
        ).fetchall()
    caused: dict[int, set[int]] = {}
    for version_id, memory_id in rows:
        if int(memory_id) not in doomed:
            caused.setdefault(int(memory_id), set()).add(int(version_id))
    for memory_id, undone in caused.items():
        history = [
            (int(r[0]), json.loads(r[1]) if r[1] else None, json.loads(r[2] or "{}"))
            for r in conn.execute(
                "SELECT id, before, after FROM memory_versions "
                "WHERE memory_id = ? ORDER BY version",
                (memory_id,),
            )
        ]
        added: dict[bool, set[str]] = {True: set(), False: set()}
        for vid, before, after in history:
            added[vid in undone] |= set(after.get("tags", [])) - set((before or {}).get("tags", []))
        drop = added[True] - added[False]
        memory = memory_from_row(
            conn.execute(SELECT_MEMORY + " WHERE m.id = ?", (memory_id,)).fetchone(),
            memories.persona,
        )
        changes: dict[str, Any] = {}
        if drop:
            changes["tags"] = tuple(t for t in memory.tags if t not in drop)
        raised = [
            (vid, before, after)
            for vid, before, after in history
            if before is not None and before.get("importance") != after.get("importance")
        ]
        if (
            raised
            and raised[-1][0] in undone
            and memory.importance == raised[-1][2].get("importance")
        ):
            changes["importance"] = raised[-1][1]["importance"]
        if changes:
            memories.versioned_update(
                conn,
                memory_id,
                changes,
                now=now,
                change=VersionChange.UPDATE,
                changed_by=CHANGED_BY,
            )
        _run_in(conn, "DELETE FROM memory_versions WHERE id IN ({marks})", sorted(undone))
        if drop:
            _scrub_tags(conn, memory_id, drop)
    return sorted(caused)


def _scrub_tags(conn: Any, memory_id: int, drop: set[str]) -> None:
    """Remove ``drop`` from the tags of every before/after image of one memory's history."""
    for vid, before, after in conn.execute(
        "SELECT id, before, after FROM memory_versions WHERE memory_id = ?", (memory_id,)
    ).fetchall():
        images = []
        for image in (before, after):
            if image is None:
                images.append(None)
                continue
            values = json.loads(image)
            values["tags"] = [t for t in values.get("tags", []) if t not in drop]
            images.append(json.dumps(values, ensure_ascii=False))
        if images != [before, after]:
            conn.execute(
                "UPDATE memory_versions SET before = ?, after = ? WHERE id = ?", (*images, vid)
            )


def purge_memory(db: Database, memories: MemoryStore, key: str, *, now: datetime) -> Erased:
    """Erase one memory by key (active or tombstoned); NotFound for an unknown key."""
    with db.erasing() as conn:
        found = with_remainders(conn, memories.persona_id, [memories.id_of(key)])
        sessions = said_in(conn, memories.persona_id, list(found))
        keys = _purge_found(conn, memories, found, now=now)
    return Erased(memories=len(keys), keys=tuple(keys), said_in=sessions)


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
            notes: list[int] = []
            for chunk in _chunks(events):
                notes += _ids(
                    conn,
                    "SELECT DISTINCT memory_id FROM memory_sources WHERE "
                    f"event_id IN ({','.join('?' * len(chunk))})",
                    *chunk,
                )
            for chunk in _chunks(episode_refs):
                notes += _ids(
                    conn,
                    "SELECT id FROM memories WHERE persona_id = ? AND "
                    f"source_ref IN ({','.join('?' * len(chunk))})",
                    persona_id,
                    *chunk,
                )
            purged = purge_memories(conn, memories, _taught_here_alone(conn, notes, pk), now=now)
        _run_in(conn, "DELETE FROM memory_sources WHERE event_id IN ({marks})", events)
        _run_in(
            conn,
            "UPDATE memories SET source_ref = NULL WHERE persona_id = ? AND "
            "source_ref IN ({marks})",
            episode_refs,
            persona_id,
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


def _taught_here_alone(
    conn: sqlite3.Connection, notes: Sequence[int], session_pk: int
) -> list[int]:
    """The notes of ``notes`` this conversation alone taught: made by consolidation (or split
    from such a note by evolution), with no turn of another conversation among their sources.
    A note another conversation also stated, or one written by hand, is kept."""
    kept: set[int] = set()
    for chunk in _chunks(sorted(set(notes))):
        marks = ",".join("?" * len(chunk))
        kept.update(
            _ids(
                conn,
                "SELECT DISTINCT s.memory_id FROM memory_sources s JOIN "
                "session_events e ON e.id = s.event_id WHERE s.memory_id IN "
                f"({marks}) AND e.session_pk != ?",
                *chunk,
                session_pk,
            )
        )
        kept.update(
            _ids(
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
    _run_in(conn, "DELETE FROM episode_vectors WHERE episode_id IN ({marks})", episodes)
    _run_in(conn, "DELETE FROM episodes WHERE id IN ({marks})", episodes)
    _run_in(conn, "DELETE FROM event_vectors WHERE event_id IN ({marks})", events)
    _run_in(conn, "DELETE FROM session_events WHERE id IN ({marks})", events)
    EVENT_FTS.optimize(conn)
    EPISODE_FTS.optimize(conn)


# The persona's background work that an erasure drops: queued or running, not the scheduled
# decay every persona has.
COUNT_OPEN_JOBS = (
    "SELECT COUNT(*) FROM jobs WHERE persona_id = ? AND status IN "
    f"('pending', 'running') AND kind NOT IN "
    f"({', '.join(repr(k) for k in PERIODIC_KINDS)})"
)


def erase_persona(db: Database, persona_id: int, name: str) -> Erased:
    """Erase a persona and every row keyed by it, in every table (its API keys included).

    Tables are known by name where the order matters (children before parents); then every
    other table with a ``persona_id`` or ``persona`` column is swept, so a table added later is
    not forgotten.
    """
    with db.erasing() as conn:
        memory_ids = _ids(conn, "SELECT id FROM memories WHERE persona_id = ?", persona_id)
        events = _ids(conn, "SELECT id FROM session_events WHERE persona_id = ?", persona_id)
        episodes = _ids(conn, "SELECT id FROM episodes WHERE persona_id = ?", persona_id)
        sessions = conn.execute(
            "SELECT COUNT(*) FROM sessions WHERE persona_id = ?", (persona_id,)
        ).fetchone()[0]
        jobs = conn.execute(COUNT_OPEN_JOBS, (persona_id,)).fetchone()[0]
        _run_in(conn, "DELETE FROM memory_links WHERE a IN ({marks})", memory_ids)
        _run_in(conn, "DELETE FROM memory_links WHERE b IN ({marks})", memory_ids)
        for table in _MEMORY_CHILDREN:
            _run_in(conn, f"DELETE FROM {table} WHERE memory_id IN ({{marks}})", memory_ids)
        _run_in(conn, "DELETE FROM memory_sources WHERE event_id IN ({marks})", events)
        MEMORY_FTS.unindex(conn, memory_ids, persona_id=persona_id)
        MEMORY_FTS.optimize(conn)
        _erase_episode_tier(conn, events, episodes)
        for table in ("sessions", "memories"):
            conn.execute(f"DELETE FROM {table} WHERE persona_id = ?", (persona_id,))
        for table, column in _persona_columns(conn):
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
